"""The env service's live sessions: isolated, cheap, capped, and reaped when abandoned.

A session is kept in least-recently-used order, so expiry looks only at the oldest sessions: opening one never
scans them all. An expired session is gone the moment it is asked for, whether or not the reaper has run yet;
the reaper (a task started with the server) frees what nobody asks for again, such as the sessions of an
orchestrator that was killed.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Session, Task
from taumesh.rpc.errors import ResourceExhausted

log = logging.getLogger(__name__)

_REMEMBERED_REQUESTS = 64

DEFAULT_IDLE_TIMEOUT = 900.0
"""Seconds a session may go unused before it expires (an episode touches its session at every tool call)."""
DEFAULT_MAX_SESSIONS = 2000
"""Open sessions one env process holds at most (each costs only the records its write tools touched)."""


@dataclass
class LiveSession:
    """A session plus what the service needs to serve it: its task and recent results for retries."""

    session: Session
    task: Task
    last_used: float = field(default_factory=time.monotonic)
    results: OrderedDict[str, tuple[bytes, Any]] = field(default_factory=OrderedDict)
    """Recent answers by request id, each with the serialized call it answered."""
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while one of its calls runs: a session's calls run one at a time, even a tool off the event loop."""

    def remember(self, request_id: str, call: bytes, result: Any) -> None:
        """Keep ``result`` so a retried request with the same id (and call) gets it instead of a second run."""
        if request_id:
            self.results[request_id] = (call, result)
            while len(self.results) > _REMEMBERED_REQUESTS:
                self.results.popitem(last=False)


class SessionStore:
    """Sessions by id, at most ``max_sessions`` of them; one idle longer than ``idle_timeout`` seconds is gone.

    Session ids are bearer tokens: nothing here logs them.
    """

    def __init__(
        self,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if idle_timeout <= 0 or max_sessions < 1:
            raise ValueError("idle_timeout must be positive and max_sessions at least 1")
        self.idle_timeout = idle_timeout
        self.max_sessions = max_sessions
        self._clock = clock
        self._sessions: OrderedDict[str, LiveSession] = OrderedDict()
        """Least recently used first."""

    def open(self, session: Session, task: Task) -> str:
        """Keep ``session`` under a new random id; RESOURCE_EXHAUSTED (``SESSION_LIMIT``) when the cap is reached."""
        self.reap()
        if len(self._sessions) >= self.max_sessions:
            oldest = next(iter(self._sessions.values()))
            frees_in = oldest.last_used + self.idle_timeout - self._clock()
            raise ResourceExhausted(
                f"this env serves at most {self.max_sessions} open sessions and all are in use: close finished "
                "sessions (CloseSession), lower the run's concurrency, or raise the env's --max-sessions",
                reason="SESSION_LIMIT",
                retry_after=min(max(frees_in, 1.0), self.idle_timeout),
            )
        session_id = uuid.uuid4().hex
        self._sessions[session_id] = LiveSession(session, task, last_used=self._clock())
        return session_id

    def get(self, session_id: str) -> LiveSession | None:
        """The live session, marked used now; None when unknown or expired (an expired one is dropped here)."""
        live = self._sessions.get(session_id)
        if live is None:
            return None
        now = self._clock()
        if live.last_used <= now - self.idle_timeout:
            del self._sessions[session_id]
            return None
        live.last_used = now
        self._sessions.move_to_end(session_id)
        return live

    def close(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)

    def reap(self) -> int:
        """Drop the sessions idle past the timeout (only the oldest are looked at); returns how many."""
        limit = self._clock() - self.idle_timeout
        dropped = 0
        while self._sessions:
            oldest_id, oldest = next(iter(self._sessions.items()))
            if oldest.last_used > limit:
                break
            del self._sessions[oldest_id]
            dropped += 1
        return dropped

    @property
    def reap_interval(self) -> float:
        """How often the reaper runs: a quarter of the idle timeout, between 0.25 s and 60 s."""
        return min(max(self.idle_timeout / 4, 0.25), 60.0)

    async def reap_forever(self) -> None:
        """Reap every :attr:`reap_interval` seconds until cancelled; each reap that drops sessions is logged."""
        while True:
            await asyncio.sleep(self.reap_interval)
            dropped = self.reap()
            if dropped:
                log.info("reaped %d idle session(s) after %.0fs unused; %d open", dropped, self.idle_timeout, len(self))

    def __len__(self) -> int:
        return len(self._sessions)
