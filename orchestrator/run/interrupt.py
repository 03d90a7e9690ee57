"""SIGINT and SIGTERM during ``taumesh run``: stop the episodes, close the run's env sessions, then exit.

Without this, Ctrl-C left the sessions of the episodes in flight open in a separate env (until its idle timeout,
900 s by default) and SIGTERM ended the process without closing anything.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from taumesh.env.v1 import env_pb2_grpc
from taumesh.orchestrator.episode.open_sessions import CLOSE_SESSIONS_S, ClosedOnStop, OpenSessions

log = logging.getLogger(__name__)

STOPS = (signal.SIGINT, signal.SIGTERM)


class RunInterrupted(Exception):
    """A run stopped by SIGINT or SIGTERM: what finished is in the results file, and ``--resume`` continues it."""

    def __init__(self, message: str, signum: int = signal.SIGTERM) -> None:
        super().__init__(message)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """The status of a process the signal ended (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + self.signum


async def until_stopped(
    play: Awaitable[Any],
    sessions: OpenSessions,
    env: env_pb2_grpc.EnvServiceAsyncStub,
    results_path: Path,
    handle_signals: bool = False,
) -> None:
    """Await ``play``; cancelled, close what ``sessions`` holds (within :data:`CLOSE_SESSIONS_S`) and re-raise.

    With ``handle_signals`` (the ``taumesh run`` process, main thread only) SIGINT and SIGTERM cancel ``play`` the
    same way and raise :class:`RunInterrupted`; a second signal while sessions are being closed is ignored. A
    server that plays runs (the A2A green agent) keeps its own signal handling: it passes False.
    """
    playing = asyncio.ensure_future(play)
    if not handle_signals:
        try:
            await playing
        except asyncio.CancelledError:
            await sessions.close_all(env, CLOSE_SESSIONS_S)
            raise
        return
    loop = asyncio.get_running_loop()
    received: list[tuple[int, int]] = []  # (the signal, the sessions open then)

    def stop(signum: int) -> None:
        if received:
            log.warning("closing the run's env sessions (at most %gs); then the run exits", CLOSE_SESSIONS_S)
            return
        received.append((signum, len(sessions)))
        log.warning("%s: stopping the episodes in flight", signal.Signals(signum).name)
        playing.cancel()

    previous = {signum: signal.getsignal(signum) for signum in STOPS}
    try:
        for signum in STOPS:
            loop.add_signal_handler(signum, stop, signum)
    except (ValueError, RuntimeError, NotImplementedError):  # not the main thread: leave the signals alone
        await until_stopped(playing, sessions, env, results_path)
        return
    try:
        await playing
    except asyncio.CancelledError:
        if not received:  # cancelled by whoever runs us, not by a signal: close what is open all the same
            await sessions.close_all(env, CLOSE_SESSIONS_S)
            raise
        stopped_by, held = received[0]
        left = await sessions.close_all(env, CLOSE_SESSIONS_S)
        raise RunInterrupted(_message(stopped_by, held, left, results_path), stopped_by) from None
    finally:
        for signum in STOPS:
            loop.remove_signal_handler(signum)
            signal.signal(signum, previous[signum])


def _message(signum: int, held: int, left: ClosedOnStop, results_path: Path) -> str:
    """What the interrupted run did, in one line: the sessions it closed, those it could not, where results are."""
    name = signal.Signals(signum).name
    log.info(
        "%s: %d env session(s) open, %d closed after the episodes stopped, %d left",
        name,
        held,
        left.closed,
        left.left_open,
    )
    closed = max(held - left.left_open, 0)
    what = f"stopped by {name}; closed {closed} open env session(s) of the episodes in flight"
    if left.left_open:
        what += f"; {left.left_open} did not close within {CLOSE_SESSIONS_S:g}s (the env drops them when idle)"
    return f"{what}; the finished episodes are in {results_path} (--resume continues it)"
