"""The worker process that runs one fork's Python: ``python -m taumesh.forks._worker ROOT CONTROL_FD MEMORY_MB``.

``ROOT`` is the folder holding the fork's ``tau_bench`` package; it goes first on ``sys.path``, so the fork's
own ``tau_bench`` (its ``envs/base.py``, ``types.py``, tools) is what runs. ``CONTROL_FD`` is a Unix socket to
the parent; ``MEMORY_MB`` (0: none) caps the address space. Messages both ways are JSON frames
(:mod:`taumesh.forks._wire`), never pickle; the fork's prints go to stderr. How the process is started (its
environment, bubblewrap or uid 65534) is :mod:`taumesh.forks._sandbox`'s.

Three processes, none of them the parent's:

* the **keeper** (the process started) forks the template and waits for it; it runs taumesh's code only, so
  a fork that kills its parent kills the keeper, never the env service;
* the **template** imports the fork, builds each environment once per split and keeps a pickled pristine load of
  its data; it answers ``describe``, ``salvage`` and ``base`` (import-fork), and ``spawn``: with the socket the
  parent passes along, it forks one **session process**;
* each **session process** holds one session: an instance of the environment's own ``Env`` class with its own
  copy of the data as the class's ``data_load_func`` gives it (the pristine load unpickled, what ``reset``
  gives without re-reading files). Tool calls go through the class's own ``step`` (so its observation and
  ``Error: …`` texts are the fork's); its terminate tools are emptied on the session so that ``step`` never starts
  its own reward (the plugin ends the episode on them), and hashes are the class's own ``get_data_hash``. A
  session's code reaches only its own process: not the template's pristine copy, not another session's data.

Each process dies with its parent (``PR_SET_PDEATHSIG``) and is not dumpable (no same-uid ``ptrace`` or
``/proc/PID/mem`` into it).
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import gc
import hashlib
import importlib
import inspect
import json
import os
import pickle
import signal
import socket
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from taumesh.forks._wire import FrameError, receive, send

_USER = {"user_strategy": "human", "user_model": "none"}
"""The simulated user each Env is built with: τ-bench's human user needs no model, and tool steps never ask it."""


def _digest(node: ast.AST) -> str:
    return hashlib.sha256(ast.dump(node, include_attributes=False).encode()).hexdigest()[:16]


def base_fingerprints(root: Path) -> dict[str, str]:
    """Digests of the syntax of the fork's ``envs/base.py`` pieces that decide the semantics (name -> digest)."""
    source = (root / "tau_bench" / "envs" / "base.py").read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name in {"to_hashable", "consistent_hash"}:
            found[node.name] = _digest(node)
        if isinstance(node, ast.ClassDef) and node.name == "Env":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in {"step", "get_data_hash", "calculate_reward"}:
                    found[f"Env.{item.name}"] = _digest(item)
    return found


def declared_splits(env_dir: Path) -> list[str]:
    """The splits ``env.py`` matches ``task_split`` against (``case "test":``), else its ``tasks_<split>.py``."""
    splits: list[str] = []
    for path in sorted(env_dir.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Match) and isinstance(node.subject, ast.Name) and node.subject.id == "task_split":
                for case in node.cases:
                    pattern = case.pattern
                    if isinstance(pattern, ast.MatchValue) and isinstance(pattern.value, ast.Constant):
                        splits.append(str(pattern.value.value))
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "task_split":
                splits += [str(c.value) for c in node.comparators if isinstance(c, ast.Constant)]
    if not splits:
        splits = [p.stem.removeprefix("tasks_") for p in sorted(env_dir.glob("tasks_*.py"))]
    return list(dict.fromkeys(splits)) or ["test"]


