"""The worker process that runs one fork's Python: ``python -m taumesh.forks._worker ROOT READ_FD WRITE_FD``.

``ROOT`` is the folder holding the fork's ``tau_bench`` package; it goes first on ``sys.path``, so the fork's
own ``tau_bench`` (its ``envs/base.py``, ``types.py``, tools) is what runs. Requests and replies are pickled
tuples over two pipes (:class:`multiprocessing.connection.Connection`); the fork's prints go to stderr.

Each session is an instance of the environment's own ``Env`` class holding its own copy of the data as the
class's ``data_load_func`` gives it (a pickled pristine load, unpickled per session: what ``reset`` gives,
without re-reading files). Tool calls go through the class's own ``step`` (so its observation and ``Error: …``
texts are the fork's); its terminate tools are emptied on the session so that ``step`` never starts its own
reward (the plugin ends the episode on them), and hashes are the class's own ``get_data_hash``.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib
import inspect
import json
import os
import pickle
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

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

    def hash(self, sid: str | None, env: str, split: str) -> str:
        if sid is not None:
            session = self.sessions[sid]
        else:
            session = object.__new__(type(self.template(env, split)))
            session.__dict__.update(self.template(env, split).__dict__)
            session.data = self.fresh_data(env, split)
        return str(type(session).get_data_hash(session))


def serve(fork: Fork, incoming: Connection, outgoing: Connection) -> None:
    """Answer requests until the parent closes the pipe: ``(op, *args)`` -> ``("ok", value)`` or ``("error", text)``."""
    while True:
        try:
            request = incoming.recv()
        except (EOFError, OSError):
            return
        op, args = request[0], request[1:]
        try:
            if op == "drop":
                for sid in args[0]:
                    fork.sessions.pop(sid, None)
                value: Any = None
            elif op == "base":
                value = base_fingerprints(fork.root)
            elif op == "ping":
                value = os.getpid()
            else:
                value = getattr(fork, op)(*args)
            reply: tuple[Any, ...] = ("ok", value)
        except Exception as exc:  # noqa: BLE001 - the fork's failure is the parent's to report, never this loop's end
            reply = ("error", f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=6))
        outgoing.send(reply)


def _task_json(task: Any) -> dict[str, Any]:
    dump = task.model_dump() if hasattr(task, "model_dump") else dict(task.dict())
    return {
        "user_id": str(dump.get("user_id", "")),
        "instruction": str(dump.get("instruction", "")),
        "actions": [{"name": a["name"], "kwargs": a.get("kwargs", {})} for a in dump.get("actions", [])],
        "outputs": [str(output) for output in dump.get("outputs", [])],
    }


def _limit_memory() -> None:
    megabytes = os.environ.get("TAUMESH_FORK_WORKER_MEMORY_MB")
    if megabytes:
        import resource

        limit = int(megabytes) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv: list[str]) -> None:
    root, read_fd, write_fd = Path(argv[0]).resolve(), int(argv[1]), int(argv[2])
    os.dup2(2, 1)  # the fork's prints must not mix with anything: stdout goes to stderr
    sys.path.insert(0, str(root))
    for name in [name for name in sys.modules if name == "tau_bench" or name.startswith("tau_bench.")]:
        del sys.modules[name]
    _limit_memory()
    serve(Fork(root), Connection(read_fd, writable=False), Connection(write_fd, readable=False))


if __name__ == "__main__":
    main(sys.argv[1:])
