"""The parent's side of a fork's worker: start it, ask it with a deadline, one process per session, plain data only.

One :class:`ForkWorker` per fork per process. Its worker (:mod:`taumesh.forks._worker`) is a keeper, a template
process holding the fork's environments and their pristine data, and one **session process** per session, forked
from the template. Every message is a JSON frame (:mod:`taumesh.forks._wire`) and every reply is validated here
(pydantic) before use: a reply that is no valid answer loses that call's session (:class:`WorkerLost`, the episode
is aborted) and never runs anything in this process.

A call that raises in the fork's tool is the fork's own ``Error: …`` observation. A call that outlives the deadline
or answers garbage loses that session only: its process is killed, the others are untouched. A session process that
ended (between its calls, or under one: another session may have killed it) is rebuilt by replaying its tool calls on
fresh data, and the call asked again, once: a process that ends again under the same call (``os._exit``, a crash,
the memory limit) loses its session. When the template itself is lost (a session killed it), the worker is
restarted and every live session is rebuilt the same way, on its next call.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import threading
import time
import uuid
import weakref
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from pydantic import BaseModel, ConfigDict, JsonValue, TypeAdapter, ValidationError

from taumesh.forks._sandbox import Launched, SandboxError, launch
from taumesh.forks._wire import FrameError, receive, send

DEADLINE_ENV = "TAUMESH_FORK_TOOL_DEADLINE"
DEFAULT_DEADLINE = 30.0
"""Seconds a fork's tool call may take before its session process is killed."""
START_DEADLINE = 120.0
"""Seconds a worker may take to start, to import an environment (its first use loads the fork's modules) or to
open a session (replaying its calls is bounded per call by the deadline)."""
MAX_RSS_ENV = "TAUMESH_FORK_WORKER_MAX_RSS_MB"
MEMORY_ENV = "TAUMESH_FORK_WORKER_MEMORY_MB"


class WorkerLost(Exception):
    """The call's session process did not answer (deadline), answered garbage or exited; it has been ended."""


class _ProcessGone(WorkerLost):
    """A session process ended under a call: rebuilt and asked once more (another session may have killed it).

    Only a second end under the same call is the call's own doing.
    """


class ForkError(Exception):
    """The fork's code raised outside a tool's observation (import, ``step`` itself); carries its traceback."""

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.trace = trace