class Fork:
    """The fork's environments in this process: their classes, one template per split, and the live sessions."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.templates: dict[tuple[str, str], Any] = {}
        self.pristine: dict[tuple[str, str], bytes | None] = {}
        self.sessions: dict[str, Any] = {}

    def env_class(self, env: str) -> type:
        base = importlib.import_module("tau_bench.envs.base").Env
        package = importlib.import_module(f"tau_bench.envs.{env}")
        modules = [package]
        with contextlib.suppress(ModuleNotFoundError):
            modules.append(importlib.import_module(f"tau_bench.envs.{env}.env"))
        found = [
            value
            for module in modules
            for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, base) and value is not base
        ]
        if not found:
            raise LookupError(f"tau_bench.envs.{env} defines no subclass of tau_bench.envs.base.Env")
        return found[0]

    def template(self, env: str, split: str) -> Any:
        key = (env, split)
        if key not in self.templates:
            cls = self.env_class(env)
            try:
                made = cls(**_USER, task_split=split, task_index=0)
            except TypeError:
                made = cls(**_USER, task_split=split)
            self.templates[key] = made
            try:
                self.pristine[key] = pickle.dumps(made.data_load_func(), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 - data that does not pickle is loaded afresh per session
                self.pristine[key] = None
        return self.templates[key]

    def fresh_data(self, env: str, split: str) -> Any:
        template = self.template(env, split)
        blob = self.pristine[(env, split)]
        if blob is None:
            return template.data_load_func()
        return pickle.loads(blob)  # noqa: S301 - our own pickle of the fork's data, made in this process

    def describe(self, env: str) -> dict[str, Any]:
        """What import-fork records of ``env``: class, splits and their tasks, tools, terminate tools, wiki, rules."""
        cls = self.env_class(env)
        env_dir = self.root / "tau_bench" / "envs" / env
        described: dict[str, Any] = {"env_class": f"{cls.__module__}:{cls.__qualname__}", "splits": {}}
        split_errors: dict[str, str] = {}
        overrides = [name for name in ("step", "get_data_hash", "calculate_reward") if name in vars(cls)]
        described["overrides"] = overrides
        for split in declared_splits(env_dir):
            try:
                made = self.template(env, split)
            except Exception as exc:  # noqa: BLE001 - one split that does not load is reported, the others kept
                split_errors[split] = f"{type(exc).__name__}: {exc}"
                continue
            described["splits"][split] = [_task_json(task) for task in made.tasks]
            described.setdefault("tools", [tool.get_info() for tool in made.tools_map.values()])
            described.setdefault("tools_info", list(made.tools_info))
            described.setdefault("terminate_tools", list(made.terminate_tools))
            described.setdefault("wiki", str(made.wiki))
            described.setdefault("rules", [str(rule) for rule in (made.rules or [])])
            described.setdefault("data_bytes", len(json.dumps(made.data, default=str)))
        described["split_errors"] = split_errors
        if not described["splits"]:
            raise LookupError("no split loads: " + "; ".join(f"{s}: {e}" for s, e in split_errors.items()))
        json.dumps(described)  # what the record holds must be JSON
        return described

    def salvage(self, env: str) -> dict[str, Any]:
        """For an env that does not load: its tools' names and its task modules' gold action names, if importable."""
        env_dir = self.root / "tau_bench" / "envs" / env
        tools: set[str] = set()
        with contextlib.suppress(Exception):
            module = importlib.import_module(f"tau_bench.envs.{env}.tools")
            for value in vars(module).values():
                if isinstance(value, list | tuple):
                    tools |= {t.get_info()["function"]["name"] for t in value if hasattr(t, "get_info")}
        tasks, named = 0, set()
        for path in sorted(env_dir.glob("tasks*.py")):
            with contextlib.suppress(Exception):
                module = importlib.import_module(f"tau_bench.envs.{env}.{path.stem}")
                for value in vars(module).values():
                    if isinstance(value, list) and value and all(hasattr(t, "actions") for t in value):
                        tasks += len(value)
                        named |= {a.name for t in value for a in t.actions}
        return {"tools": sorted(tools), "tasks": tasks, "gold_tools": sorted(named)}

    def open(self, sid: str, env: str, split: str) -> None:
        template = self.template(env, split)
        session = object.__new__(type(template))
        session.__dict__.update(template.__dict__)
        session.data = self.fresh_data(env, split)
        session.actions = []
        session.terminate_tools = []  # the plugin ends the episode; the fork's step must not start its reward
        self.sessions[sid] = session

    def call(self, sid: str, name: str, kwargs: dict[str, Any]) -> str:
        session = self.sessions[sid]
        action_type = importlib.import_module("tau_bench.types").Action
        response = type(session).step(session, action_type(name=name, kwargs=kwargs))
        observation = response.observation
        return observation if isinstance(observation, str) else str(observation)

    def hash(self, sid: str) -> str:
        session = self.sessions[sid]
        return str(type(session).get_data_hash(session))


Message = dict[str, Any]
SESSION = "session"
"""The one session of a session process, by its key in :attr:`Fork.sessions`."""


def _failed(exc: BaseException) -> Message:
    return {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=6)}


def _answer(channel: socket.socket, reply: Message) -> None:
    try:
        send(channel, reply)
    except FrameError as exc:  # a value that is no JSON: the parent gets why, not a dead worker
        send(channel, {"error": f"the reply is no JSON data: {exc}", "trace": ""})


def _serve(channel: socket.socket, handle: Callable[[Message], Any], before: Callable[[], None] | None = None) -> None:
    """Answer each request on ``channel`` with ``handle`` (after ``before``) until the parent closes the socket.

    What ``handle`` raises is the parent's to report (an error reply), never this loop's end.
    """
    while True:
        try:
            request = json.loads(receive(channel))
        except (EOFError, OSError, ValueError):
            return
        if before is not None:
            before()
        try:
            reply = {"ok": handle(request)}
        except Exception as exc:  # noqa: BLE001 - the fork's failure is the parent's to report, never this loop's end
            reply = _failed(exc)
        _answer(channel, reply)


class Template:
    """The template process's loop: answers the parent on the control socket and forks session processes."""

    def __init__(self, fork: Fork, control: socket.socket) -> None:
        self.fork = fork
        self.control = control
        self.children: dict[str, int] = {}
        """Session id -> pidfd of its session process."""

    def serve(self) -> None:
        """Answer requests until the parent closes the control socket, reaping ended session processes first."""
        _serve(self.control, self._handle, before=self._reap)

    def _handle(self, request: Message) -> Any:
        op = request.get("op")
        if op == "ping":
            return os.getpid()
        if op == "base":
            return base_fingerprints(self.fork.root)
        if op == "describe":
            return self.fork.describe(str(request["env"]))
        if op == "salvage":
            return self.fork.salvage(str(request["env"]))
        if op == "spawn":
            return self.spawn(str(request["sid"]), str(request["env"]), str(request["split"]))
        if op == "kill":
            for sid in request["sids"]:
                self._kill(str(sid))
            return None
        if op == "memory":
            return memory()
        raise ValueError(f"unknown request {op!r}")

    def spawn(self, sid: str, env: str, split: str) -> int:
        """Fork the session process of ``sid``, serving the socket the parent sent along with this request.

        The environment's template (its modules, its ``Env``, the pristine data) is built here first, once, so that
        every session process starts from it instead of importing the fork again.
        """
        _, fds, _, _ = socket.recv_fds(self.control, 1, 1)
        if len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise ValueError("spawn needs exactly one socket")
        channel = socket.socket(fileno=fds[0])
        try:
            self.fork.template(env, split)
        except BaseException:
            channel.close()
            raise
        self._kill(sid)
        gc.freeze()  # the template's objects stay shared: the session's collections never touch their pages
        pid = os.fork()
        if pid == 0:
            try:
                self.control.close()
                for pidfd in self.children.values():
                    os.close(pidfd)
                _guard()
                SessionServer(self.fork, channel).serve()
            finally:
                os._exit(0)
        channel.close()
        self.children[sid] = os.pidfd_open(pid)
        return pid

    def _kill(self, sid: str) -> None:
        pidfd = self.children.pop(sid, None)
        if pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            os.close(pidfd)

    def _reap(self) -> None:
        """Collect the exit status of session processes that ended (no zombies)."""
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass


