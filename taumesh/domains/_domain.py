"""A domain: its tools, plus the data, policy, tool schemas and tasks loaded from a data directory."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from taumesh.domains._hashing import DataHasher
from taumesh.domains._tool import Tool


class Action(BaseModel):
    """One tool call of a gold action sequence."""

    model_config = ConfigDict(frozen=True)

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)


class Task(BaseModel):
    """A τ-bench task: who the user is, what they want, and the gold solution."""

    user_id: str
    instruction: str
    actions: list[Action]
    outputs: list[str] = Field(default_factory=list)
    annotator: str | None = None


class DataError(Exception):
    """The data directory is missing a file or holds something we cannot read."""


@dataclass(frozen=True)
class DomainSpec:
    """What a domain's package declares: its name, tools, tables, splits and terminating tools."""

    name: str
    tools: Sequence[type[Tool]]
    tables: Sequence[str]
    splits: Sequence[str]
    terminate_tools: frozenset[str] = frozenset({"transfer_to_human_agents"})


@dataclass
class Domain:
    """A domain bound to one data directory. Loads lazily; the base data is shared, never mutated."""

    spec: DomainSpec
    root: Path
    _tasks: dict[str, list[Task]] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.spec.name

    def _read(self, filename: str) -> Any:
        path = self.root / filename
        try:
            with path.open(encoding="utf-8") as handle:
                return json.load(handle)
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found; is --data-dir a τ-bench data directory?") from exc
        except json.JSONDecodeError as exc:
            raise DataError(f"{path} is not valid JSON: {exc}") from exc

    @cached_property
    def base_data(self) -> Mapping[str, Mapping[str, Any]]:
        """The immutable base database, table by table, exactly as Python's json loads it."""
        return {table: self._read(f"{table}.json") for table in self.spec.tables}

    @cached_property
    def hasher(self) -> DataHasher:
        return DataHasher(self.base_data)

    @cached_property
    def initial_hash(self) -> str:
        from taumesh.domains._session import Session

        return Session(self).data_hash()

    @cached_property
    def policy(self) -> str:
        """The policy text (τ-bench's ``wiki.md``) given to the agent as its system prompt."""
        path = self.root / "wiki.md"
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found") from exc

    @cached_property
    def tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI function schemas of the tools, from the data's ``tools.json``, in its order."""
        schemas: list[dict[str, Any]] = self._read("tools.json")
        names = {schema["function"]["name"] for schema in schemas}
        implemented = set(self.tools_by_name)
        if names != implemented:
            raise DataError(
                f"{self.root / 'tools.json'} describes {sorted(names ^ implemented)} "
                "which this version of taumesh does not implement the same way"
            )
        return schemas

    @cached_property
    def tools_by_name(self) -> dict[str, type[Tool]]:
        return {tool.name: tool for tool in self.spec.tools}

    def tasks(self, split: str) -> list[Task]:
        """The tasks of ``split``; the list index is the task id."""
        if split not in self.spec.splits:
            raise KeyError(f"domain {self.name!r} has no split {split!r} (has {list(self.spec.splits)})")
        if split not in self._tasks:
            self._tasks[split] = [Task.model_validate(t) for t in self._read(f"tasks_{split}.json")]
        return self._tasks[split]

    def task(self, split: str, index: int) -> Task:
        tasks = self.tasks(split)
        if not 0 <= index < len(tasks):
            raise IndexError(f"{self.name} {split} has tasks 0..{len(tasks) - 1}, not {index}")
        return tasks[index]
