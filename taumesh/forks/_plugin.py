"""An imported fork's environment as a :class:`~taumesh.domains.DomainPlugin` whose tools run in the fork's worker.

The plugin's tools are proxies: each call goes to the fork's worker process, into the session's own copy of
the data there. The session's key into the worker (a :class:`SessionHandle`) is the one record of the
domain's single table, ``worker``, so the env service, the scorer's gold replay and ``domain check`` all use
plain :class:`~taumesh.domains.Session` objects; the worker's copy goes when the session does. Hashes are the
fork's own ``get_data_hash``, computed in the worker.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from taumesh.domains import (
    Action,
    Data,
    DataError,
    DomainPlugin,
    PluginError,
    Requestor,
    Session,
    StateHasher,
    StepResult,
    Task,
    Tool,
    ToolCrash,
)
from taumesh.forks._index import PREFIX
from taumesh.forks._pool import ForkWorker, SessionHandle, WorkerLost, worker_for
from taumesh.forks._record import ForkEnv, ForkRecord, load_record, load_tasks
from taumesh.forks._semantics import reward_variant
from taumesh.models import RewardBasis

TABLE = "worker"
"""The one table of a fork domain's data in taumesh's process: the session's handle into the worker."""


class ForkTables(BaseModel):
    """The data model of a fork domain in taumesh's process (the data itself lives in the worker)."""

    worker: dict[str, Any]


def _handle(data: Any, worker: ForkWorker, env: str, split: str) -> SessionHandle:
    table = data[TABLE]
    handle = table.get("session")
    if handle is None:
        handle = SessionHandle(worker, env, split)
        table["session"] = handle  # allowed: proxies are write tools, and this is the session's own record
    return handle  # type: ignore[no-any-return]


def _proxy(worker: ForkWorker, env: str, split: str, info: Mapping[str, Any]) -> type[Tool]:
    function = info["function"]
    name = str(function["name"])

    def invoke(data: Data, **kwargs: Any) -> str:
        return worker.call(_handle(data, worker, env, split), name, kwargs)

    namespace = {
        "name": name,
        "writes": True,
        "description": function.get("description", ""),
        "parameters": function.get("parameters", {"type": "object", "properties": {}}),
        "invoke": staticmethod(invoke),
        "__doc__": f"The fork's tool {name}, run in its worker.",
    }
    return type(f"ForkTool_{name}", (Tool,), namespace)


@dataclass(frozen=True)
class ForkHasher:
    """The fork's ``get_data_hash`` of a session: asked of the worker (fresh data for a session that called nothing)."""

    worker: ForkWorker
    env: str
    split: str

    def hash(self, data: Mapping[str, Any]) -> str:
        table = data.get(TABLE)
        handle = table.get("session") if table is not None else None
        if handle is not None and handle.dead is not None:
            return f"lost: {handle.dead}"  # equals no state: a lost session reaches neither gold nor initial
        return self.worker.hash(handle, self.env, self.split)


@dataclass(frozen=True)
class ForkLayout:
    """The files of a fork environment, as import-fork recorded them (the fork's Python is not run here)."""

    fork: str
    env: ForkEnv

    def base_data(self, root: Path) -> dict[str, Any]:
        return {TABLE: {}}

    def policy(self, root: Path) -> str:
        return self.env.wiki

    def tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return list(self.env.tools_info)

    def user_tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return []

    def has_split(self, root: Path, split: str) -> bool:
        return split in self.env.splits

    def tasks(self, root: Path, split: str) -> Sequence[Task]:
        records = load_tasks(self.fork, self.env.env).get(split, [])
        return [
            Task(
                id=str(index),
                user_id=record["user_id"],
                instruction=record["instruction"],
                actions=[Action(name=a["name"], kwargs=a["kwargs"]) for a in record["actions"]],
                outputs=record["outputs"],
            )
            for index, record in enumerate(records)
        ]

    def task_count(self, root: Path, split: str) -> int:
        return self.env.splits.get(split, 0)


@dataclass(frozen=True)
class ForkPlugin(DomainPlugin):
    """A fork environment: the proxies of its tools, its recorded tasks and policy, the fork's reward variant."""

    fork: str = ""
    env: str = ""
    reward: str = "upstream"
    worker: ForkWorker | None = None

    def call_tool(
        self, session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant"
    ) -> StepResult:
        """The fork's ``step``; a call that loses the worker (deadline, exit) aborts the episode (ToolCrash)."""
        step = session.call(name, arguments, requestor)
        handle = session.data[TABLE].get("session")
        if handle is not None and handle.dead is not None:
            raise ToolCrash(handle.dead)
        return step

    def reward_basis(self, task: Task) -> list[RewardBasis]:
        """Upstream: DB, and COMMUNICATE when the task has outputs; the earlier reward: COMMUNICATE else DB."""
        if self.reward == "outputs-else-db":
            return ["COMMUNICATE"] if task.outputs else ["DB"]
        return ["DB", "COMMUNICATE"] if task.outputs else ["DB"]


def build_plugin(record: ForkRecord, env: str) -> ForkPlugin:
    """The plugin of ``record``'s environment ``env``; its worker starts on the first tool call or hash."""
    found = record.envs[env]
    worker = worker_for(record.name, Path(record.root))
    split = next(iter(found.splits))  # the data of every split is the same load; the first split's Env serves it
    return ForkPlugin(
        name=record.domain(env),
        tools=tuple(_proxy(worker, env, split, info) for info in found.tools_info),
        database=ForkTables,
        splits=tuple(found.splits),
        terminate_tools=frozenset(found.terminate_tools),
        own_data=Path(record.root) / "tau_bench" / "envs" / env,
        layout=ForkLayout(record.name, found),
        hasher=lambda base: _hasher(worker, env, split),
        fork=record.name,
        env=env,
        reward=reward_variant(record.base),
        worker=worker,
    )


def _hasher(worker: ForkWorker, env: str, split: str) -> StateHasher:
    return ForkHasher(worker, env, split)


_PLUGINS: dict[str, ForkPlugin] = {}
_LOCK = threading.Lock()


def fork_plugin(domain: str) -> ForkPlugin:
    """The plugin of the imported domain ``fork:<fork>/<env>`` (one object per process, as the registry expects)."""
    with _LOCK:
        if domain not in _PLUGINS:
            fork, _, env = domain.removeprefix(PREFIX).partition("/")
            try:
                record = load_record(fork)
            except ValidationError:
                stale = f"{domain}: the record of fork {fork!r} is from another version of taumesh; import it again"
                raise PluginError(stale) from None
            except FileNotFoundError:
                raise PluginError(
                    f"{domain}: fork {fork!r} is not imported here (taumesh domain import-fork)"
                ) from None
            if env not in record.envs:
                raise PluginError(f"{domain}: fork {fork!r} has no loaded environment {env!r}")
            if not Path(record.root).is_dir():
                raise DataError(f"{domain}: the fork's checkout {record.root} is gone; import it again")
            _PLUGINS[domain] = build_plugin(record, env)
        return _PLUGINS[domain]


_ = (WorkerLost, Data)
