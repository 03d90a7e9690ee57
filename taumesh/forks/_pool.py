"""The parent's side of a fork's worker process: start it, ask it with a deadline, restart it when it is lost.

One :class:`ForkWorker` per fork per process, shared by every session of the fork's environments. A call
that raises in the fork's tool is the fork's own ``Error: …`` observation; a call that outlives the deadline,
or a worker that exits (``os._exit``, a crash, the memory limit), kills and restarts the worker: that call's
session is lost (:class:`WorkerLost`, the episode is aborted) and every other live session is rebuilt in the
new worker by replaying its tool calls on fresh data, so it costs them nothing but the replay.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
import weakref
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

DEADLINE_ENV = "TAUMESH_FORK_TOOL_DEADLINE"
DEFAULT_DEADLINE = 30.0
"""Seconds a fork's tool call may take before its worker is killed and restarted."""
START_DEADLINE = 120.0
"""Seconds a worker may take to start or to import an environment (its first use loads the fork's modules)."""


class WorkerLost(Exception):
    """The worker did not answer (deadline) or exited; it has been restarted. The message says which and why."""


@dataclass
class _Log:
    env: str
    split: str
    epoch: int
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


class SessionHandle:
    """A session's key in the worker; kept in the session's data, so the worker copy is dropped when it dies."""

    def __init__(self, worker: ForkWorker, env: str, split: str) -> None:
        self.sid = uuid.uuid4().hex
        self.env = env
        self.split = split
        self.dead: str | None = None
        """Why the session was lost (its worker restarted under one of its calls); None while it lives."""
        self._finalizer = weakref.finalize(self, worker.forget, self.sid)

    def __repr__(self) -> str:
        return f"<fork session {self.env}/{self.split}>"


MAX_RSS_ENV = "TAUMESH_FORK_WORKER_MAX_RSS_MB"


def max_rss() -> int:
    """Bytes of resident memory past which a worker is restarted after a call (``$TAUMESH_FORK_WORKER_MAX_RSS_MB``)."""
    value = os.environ.get(MAX_RSS_ENV)
    return int(value) << 20 if value else 0


def deadline() -> float:
    """The tool-call deadline: ``$TAUMESH_FORK_TOOL_DEADLINE`` seconds, else 30."""
    value = os.environ.get(DEADLINE_ENV)
    return float(value) if value else DEFAULT_DEADLINE


