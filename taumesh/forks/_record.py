"""What ``import-fork`` records of a fork in the cache: where it is, each environment's metadata, what failed."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from taumesh.forks._index import PREFIX, forks_dir, index_path, read_index

FORK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class ForkEnv(BaseModel):
    """One loaded environment: its Env class, tasks per split, tools, terminate tools, policy and rules."""

    env: str
    env_class: str
    splits: dict[str, int]
    """Task count per split, in the order the Env declares them (the tasks themselves: :func:`load_tasks`)."""
    split_errors: dict[str, str] = Field(default_factory=dict)
    tools: list[dict[str, Any]]
    """Each tool's ``get_info()``, in the Env's ``tools_map`` order."""
    tools_info: list[dict[str, Any]]
    """The Env's ``tools_info``: what the agent is given, in its order."""
    terminate_tools: list[str]
    wiki: str
    rules: list[str] = Field(default_factory=list)
    data_bytes: int = 0
    """The size of the environment's data as JSON: the unit of the memory a session costs."""
    overrides: list[str] = Field(default_factory=list)
    """Methods of base ``Env`` the environment's class redefines (its own run in the worker)."""


class ForkRecord(BaseModel):
    """An imported fork: its checkout, the folder holding its ``tau_bench``, environments, failures, differences."""

    name: str
    path: str
    root: str
    envs: dict[str, ForkEnv] = Field(default_factory=dict)
    failed: dict[str, str] = Field(default_factory=dict)
    """Environment -> why it did not load."""
    base: dict[str, str] = Field(default_factory=dict)
    """Digests of the fork's ``envs/base.py`` pieces (see ``_semantics``)."""
    reward: str = "upstream"
    """Which ``calculate_reward`` the fork has: ``upstream``, ``outputs-else-db`` (the older one), ``unknown``."""
    differences: list[str] = Field(default_factory=list)

    def domain(self, env: str) -> str:
        return f"{PREFIX}{self.name}/{env}"


def record_path(fork: str) -> Path:
    return forks_dir() / f"{fork}.json"


_LOADED: dict[Path, tuple[int, ForkRecord]] = {}


def load_record(fork: str) -> ForkRecord:
    """The recorded fork ``fork`` (read once per version of its file); FileNotFoundError when never imported here."""
    path = record_path(fork)
    version = path.stat().st_mtime_ns
    cached = _LOADED.get(path)
    if cached is None or cached[0] != version:
        cached = _LOADED[path] = (version, ForkRecord.model_validate_json(path.read_text(encoding="utf-8")))
    return cached[1]


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, path)


def tasks_path(fork: str, env: str) -> Path:
    return forks_dir() / fork / f"{env}.tasks.json"


def save_tasks(fork: str, env: str, tasks: dict[str, list[dict[str, Any]]]) -> None:
    """The tasks of each split of ``env``, apart from the record: discovering the domains never reads them."""
    _write_atomic(tasks_path(fork, env), json.dumps(tasks))


def load_tasks(fork: str, env: str) -> dict[str, list[dict[str, Any]]]:
    """Split -> task records (``user_id``, ``instruction``, ``actions``, ``outputs``) as import-fork recorded them."""
    loaded: dict[str, list[dict[str, Any]]] = json.loads(tasks_path(fork, env).read_text(encoding="utf-8"))
    return loaded


def save_record(record: ForkRecord) -> None:
    """Write the record and replace this fork's domains in the index (the registry reads the index)."""
    _write_atomic(record_path(record.name), record.model_dump_json())
    index = {name: fork for name, fork in read_index().items() if fork != record.name}
    index.update({record.domain(env): record.name for env in record.envs})
    _write_atomic(index_path(), json.dumps(dict(sorted(index.items())), indent=1))


def imported_forks() -> list[str]:
    """The forks imported in this cache, sorted."""
    return sorted(set(read_index().values()))
