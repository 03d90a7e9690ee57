"""A domain: a plugin bound to its files, loaded lazily and validated at load time."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from taumesh.domains._errors import DataError
from taumesh.domains._plugin import Document, DomainPlugin, UserPrompt
from taumesh.domains._readonly import freeze
from taumesh.domains._reward import Episode, EpisodeScore
from taumesh.domains._session import Session, StepResult
from taumesh.domains._task import Task, describe_validation_error
from taumesh.domains._tool import Requestor, Tool
from taumesh.domains._view import StateHasher
from taumesh.models import ChatMessage

_SHOWN_IDS = 5


@dataclass
class Domain:
    """A domain bound to the folder holding its files. Loads lazily; the base data is shared, read-only."""

    spec: DomainPlugin
    root: Path
    _tasks: dict[str, list[Task]] = field(default_factory=dict, repr=False)
    _ids: dict[str, dict[str, Task]] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def plugin(self) -> DomainPlugin:
        return self.spec

    def _read(self, filename: str) -> Any:
        path = self.root / filename
        try:
            with path.open(encoding="utf-8") as handle:
                return json.load(handle)
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found; is --data-dir a folder holding a {self.name}/ folder?") from exc
        except json.JSONDecodeError as exc:
            raise DataError(f"{path} is not valid JSON: {exc}") from exc

    @cached_property
    def base_data(self) -> Mapping[str, Mapping[str, Any]]:
        """The base database, table by table, exactly as Python's json loads it, read-only.

        The files are validated against the plugin's data model first; the hash is computed over
        the JSON as loaded (so ints stay ints and key order stays the file's), not over the models.
        """
        if self.spec.layout is not None:
            loaded: Mapping[str, Mapping[str, Any]] = freeze(self.spec.layout.base_data(self.root))
            return loaded
        raw = {table: self._read(f"{table}.json") for table in self.spec.tables}
        try:
            self.spec.database.model_validate(raw)
        except ValidationError as exc:
            where = f"{self.root}: the {self.name} data does not match its model ({self.spec.database.__name__})"
            raise DataError(describe_validation_error(exc, where)) from exc
        frozen: Mapping[str, Mapping[str, Any]] = freeze(raw)
        return frozen

    def open_session(self, task: Task) -> Session:
        """A fresh session in ``task``'s initial state (the plugin's :meth:`~DomainPlugin.open_session`)."""
        return self.spec.open_session(self, task)

    def call_tool(
        self, session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant"
    ) -> StepResult:
        """One tool call of an episode in ``session`` (the plugin's :meth:`~DomainPlugin.call_tool`)."""
        return self.spec.call_tool(session, name, arguments, requestor)

    def gold_hash(self, task: Task) -> str:
        """The data hash ``task``'s gold actions lead to (the plugin's :meth:`~DomainPlugin.gold_hash`)."""
        return self.spec.gold_hash(self, task)

    def score(self, episode: Episode) -> EpisodeScore:
        """An episode's reward and checks (the plugin's :meth:`~DomainPlugin.score`)."""
        return self.spec.score(episode)

    @cached_property
    def hasher(self) -> StateHasher:
        return self.spec.hasher(self.base_data)

    @cached_property
    def initial_hash(self) -> str:
        return Session(self).data_hash()

    @cached_property
    def policy(self) -> str:
        """The policy text given to the agent as its system prompt (the plugin's :meth:`~DomainPlugin.policy`)."""
        return self.spec.policy(self.root)

    def policy_for(self, task: Task) -> str:
        """The policy of ``task``'s episode: its own (:meth:`~DomainPlugin.task_policy`), else the domain's."""
        own = self.spec.task_policy(self.root, task)
        return own if own is not None else self.policy

    @cached_property
    def documents(self) -> tuple[Document, ...]:
        """The knowledge base the retrieval tools search (the plugin's :meth:`~DomainPlugin.documents`)."""
        return tuple(self.spec.documents(self.root))

    def history(self, task: Task) -> list[ChatMessage]:
        """The conversation ``task``'s episode continues (the task's :meth:`~Task.history`)."""
        return task.history()

    def user_prompt(self, instruction: str, with_tools: bool) -> UserPrompt | None:
        """The LLM user's prompt in this domain (the plugin's :meth:`~DomainPlugin.user_prompt`)."""
        return self.spec.user_prompt(instruction, with_tools)

    @cached_property
    def data_release(self) -> str | None:
        """The release of this domain's data (the plugin's :meth:`~DomainPlugin.data_release`)."""
        return self.spec.data_release(self.root)

    def opening_message(self, task: Task) -> str | None:
        """The agent's message before the user's first turn (the plugin's :meth:`~DomainPlugin.opening_message`)."""
        return self.spec.opening_message(task)

    def closing_message(self, task: Task) -> str | None:
        """What the oracle adds after its gold actions (the plugin's :meth:`~DomainPlugin.closing_message`)."""
        return self.spec.closing_message(task, self.policy_for(task))

    @cached_property
    def tools(self) -> Sequence[type[Tool]]:
        """Every tool over this domain's data folder (a version of the data may add some: ``tools_for``)."""
        return self.spec.tools_for(self.root)

    @cached_property
    def tools_by_name(self) -> dict[str, type[Tool]]:
        return {tool.name: tool for tool in self.tools}

    @cached_property
    def tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI function schemas of the assistant's tools.

        From the data file when the plugin names one (v1's ``tools.json``, in its order), else from
        the tools themselves; tools a version of the data adds (``tools_for``) come last, describing themselves.
        """
        assistant = [tool for tool in self.spec.tools if tool.side == "assistant"]
        added = [tool.schema() for tool in self.tools if tool.side == "assistant" and tool not in self.spec.tools]
        if self.spec.layout is not None:
            from_sources = self._implemented(self.spec.layout.tool_schemas(self.root), assistant, "assistant tools")
            return [*from_sources, *added]  # a data version's own tools describe themselves
        if self.spec.tool_schemas_file is None:
            return [tool.schema() for tool in assistant]
        schemas: list[dict[str, Any]] = self._read(self.spec.tool_schemas_file)
        return self._implemented(schemas, assistant, str(self.root / self.spec.tool_schemas_file))

    def _implemented(self, schemas: list[dict[str, Any]], tools: list[type[Tool]], where: str) -> list[dict[str, Any]]:
        """``schemas``, after checking that they describe exactly the tools implemented."""
        names = {schema["function"]["name"] for schema in schemas}
        implemented = {tool.name for tool in tools}
        if names != implemented:
            raise DataError(
                f"{where} of {self.name} describe {sorted(names ^ implemented)} "
                "which this version of taumesh does not implement the same way"
            )
        return schemas

    @cached_property
    def user_tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI function schemas of the tools the user may call (none in τ-bench v1)."""
        user = [tool for tool in self.spec.tools if tool.side == "user"]
        if self.spec.layout is not None:
            return self._implemented(self.spec.layout.user_tool_schemas(self.root), user, "user tools")
        return [tool.schema() for tool in user]

    def has_split_file(self, split: str) -> bool:
        """Whether the task file of ``split`` exists (a plugin may declare splits it does not ship)."""
        if self.spec.layout is not None:
            return self.spec.layout.has_split(self.root, split)
        return (self.root / self.spec.tasks_file.format(split=split)).is_file()

    def task_count(self, split: str) -> int:
        """How many tasks ``split`` has, counted without validating them (a laid-out domain's without parsing)."""
        if self.spec.layout is not None and split not in self._tasks:
            return self.spec.layout.task_count(self.root, split)
        if split not in self._tasks and split in self.spec.splits:
            records = self._read(self.spec.tasks_file.format(split=split))
            if isinstance(records, list):
                return len(records)
        return len(self.tasks(split))

    def tasks(self, split: str) -> list[Task]:
        """The tasks of ``split``, in file order (v1: the list index is the task id)."""
        if split not in self.spec.splits:
            raise KeyError(f"domain {self.name!r} has no split {split!r} (has {list(self.spec.splits)})")
        if split not in self._tasks and self.spec.layout is not None:
            laid_out = list(self.spec.layout.tasks(self.root, split))
            self._check_unique_ids(f"tasks of split {split}", laid_out)
            self._tasks[split] = laid_out
        if split not in self._tasks:
            filename = self.spec.tasks_file.format(split=split)
            records = self._read(filename)
            if not isinstance(records, list):
                raise DataError(f"{self.root / filename} must hold a JSON list of tasks")
            tasks = []
            for index, record in enumerate(records):
                try:
                    task = self.spec.task_model.model_validate(record)
                except ValidationError as exc:
                    raise DataError(describe_validation_error(exc, f"{self.root / filename}: task {index}")) from exc
                tasks.append(task if task.id else task.model_copy(update={"id": str(index)}))
            self._check_unique_ids(filename, tasks)
            self._tasks[split] = tasks
        return self._tasks[split]

    def _check_unique_ids(self, filename: str, tasks: list[Task]) -> None:
        seen: set[str] = set()
        for task in tasks:
            if task.id in seen:
                raise DataError(f"{self.root / filename}: task id {task.id!r} appears twice")
            seen.add(task.id)

    def task(self, split: str, index: int) -> Task:
        """The task at position ``index`` of ``split``."""
        tasks = self.tasks(split)
        if not 0 <= index < len(tasks):
            raise IndexError(f"{self.name} {split} has tasks 0..{len(tasks) - 1}, not {index}")
        return tasks[index]

    def find_task(self, split: str, task_id: str) -> Task:
        """The task of ``split`` whose id is ``task_id``; KeyError naming the domain, split and valid ids."""
        by_id = self._ids.get(split)
        if by_id is None:
            by_id = self._ids[split] = {task.id: task for task in self.tasks(split)}
        try:
            return by_id[task_id]
        except KeyError:
            raise KeyError(
                f"domain {self.name!r} split {split!r} has no task {task_id!r} ({_describe_ids(list(by_id))})"
            ) from None


def _describe_ids(ids: list[str]) -> str:
    if not ids:
        return "it has no tasks"
    if ids == [str(index) for index in range(len(ids))]:
        return f"ids are 0..{len(ids) - 1}"
    shown = ", ".join(repr(task_id) for task_id in ids[:_SHOWN_IDS])
    return f"{len(ids)} tasks, e.g. {shown}"