class ForkWorker:
    """One fork's worker process, as this process sees it; thread-safe (one request at a time)."""

    def __init__(self, fork: str, root: Path) -> None:
        self.fork = fork
        self.root = root
        self.epoch = 0
        self.restarts = 0
        self._lock = threading.RLock()
        self._process: subprocess.Popen[bytes] | None = None
        self._send: Connection | None = None
        self._recv: Connection | None = None
        self._logs: dict[str, _Log] = {}
        self._drops: deque[str] = deque()
        self._pristine: dict[tuple[str, str], str] = {}

    # the process

    def _start(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        command = [sys.executable, "-m", "taumesh.forks._worker", str(self.root), str(to_child_r), str(from_child_w)]
        self._process = subprocess.Popen(  # noqa: S603 - our own module, by the interpreter running us
            command, cwd=self.root, pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._send = Connection(to_child_w, readable=False)
        self._recv = Connection(from_child_r, writable=False)
        self.epoch += 1
        self._ask(("ping",), START_DEADLINE)

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
        for connection in (self._send, self._recv):
            if connection is not None:
                connection.close()
        self._process = self._send = self._recv = None

    def close(self) -> None:
        """Stop the worker (a later request starts a new one)."""
        with self._lock:
            self._kill()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _ask(self, request: tuple[Any, ...], limit: float) -> Any:
        """Send ``request`` and wait up to ``limit`` seconds; WorkerLost (and a restart) on silence or exit."""
        assert self._send is not None and self._recv is not None
        try:
            self._send.send(request)
            answered = self._recv.poll(limit)
            reply = self._recv.recv() if answered else None
        except (EOFError, OSError) as exc:
            code = self._process.wait() if self._process is not None else None
            self._kill()
            self.restarts += 1
            raise WorkerLost(f"the worker of fork {self.fork!r} exited (code {code}) during {_what(request)}") from exc
        if reply is None:
            self._kill()
            self.restarts += 1
            raise WorkerLost(
                f"{_what(request)} in fork {self.fork!r} did not answer within {limit:g}s; its worker was restarted"
            )
        if reply[0] == "error":
            raise ForkError(reply[1], reply[2])
        return reply[1]

    def request(self, *request: Any, limit: float | None = None) -> Any:
        """Ask the worker (started if needed), first telling it which sessions died since the last request."""
        with self._lock:
            if self._process is None:
                self._start()
            if self._drops:
                dropped = []
                while self._drops:
                    dropped.append(self._drops.popleft())
                self._ask(("drop", dropped), START_DEADLINE)
            return self._ask(request, deadline() if limit is None else limit)

    # sessions

    def forget(self, sid: str) -> None:
        """The session ``sid`` is gone: its copy in the worker is dropped with the next request (no I/O here)."""
        if self._logs.pop(sid, None) is not None:
            self._drops.append(sid)

    def _ensure(self, handle: SessionHandle) -> None:
        """Open ``handle``'s session in the current worker, replaying its calls when the worker was restarted."""
        log = self._logs.get(handle.sid)
        if log is not None and log.epoch == self.epoch and self._process is not None:
            return
        if self._process is None:
            self._start()
        self._ask(("open", handle.sid, handle.env, handle.split), START_DEADLINE)
        if log is None:
            self._logs[handle.sid] = _Log(handle.env, handle.split, self.epoch)
            return
        for name, kwargs in log.calls:
            self._ask(("call", handle.sid, name, kwargs), deadline())
        log.epoch = self.epoch

    def call(self, handle: SessionHandle, name: str, kwargs: dict[str, Any]) -> str:
        """One tool call in ``handle``'s session, through the fork's own ``step``."""
        with self._lock:
            if handle.dead is not None:
                raise WorkerLost(handle.dead)
            try:
                self._ensure(handle)
                observation: str = self.request("call", handle.sid, name, kwargs)
            except WorkerLost as exc:
                handle.dead = str(exc)
                self._logs.pop(handle.sid, None)
                raise
            except ForkError as exc:  # the fork's own step raised (τ-bench's run would stop): the episode ends
                handle.dead = f"the fork's step raised on tool {name!r}: {exc}"
                self.forget(handle.sid)
                raise
            limit = max_rss()
            if limit and self.rss_bytes() > limit:  # a leak: this call's episode ends, the others are replayed
                self._kill()
                self.restarts += 1
                handle.dead = (
                    f"the worker of fork {self.fork!r} grew past {limit >> 20} MB after tool {name!r}; it was restarted"
                )
                self.forget(handle.sid)
                raise WorkerLost(handle.dead)
            self._logs[handle.sid].calls.append((name, kwargs))
            return observation

    def hash(self, handle: SessionHandle | None, env: str, split: str) -> str:
        """The fork's ``get_data_hash`` of the session (None: of fresh data, computed once)."""
        with self._lock:
            if handle is None or handle.sid not in self._logs:
                key = (env, split)
                if key not in self._pristine:
                    self._pristine[key] = self.request("hash", None, env, split, limit=START_DEADLINE)
                return self._pristine[key]
            self._ensure(handle)
            value: str = self.request("hash", handle.sid, env, split)
            return value

    def live_sessions(self) -> int:
        """How many sessions this process holds in the worker."""
        return len(self._logs)

    def rss_bytes(self) -> int:
        """The worker's resident memory (Linux ``/proc``); 0 when it is not running."""
        if self._process is None:
            return 0
        for line in Path(f"/proc/{self._process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


class ForkError(Exception):
    """The fork's code raised outside a tool's observation (import, ``step`` itself); carries its traceback."""

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.trace = trace


def _what(request: tuple[Any, ...]) -> str:
    if request[0] == "call":
        return f"tool {request[2]!r}"
    if request[0] == "describe":
        return f"loading environment {request[1]!r}"
    return str(request[0])


_WORKERS: dict[tuple[str, str], ForkWorker] = {}
_WORKERS_LOCK = threading.Lock()


def worker_for(fork: str, root: Path) -> ForkWorker:
    """The worker of ``fork`` in this process (one per fork and checkout)."""
    key = (fork, str(root))
    with _WORKERS_LOCK:
        if key not in _WORKERS:
            _WORKERS[key] = ForkWorker(fork, root)
        return _WORKERS[key]


def _stop_all() -> None:
    for worker in list(_WORKERS.values()):
        worker.close()


import atexit  # noqa: E402 - registered after the registry it stops

atexit.register(_stop_all)
