"""The env service's live sessions: isolated, cheap, and reaped when abandoned."""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Session, Task

_REMEMBERED_REQUESTS = 64


@dataclass
class LiveSession:
    """A session plus what the service needs to serve it: its task and recent results for retries."""

    session: Session
    task: Task
    last_used: float = field(default_factory=time.monotonic)
    results: OrderedDict[str, tuple[bytes, Any]] = field(default_factory=OrderedDict)
    """Recent answers by request id, each with the serialized call it answered."""

    def remember(self, request_id: str, call: bytes, result: Any) -> None:
        """Keep ``result`` so a retried request with the same id (and call) gets it instead of a second run."""
        if request_id:
            self.results[request_id] = (call, result)
            while len(self.results) > _REMEMBERED_REQUESTS:
                self.results.popitem(last=False)


class SessionStore:
    """Sessions by id. Sessions idle for longer than ``idle_timeout`` seconds are dropped."""

    def __init__(self, idle_timeout: float = 3600.0) -> None:
        self.idle_timeout = idle_timeout
        self._sessions: dict[str, LiveSession] = {}

    def open(self, session: Session, task: Task) -> str:
        self.reap()
        session_id = uuid.uuid4().hex
        self._sessions[session_id] = LiveSession(session, task)
        return session_id

    def get(self, session_id: str) -> LiveSession | None:
        live = self._sessions.get(session_id)
        if live is not None:
            live.last_used = time.monotonic()
        return live

    def close(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)

    def reap(self) -> int:
        """Drop sessions idle past the timeout; returns how many."""
        limit = time.monotonic() - self.idle_timeout
        stale = [sid for sid, live in self._sessions.items() if live.last_used < limit]
        for sid in stale:
            del self._sessions[sid]
        return len(stale)

    def __len__(self) -> int:
        return len(self._sessions)
