"""The env service's live sessions: isolated, cheap, capped, and reaped when abandoned.

A session is kept in least-recently-used order, so expiry looks only at the oldest sessions: opening one never
scans them all. An expired session is gone the moment it is asked for, whether or not the reaper has run yet;
the reaper (a task started with the server) frees what nobody asks for again, such as the sessions of an
orchestrator that was killed. The ids of the last :data:`REMEMBERED_REAPED` sessions dropped idle are kept, so a
late call on one is told it was reaped rather than that it never existed.

Two caps: ``max_sessions`` over the process, and (opt-in) ``max_per_run`` over the sessions of one run, the
run being what OpenSessionRequest.run_id names; a request without a run id counts against the first cap only.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter, OrderedDict
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
REMEMBERED_REAPED = 4096
"""Ids of sessions dropped idle that are remembered (about 0.5 MB), so a late call hears why its session is gone."""
SESSION_LIMIT = "SESSION_LIMIT"
"""ErrorInfo reason of an OpenSession refused because the process holds ``max_sessions``."""
RUN_SESSION_LIMIT = "RUN_SESSION_LIMIT"
"""ErrorInfo reason of an OpenSession refused because its run holds ``max_per_run`` sessions here."""
RUN_LIMIT_RETRY_S = 1.0
"""RetryInfo of a per-run refusal: a place frees when one of the run's own episodes ends, which nobody here knows."""


@dataclass
class SessionCounts:
    """What the store did since it started: sessions opened, closed by a client, reaped idle, and refused."""

    opened: int = 0
    closed: int = 0
    reaped: int = 0
    refused: int = 0
    """By the process cap (``SESSION_LIMIT``)."""
    refused_per_run: int = 0
    """By the per-run cap (``RUN_SESSION_LIMIT``)."""


@dataclass
class LiveSession:
    """A session plus what the service needs to serve it: its task and recent results for retries."""

    session: Session
    task: Task
    run_id: str = ""
    """The run that opened it (OpenSessionRequest.run_id); empty: none said."""
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
    """Sessions by id: at most ``max_sessions`` (``max_per_run`` a run); one idle past ``idle_timeout`` s is gone.

    Session ids are bearer tokens: nothing here logs them.
    """

    def __init__(
        self,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
        max_per_run: int | None = None,
    ) -> None:
        if idle_timeout <= 0 or max_sessions < 1 or (max_per_run is not None and max_per_run < 1):
            raise ValueError("idle_timeout must be positive, max_sessions and max_per_run at least 1")
        self.idle_timeout = idle_timeout
        self.max_sessions = max_sessions
        self.max_per_run = max_per_run
        self.counts = SessionCounts()
        self._clock = clock
        self._sessions: OrderedDict[str, LiveSession] = OrderedDict()
        """Least recently used first."""
        self._per_run: Counter[str] = Counter()
        """Open sessions by run id (runs that named themselves only)."""
        self._reaped: OrderedDict[str, None] = OrderedDict()
        """The ids of the last sessions dropped idle, oldest first."""

    def open(self, session: Session, task: Task, run_id: str = "") -> str:
        """Keep ``session`` under a new random id; RESOURCE_EXHAUSTED when a cap is reached.

        Reason ``SESSION_LIMIT``: the process holds ``max_sessions``; ``RUN_SESSION_LIMIT``: ``run_id`` holds
        ``max_per_run`` (a run id that is empty is never capped per run).
        """
        self.reap()
        if len(self._sessions) >= self.max_sessions:
            self.counts.refused += 1
            oldest = next(iter(self._sessions.values()))
            frees_in = oldest.last_used + self.idle_timeout - self._clock()
            raise ResourceExhausted(
                f"this env serves at most {self.max_sessions} open sessions and all are in use: close finished "
                "sessions (CloseSession), lower the run's concurrency, or raise the env's --max-sessions",
                reason=SESSION_LIMIT,
                retry_after=min(max(frees_in, 1.0), self.idle_timeout),
            )
        if self.max_per_run is not None and run_id and self._per_run[run_id] >= self.max_per_run:
            self.counts.refused_per_run += 1
            raise ResourceExhausted(
                f"run {run_id[:64]!r} already holds {self.max_per_run} open sessions on this env, its "
                "--max-sessions-per-run: open the next one when one of the run's episodes has ended (CloseSession "
                "or GetFinalState with close_session), or lower the run's concurrency",
                reason=RUN_SESSION_LIMIT,
                retry_after=RUN_LIMIT_RETRY_S,
            )
        session_id = uuid.uuid4().hex
        self._sessions[session_id] = LiveSession(session, task, run_id, last_used=self._clock())
        if run_id:
            self._per_run[run_id] += 1
        self.counts.opened += 1
        return session_id

    def get(self, session_id: str) -> LiveSession | None:
        """The live session, marked used now; None when unknown or expired (an expired one is dropped here)."""
        live = self._sessions.get(session_id)
        if live is None:
            return None
        now = self._clock()
        if live.last_used <= now - self.idle_timeout:
            self._drop(session_id, reaped=True)
            return None
        live.last_used = now
        self._sessions.move_to_end(session_id)
        return live

    def close(self, session_id: str) -> None:
        if self._drop(session_id, reaped=False):
            self.counts.closed += 1

    def was_reaped(self, session_id: str) -> bool:
        """Whether ``session_id`` is one of the last :data:`REMEMBERED_REAPED` sessions dropped for being idle."""
        return session_id in self._reaped

    def open_for(self, run_id: str) -> int:
        """How many sessions ``run_id`` holds open here."""
        return self._per_run.get(run_id, 0)

    def _drop(self, session_id: str, *, reaped: bool) -> bool:
        """Forget ``session_id`` (and its place in its run's count); False when it was not open."""
        live = self._sessions.pop(session_id, None)
        if live is None:
            return False
        if live.run_id:
            self._per_run[live.run_id] -= 1
            if self._per_run[live.run_id] <= 0:
                del self._per_run[live.run_id]
        if reaped:
            self.counts.reaped += 1
            self._reaped[session_id] = None
            while len(self._reaped) > REMEMBERED_REAPED:
                self._reaped.popitem(last=False)
        return True

    def reap(self) -> int:
        """Drop the sessions idle past the timeout (only the oldest are looked at); returns how many."""
        limit = self._clock() - self.idle_timeout
        dropped = 0
        while self._sessions:
            oldest_id, oldest = next(iter(self._sessions.items()))
            if oldest.last_used > limit:
                break
            self._drop(oldest_id, reaped=True)
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
                counts = self.counts
                log.info("reaped %d idle session(s) after %.0fs unused; %d open", dropped, self.idle_timeout, len(self))
                log.info(
                    "sessions since start: %d opened, %d closed, %d dropped idle, %d refused (%d by the per-run cap)",
                    counts.opened,
                    counts.closed,
                    counts.reaped,
                    counts.refused + counts.refused_per_run,
                    counts.refused_per_run,
                )

    def __len__(self) -> int:
        return len(self._sessions)
