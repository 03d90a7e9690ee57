"""Reading a τ² domain's fetched files: the data model and tools from its sources, the rest from its data."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from taumesh.domains._domain import describe_validation_error
from taumesh.domains._errors import DataError
from taumesh.domains.tau2._files import domain_sources
from taumesh.domains.tau2._source_models import database_model, read_models
from taumesh.domains.tau2._source_tools import SourceTool, read_tools
from taumesh.domains.tau2._tasks import Tau2Task, read_splits, read_tasks


@cache
def source_models(sources: Path) -> Mapping[str, Any]:
    """The models and type aliases of ``<sources>/data_model.py``, rebuilt once per process."""
    return read_models(sources / "data_model.py")


@cache
def source_tools(sources: Path, toolkit: str) -> tuple[SourceTool, ...]:
    """The tools of class ``toolkit`` in ``<sources>/tools.py``, with τ²'s schemas."""
    return tuple(read_tools(sources / "tools.py", toolkit, source_models(sources)))


def dump_json(model: BaseModel) -> Any:
    """A model's python-mode dump as plain JSON values (dates as τ²'s ``default=str`` writes them)."""
    return json.loads(json.dumps(model.model_dump(), default=str))


@dataclass(frozen=True)
class Tau2Layout:
    """A τ² domain's files: ``db.json``, ``policy.md``, ``tasks.json`` + ``split_tasks.json``, and sources."""

    toolkit: str
    """The class in ``tools.py`` whose ``@is_tool`` methods are the assistant's tools."""
    user_toolkit: str | None = None
    """The class of the user's tools (telecom's ``user_tools.py``); None: the user has none."""
    policy_file: str = "policy.md"
    tasks_file: str = "tasks.json"

    def database_model(self, root: Path) -> type[BaseModel]:
        return database_model(source_models(domain_sources(root)))

    def base_data(self, root: Path) -> dict[str, Any]:
        path = root / "db.json"
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found") from exc
        model = self.database_model(root)
        try:
            validated = model.model_validate(raw)
        except ValidationError as exc:
            raise DataError(describe_validation_error(exc, f"{path} does not match {model.__name__}")) from exc
        loaded: dict[str, Any] = dump_json(validated)
        return loaded

    def policy(self, root: Path) -> str:
        path = root / self.policy_file
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found") from exc

    def tools(self, root: Path) -> tuple[SourceTool, ...]:
        return source_tools(domain_sources(root), self.toolkit)

    def tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return [tool.schema for tool in self.tools(root)]

    def user_tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        if self.user_toolkit is None:
            return []
        return [tool.schema for tool in source_tools(domain_sources(root), self.user_toolkit)]

    def has_split(self, root: Path, split: str) -> bool:
        try:
            return split in read_splits(root / self.tasks_file)
        except DataError:
            return False

    def tasks(self, root: Path, split: str) -> list[Tau2Task]:
        return read_tasks(root / self.tasks_file, split)
