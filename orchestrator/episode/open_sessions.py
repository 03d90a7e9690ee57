"""The env sessions a run holds open, so that an interrupted run can close them before it exits.

Each episode closes its own session when it ends, cancelled or not. What that misses: a session whose
OpenSession was on the wire when the run was cancelled (the env opened it, the answer never arrived), and a close
cut short. The run keeps one :class:`OpenSessions` in :data:`RUN_SESSIONS` while it plays; the episodes of the
run record their sessions there (:func:`opening`, :func:`closed`), and :meth:`OpenSessions.close_all` closes
what is left, within a bound.

:class:`OpenSessions` also names the run to the env (``run_id``, OpenSessionRequest.run_id), so that an env with a
per-run cap (``--max-sessions-per-run``) counts the run's sessions; when the env refuses one (``RUN_SESSION_LIMIT``),
the episode waits for one of the run's own sessions to close (:meth:`OpenSessions.wait_for_a_close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import grpc

from taumesh.env.v1 import env_pb2, env_pb2_grpc

log = logging.getLogger(__name__)

Metadata = Sequence[tuple[str, str]]

CLOSE_SESSIONS_S = 5.0
"""At most this long, once a run is stopped, to close its open env sessions (each episode's own close included)."""


@dataclass
class ClosedOnStop:
    """What :meth:`OpenSessions.close_all` did: sessions closed, and those it could not close in time."""

    closed: int = 0
    left_open: int = 0


@dataclass
class OpenSessions:
    """The env sessions of one run that are open, or being opened, right now."""

    sessions: dict[str, Metadata] = field(default_factory=dict)
    """Session id → the metadata its env calls carry (the episode's affinity)."""
    pending: set[asyncio.Future[Any]] = field(default_factory=set)
    """OpenSession calls on the wire."""
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    """What this run's OpenSession requests carry as ``run_id``: random, one per run."""
    _freed: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    """Set (then replaced) each time one of the run's sessions closes."""

    def __len__(self) -> int:
        return len(self.sessions) + len(self.pending)

    async def open(
        self, call: Awaitable[env_pb2.OpenSessionResponse], metadata: Metadata
    ) -> env_pb2.OpenSessionResponse:
        """Await ``call`` (an OpenSession) shielded from cancellation, and record the session it opens.

        A cancelled episode stops waiting, but the call goes on and its session is recorded for :meth:`close_all`.
        """
        opening: asyncio.Future[env_pb2.OpenSessionResponse] = asyncio.ensure_future(call)
        self.pending.add(opening)

        def opened(done: asyncio.Future[env_pb2.OpenSessionResponse]) -> None:
            self.pending.discard(done)
            if not done.cancelled() and done.exception() is None:
                self.sessions[done.result().session_id] = metadata

        opening.add_done_callback(opened)
        return await asyncio.shield(opening)

    def closed(self, session_id: str) -> None:
        """The episode closed ``session_id`` (or the env did, with its final state)."""
        if self.sessions.pop(session_id, None) is not None:
            self._freed.set()  # wakes the episodes waiting for a place under the env's per-run cap
            self._freed = asyncio.Event()

    async def wait_for_a_close(self, within: float) -> bool:
        """Wait until one of the run's sessions closes, or ``within`` seconds; False at once when it holds none.

        An episode whose OpenSession the env refused under its per-run cap waits here: every session the run holds
        is closed when its episode ends, so the wait ends. With none open here (nor being opened: an answer may
        arrive before a sibling's), the sessions the env counts are not this process's to free (a lost answer, a
        leaked session): waiting could last until the env reaps them.
        """
        if not self.sessions and not self.pending:
            return False
        freed = self._freed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(freed.wait(), within)
        return True

    async def close_all(self, env: env_pb2_grpc.EnvServiceAsyncStub, within: float) -> ClosedOnStop:
        """Close every session still open, all at once, in at most ``within`` seconds; best effort.

        OpenSession calls still on the wire are waited for (within the same bound) and their sessions closed too.
        """
        deadline = time.monotonic() + within
        outcome = ClosedOnStop()
        if self.pending:
            _, late = await asyncio.wait(set(self.pending), timeout=within)
            for call in late:  # never answered in time: if the env opened it, its idle timeout drops it
                call.cancel()
                outcome.left_open += 1

        async def close(session_id: str, metadata: Metadata) -> bool:
            timeout = max(0.1, deadline - time.monotonic())
            try:
                await env.CloseSession(
                    env_pb2.CloseSessionRequest(session_id=session_id), timeout=timeout, metadata=metadata
                )
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.NOT_FOUND:  # NOT_FOUND: gone already
                    log.warning("env session %s not closed: %s", session_id, exc.code().name)
                    return False
            self.sessions.pop(session_id, None)
            return True

        closing = dict(self.sessions)
        done = await asyncio.gather(*(close(sid, meta) for sid, meta in closing.items()))
        outcome.closed += sum(done)
        outcome.left_open += len(done) - sum(done)
        return outcome


RUN_SESSIONS: ContextVar[OpenSessions | None] = ContextVar("taumesh_run_sessions", default=None)
"""The sessions of the run the current episode belongs to; None outside a run that tracks them."""


async def opening(call: Awaitable[env_pb2.OpenSessionResponse], metadata: Metadata) -> env_pb2.OpenSessionResponse:
    """Await an OpenSession ``call``, recorded in the current run's :class:`OpenSessions` if there is one."""
    sessions = RUN_SESSIONS.get()
    if sessions is None:
        return await call
    return await sessions.open(call, metadata)


def run_id() -> str:
    """The current run's id for OpenSessionRequest.run_id; empty outside a run that tracks its sessions."""
    sessions = RUN_SESSIONS.get()
    return sessions.run_id if sessions is not None else ""


async def wait_for_a_close(within: float) -> bool:
    """:meth:`OpenSessions.wait_for_a_close` of the current run; False outside a run that tracks its sessions."""
    sessions = RUN_SESSIONS.get()
    return sessions is not None and await sessions.wait_for_a_close(within)


def closed(session_id: str) -> None:
    """Forget ``session_id`` in the current run's :class:`OpenSessions`: it is closed."""
    sessions = RUN_SESSIONS.get()
    if sessions is not None:
        sessions.closed(session_id)


@contextlib.contextmanager
def tracking(sessions: OpenSessions) -> Any:
    """Inside, episodes started from this context record their sessions in ``sessions``."""
    token = RUN_SESSIONS.set(sessions)
    try:
        yield sessions
    finally:
        RUN_SESSIONS.reset(token)