class SessionServer:
    """A session process's loop: ``open`` once, then ``call``, ``hash`` and ``memory`` until the parent closes."""

    def __init__(self, fork: Fork, channel: socket.socket) -> None:
        self.fork = fork
        self.channel = channel
        self.where: tuple[str, str] | None = None

    def serve(self) -> None:
        """Answer requests until the parent closes the session's socket."""
        _serve(self.channel, self._handle)

    def _handle(self, request: Message) -> Any:
        op = request.get("op")
        if op == "open":
            self.where = (str(request["env"]), str(request["split"]))
            self.fork.open(SESSION, *self.where)
            return None
        if op == "memory":
            return memory()
        if self.where is None:
            raise ValueError(f"{op!r} before open")
        if op == "call":
            kwargs = request["kwargs"]
            if not isinstance(kwargs, dict):
                raise TypeError("kwargs must be an object")
            return self.fork.call(SESSION, str(request["name"]), kwargs)
        if op == "hash":
            return self.fork.hash(SESSION)
        raise ValueError(f"unknown request {op!r}")


def _task_json(task: Any) -> dict[str, Any]:
    dump = task.model_dump() if hasattr(task, "model_dump") else dict(task.dict())
    return {
        "user_id": str(dump.get("user_id", "")),
        "instruction": str(dump.get("instruction", "")),
        "actions": [{"name": a["name"], "kwargs": a.get("kwargs", {})} for a in dump.get("actions", [])],
        "outputs": [str(output) for output in dump.get("outputs", [])],
    }


def memory() -> dict[str, int]:
    """The resident and proportional set sizes of this process in bytes (Linux ``/proc/self``; 0 when unknown)."""
    found = {"rss": 0, "pss": 0}
    for path, key, field in (("status", "rss", "VmRSS:"), ("smaps_rollup", "pss", "Pss:")):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/self/{path}").read_text().splitlines():
                if line.startswith(field):
                    found[key] = int(line.split()[1]) * 1024
                    break
    return found


_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4


def _guard() -> None:
    """Die with the parent (exit now if it is already gone) and refuse same-uid ptrace into this process."""
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def keep(control: socket.socket) -> None:
    """Fork the template and, in this process (the keeper), wait for it and exit with it; returns in the template.

    The keeper runs no code of the fork's, so the template's parent is never the env service: a fork that kills its
    parent ends its own worker (the env restarts it), not the env.
    """
    _guard()
    pid = os.fork()
    if pid == 0:
        _guard()
        return
    control.close()
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def main(argv: list[str]) -> None:
    root, control = Path(argv[0]).resolve(), socket.socket(fileno=int(argv[1]))
    memory_mb = int(argv[2]) if len(argv) > 2 else 0
    keep(control)
    os.dup2(2, 1)  # the fork's prints must not mix with anything: stdout goes to stderr
    sys.path.insert(0, str(root))
    for name in [name for name in sys.modules if name == "tau_bench" or name.startswith("tau_bench.")]:
        del sys.modules[name]
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    Template(Fork(root), control).serve()


if __name__ == "__main__":
    main(sys.argv[1:])