class _Ok(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ok: JsonValue


class _Failed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    error: str
    trace: str = ""


_REPLY: TypeAdapter[_Ok | _Failed] = TypeAdapter(_Ok | _Failed)


class Described(BaseModel):
    """What the worker reports of a loaded environment (``describe``), as import-fork records it."""

    model_config = ConfigDict(extra="forbid")
    env_class: str
    splits: dict[str, list[dict[str, JsonValue]]]
    split_errors: dict[str, str]
    overrides: list[str]
    tools: list[dict[str, JsonValue]]
    tools_info: list[dict[str, JsonValue]]
    terminate_tools: list[str]
    wiki: str
    rules: list[str]
    data_bytes: int


class Salvaged(BaseModel):
    """What the worker finds of an environment that does not load: its tools and its tasks' gold action names."""

    model_config = ConfigDict(extra="forbid")
    tools: list[str]
    tasks: int
    gold_tools: list[str]


class Memory(BaseModel):
    """A worker process's resident (RSS) and proportional (PSS, shared pages split) set sizes in bytes."""

    model_config = ConfigDict(extra="forbid")
    rss: int
    pss: int


_ANSWERS: dict[str, TypeAdapter[Any]] = {
    "ping": TypeAdapter(int),
    "spawn": TypeAdapter(int),
    "base": TypeAdapter(dict[str, str]),
    "describe": TypeAdapter(Described),
    "salvage": TypeAdapter(Salvaged),
    "memory": TypeAdapter(Memory),
    "kill": TypeAdapter(None),
    "open": TypeAdapter(None),
    "call": TypeAdapter(str),
    "hash": TypeAdapter(str),
}
"""The type of each request's answer: anything else is a malformed reply."""


@dataclass
class _Session:
    """A session as this process keeps it: where it runs, its calls so far (to rebuild it), its process's socket."""

    env: str
    split: str
    sid: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    channel: socket.socket | None = None
    epoch: int = 0
    """The worker start the session process belongs to."""

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None


class SessionHandle:
    """A session's key in the worker; kept in the session's data, so the session process ends when it dies."""

    def __init__(self, worker: ForkWorker, env: str, split: str) -> None:
        self.sid = uuid.uuid4().hex
        self.env = env
        self.split = split
        self.dead: str | None = None
        """Why the session was lost (its process was ended under one of its calls); None while it lives."""
        self._finalizer = weakref.finalize(self, worker.forget, self.sid)

    def __repr__(self) -> str:
        return f"<fork session {self.env}/{self.split}>"


def max_rss() -> int:
    """Resident bytes past which a session process is ended after a call (``$TAUMESH_FORK_WORKER_MAX_RSS_MB``)."""
    value = os.environ.get(MAX_RSS_ENV)
    return int(value) << 20 if value else 0


def memory_mb() -> int:
    """The address-space cap of the worker's processes in MB (``$TAUMESH_FORK_WORKER_MEMORY_MB``; 0: none)."""
    value = os.environ.get(MEMORY_ENV)
    return int(value) if value else 0


def deadline() -> float:
    """The tool-call deadline: ``$TAUMESH_FORK_TOOL_DEADLINE`` seconds, else 30."""
    value = os.environ.get(DEADLINE_ENV)
    return float(value) if value else DEFAULT_DEADLINE


class ForkWorker:
    """One fork's worker, as this process sees it; thread-safe (one request at a time)."""

    def __init__(self, fork: str, root: Path) -> None:
        self.fork = fork
        self.root = root
        self.epoch = 0
        self.restarts = 0
        """How many times the worker (its template) was lost and started again."""
        self._lock = threading.RLock()
        self._launched: Launched | None = None
        self._control: socket.socket | None = None
        self._sessions: dict[str, _Session] = {}
        self._drops: deque[_Session] = deque()
        self._pristine: dict[tuple[str, str], str] = {}

    # the worker

    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._launched = launch(self.root, theirs.fileno(), memory_mb())
        except (OSError, SandboxError) as exc:
            ours.close()
            raise WorkerLost(f"the worker of fork {self.fork!r} could not start: {exc}") from exc
        finally:
            theirs.close()
        self._control = ours
        self.epoch += 1
        self._control_ask({"op": "ping"}, START_DEADLINE)

    def _alive(self) -> bool:
        return self._launched is not None and self._launched.process.poll() is None

    def _running(self) -> socket.socket:
        """The control socket of a running worker, started (again) if it is not running."""
        if self._control is None or not self._alive() or _gone(self._control):
            if self._launched is not None:
                self._kill()
                self.restarts += 1
            self._start()
        assert self._control is not None
        return self._control

    def _kill(self) -> None:
        """Stop the worker's processes; every session process goes with them (they die with the template)."""
        launched, self._launched = self._launched, None
        if launched is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(launched.process.pid, signal.SIGKILL)  # its own session: the keeper, template, sessions
            launched.process.kill()
            launched.process.wait()
            launched.cleanup()
        if self._control is not None:
            self._control.close()
            self._control = None
        for state in self._sessions.values():
            state.close()

    def close(self) -> None:
        """Stop the worker (a later request starts a new one; live sessions are then rebuilt)."""
        with self._lock:
            self._kill()

    @property
    def pid(self) -> int | None:
        return self._launched.process.pid if self._launched is not None else None

    def _control_ask(self, message: dict[str, Any], limit: float, fds: tuple[int, ...] = ()) -> Any:
        """Ask the template; silence, exit or a malformed reply restart the worker (WorkerLost)."""
        control = self._control
        assert control is not None
        what = _what(message)
        try:
            return _exchange(control, message, limit, fds)
        except TimeoutError:
            self._lose(f"{what} in fork {self.fork!r} did not answer within {limit:g}s; its worker was restarted")
        except (EOFError, OSError) as exc:
            code = self._launched.process.poll() if self._launched is not None else None
            self._lose(f"the worker of fork {self.fork!r} exited (code {code}) during {what}", exc)
        except (FrameError, ValidationError) as exc:
            self._lose(f"the worker of fork {self.fork!r} sent a malformed reply to {what}: {_short(exc)}", exc)

    def _lose(self, why: str, cause: BaseException | None = None) -> NoReturn:
        self._kill()
        self.restarts += 1
        raise WorkerLost(why) from cause

    def request(self, op: str, limit: float | None = None, **fields: Any) -> Any:
        """Ask the template ``op`` (``base``, ``describe``, ``salvage``, ``ping``), started if needed."""
        with self._lock:
            self._drop_forgotten()
            self._running()
            return self._control_ask({"op": op, **fields}, deadline() if limit is None else limit)

    # sessions

    def forget(self, sid: str) -> None:
        """The session ``sid`` is gone: its process is ended with the next request (no I/O here)."""
        state = self._sessions.pop(sid, None)
        if state is not None:
            self._drops.append(state)

    def _drop_forgotten(self) -> None:
        ended = []
        while self._drops:
            state = self._drops.popleft()
            if state.channel is not None and state.epoch == self.epoch:
                ended.append(state)
            state.close()
        if ended and self._control is not None and self._alive():
            with contextlib.suppress(WorkerLost, ForkError):
                self._control_ask({"op": "kill", "sids": [state.sid for state in ended]}, START_DEADLINE)

    def _spawn(self, sid: str, state: _Session) -> None:
        """A new session process for ``state`` (its data fresh), its calls replayed."""
        state.close()
        message = {"op": "spawn", "sid": sid, "env": state.env, "split": state.split}
        for attempt in (1, 2):  # a template found dead only now (killed by a session) is started again, once
            self._running()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self._control_ask(message, START_DEADLINE, fds=(theirs.fileno(),))
                break
            except WorkerLost:
                ours.close()
                if attempt == 2:
                    raise
            except BaseException:
                ours.close()
                raise
            finally:
                theirs.close()
        state.channel, state.epoch = ours, self.epoch
        state.sid = sid
        self._session_ask(state, {"op": "open", "env": state.env, "split": state.split}, START_DEADLINE)
        for name, kwargs in state.calls:
            self._session_ask(state, {"op": "call", "name": name, "kwargs": kwargs}, deadline())

    def _ready(self, handle: SessionHandle) -> _Session:
        """``handle``'s session, its process (re)built if it has none, it belongs to a lost worker, or it is gone."""
        self._drop_forgotten()
        state = self._sessions.get(handle.sid)
        if state is None:
            state = self._sessions[handle.sid] = _Session(handle.env, handle.split)
        if state.channel is None or state.epoch != self.epoch or not self._alive() or _gone(state.channel):
            self._spawn(handle.sid, state)
        return state

    def _session_ask(self, state: _Session, message: dict[str, Any], limit: float) -> Any:
        """Ask a session process; silence, exit or a malformed reply end that session (WorkerLost)."""
        channel = state.channel
        assert channel is not None
        what = _what(message)
        try:
            return _exchange(channel, message, limit)
        except TimeoutError:
            self._end(state)
            raise WorkerLost(
                f"{what} in fork {self.fork!r} did not answer within {limit:g}s; its session process was ended"
            ) from None
        except (EOFError, OSError) as exc:
            self._end(state)
            raise _ProcessGone(f"the session process of fork {self.fork!r} exited during {what}") from exc
        except (FrameError, ValidationError) as exc:
            self._end(state)
            raise WorkerLost(
                f"the session process of fork {self.fork!r} sent a malformed reply to {what}: {_short(exc)}"
            ) from exc

    def _end(self, state: _Session) -> None:
        """End a session's process: close its socket and have the template kill it (restart a silent template)."""
        current = state.channel is not None and state.epoch == self.epoch
        state.close()
        if current and self._control is not None and self._alive():
            with contextlib.suppress(WorkerLost, ForkError):
                self._control_ask({"op": "kill", "sids": [state.sid]}, START_DEADLINE)

    def call(self, handle: SessionHandle, name: str, kwargs: dict[str, Any]) -> str:
        """One tool call in ``handle``'s session, through the fork's own ``step``."""
        with self._lock:
            if handle.dead is not None:
                raise WorkerLost(handle.dead)
            try:
                state, observation = self._ask_session(handle, {"op": "call", "name": name, "kwargs": kwargs})
                limit = max_rss()
                if limit and self._session_ask(state, {"op": "memory"}, deadline()).rss > limit:
                    self._end(state)  # a leak: this call's episode ends, the other sessions never shared its process
                    raise WorkerLost(
                        f"the session process of fork {self.fork!r} grew past {limit >> 20} MB after tool {name!r}; "
                        "it was ended"
                    )
            except WorkerLost as exc:
                handle.dead = str(exc)
                self._discard(handle.sid)
                raise
            except ForkError as exc:  # the fork's own step raised (τ-bench's run would stop): the episode ends
                handle.dead = f"the fork's step raised on tool {name!r}: {exc}"
                self._discard(handle.sid)
                raise
            state.calls.append((name, kwargs))
            return str(observation)

    def _ask_session(self, handle: SessionHandle, message: dict[str, Any]) -> tuple[_Session, Any]:
        """Ask ``handle``'s session process; once more, in a rebuilt one, when its process ended under the call."""
        for attempt in (1, 2):
            state = self._ready(handle)
            try:
                return state, self._session_ask(state, message, deadline())
            except _ProcessGone:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _discard(self, sid: str) -> None:
        state = self._sessions.pop(sid, None)
        if state is not None:
            self._end(state)

    def hash(self, handle: SessionHandle | None, env: str, split: str) -> str:
        """The fork's ``get_data_hash`` of the session (None: of fresh data, computed once)."""
        with self._lock:
            if handle is None or handle.sid not in self._sessions:
                key = (env, split)
                if key not in self._pristine:
                    fresh = _Session(env, split)
                    try:
                        self._spawn(uuid.uuid4().hex, fresh)
                        self._pristine[key] = self._session_ask(fresh, {"op": "hash"}, START_DEADLINE)
                    finally:
                        self._end(fresh)
                return self._pristine[key]
            _, value = self._ask_session(handle, {"op": "hash"})
            return str(value)

    def live_sessions(self) -> int:
        """How many sessions this process holds in the worker."""
        return len(self._sessions)

    def memory(self, handle: SessionHandle) -> Memory:
        """The memory of ``handle``'s session process."""
        with self._lock:
            memory: Memory = self._session_ask(self._ready(handle), {"op": "memory"}, deadline())
            return memory

    def memory_bytes(self) -> int:
        """The worker's memory: the template's and every live session process's proportional set size (PSS).

        PSS splits each shared page among the processes sharing it, so the sum is what the worker costs the
        machine (the session processes share the template's pages until they write them). 0 when not running.
        """
        with self._lock:
            if self._control is None or not self._alive():
                return 0
            total: int = self._control_ask({"op": "memory"}, START_DEADLINE).pss
            for state in list(self._sessions.values()):
                if state.channel is not None and state.epoch == self.epoch:
                    total += self._session_ask(state, {"op": "memory"}, START_DEADLINE).pss
            return total


def _gone(channel: socket.socket) -> bool:
    """Whether a session's socket was closed by its process (or holds bytes nobody asked for) between calls."""
    try:
        channel.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)  # b"" at the end, or a byte nobody asked for
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


def _exchange(sock: socket.socket, message: dict[str, Any], limit: float, fds: tuple[int, ...] = ()) -> Any:
    """Send ``message`` (then ``fds``) on ``sock``; its answer, validated for its op, within ``limit`` seconds.

    The fork's own failure raises :class:`ForkError`; silence (TimeoutError), a closed socket (EOFError, OSError) and
    a malformed reply (FrameError, ValidationError) are the asker's to handle: the template's and a session's differ.
    """
    ends = time.monotonic() + limit
    send(sock, message, ends)
    if fds:
        socket.send_fds(sock, [b"F"], list(fds))
    reply = _REPLY.validate_json(receive(sock, ends))
    if isinstance(reply, _Ok):
        return _ANSWERS[str(message["op"])].validate_python(reply.ok)
    raise ForkError(reply.error, reply.trace)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def _what(message: dict[str, Any]) -> str:
    op = message.get("op")
    if op == "call":
        return f"tool {message.get('name')!r}"
    if op == "describe":
        return f"loading environment {message.get('env')!r}"
    if op in {"spawn", "open"}:
        return f"opening a session of {message.get('env')!r}"
    return str(op)


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


atexit.register(_stop_all)
