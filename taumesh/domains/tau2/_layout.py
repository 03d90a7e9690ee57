"""Reading a τ² domain's files: models and tools are the project's, texts and data come from its data folder.

Each data file is read from the domain's folder when it has it, else from the fetched data (:func:`._files.data_file`).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from taumesh.domains import describe_validation_error
from taumesh.domains._errors import DataError
from taumesh.domains._tool import Tool
from taumesh.domains.tau2._files import data_file
from taumesh.domains.tau2._models import Database
from taumesh.domains.tau2._schemas import tool_schema
from taumesh.domains.tau2._tasks import Tau2Task, read_splits, read_tasks
from taumesh.domains.tau2._texts import toolkit_text

USER_TABLE = "user_db"
"""The session table holding the user's database (its fields as records), hashed on its own."""


def _read_file(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found") from exc
    try:
        return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path} is not valid: {exc}") from exc


def _validated(path: Path, model: type[BaseModel]) -> dict[str, Any]:
    try:
        validated = model.model_validate(_read_file(path))
    except ValidationError as exc:
        raise DataError(describe_validation_error(exc, f"{path} does not match {model.__name__}")) from exc
    loaded: dict[str, Any] = dump_json(validated)
    return loaded


def dump_json(model: BaseModel) -> Any:
    """A model's python-mode dump as plain JSON values (dates as τ²'s ``default=str`` writes them)."""
    return json.loads(json.dumps(model.model_dump(), default=str))


@dataclass(frozen=True)
class Tau2Layout:
    """A τ² domain's files (``db.json``, ``policy.md``, ``tasks.json`` + ``split_tasks.json``), models and tools.

    Telecom's differ: a TOML database whose tables are lists (kept as tables keyed by position, see
    :mod:`._hash`), a user database (the table :data:`USER_TABLE`), and a policy assembled from the
    main policy and a tech-support policy.
    """

    toolkit: str
    """τ²'s name of the assistant's toolkit: its tools' order and texts in the fetched ``texts.json``."""
    database: type[Database]
    """The database model (``taumesh.domains.tau2_<name>.models``): ``db_file`` validated, dumped as τ² dumps it."""
    tools: Sequence[type[Tool]] = ()
    """The tools both toolkits name, implemented here; their signatures give the schemas' types."""
    user_toolkit: str | None = None
    """τ²'s name of the user's toolkit (telecom's); None: the user has none."""
    user_database: type[Database] | None = None
    """The user's database model (telecom's phone); None: the user has none."""
    policy_file: str = "policy.md"
    tasks_file: str = "tasks.json"
    db_file: str = "db.json"
    user_db_file: str | None = None
    """The user's database (telecom's ``user_db.toml``); None: the user has none."""
    tech_support_file: str | None = None
    """Telecom: the tech-support policy appended to ``policy_file`` as τ² assembles them."""
    list_tables: tuple[str, ...] = ()
    """Tables that are lists in τ²'s database (telecom's), kept keyed by position."""

    def database_model(self, root: Path) -> type[BaseModel]:
        return self.database

    def user_database_model(self, root: Path) -> type[BaseModel]:
        if self.user_database is None:
            raise DataError(f"{root} has no user database model")
        return self.user_database

    def base_data(self, root: Path) -> dict[str, Any]:
        loaded = _validated(data_file(root, self.db_file), self.database_model(root))
        for table in self.list_tables:
            loaded[table] = {str(position): record for position, record in enumerate(loaded[table])}
        if self.user_db_file is not None:
            loaded[USER_TABLE] = _validated(data_file(root, self.user_db_file), self.user_database_model(root))
        return loaded

    def _text(self, path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found") from exc

    def policy(self, root: Path) -> str:
        main = self._text(data_file(root, self.policy_file))
        if self.tech_support_file is None:
            return main
        tech_support = self._text(data_file(root, self.tech_support_file))
        return f"<main_policy>\n{main}\n</main_policy>\n<tech_support_policy>\n{tech_support}\n</tech_support_policy>"

    def schemas(self, root: Path, toolkit: str) -> list[dict[str, Any]]:
        """The schemas of ``toolkit``'s tools in τ²'s order (the domain is the data folder's name, as τ² names it)."""
        text, models = toolkit_text(root.name, toolkit)
        implemented = {tool.name: tool for tool in self.tools}
        missing = [tool.name for tool in text.tools if tool.name not in implemented]
        if missing:
            raise DataError(f"τ²'s {toolkit} has tools taumesh does not implement: {', '.join(missing)}")
        return [tool_schema(implemented[tool.name], tool, models) for tool in text.tools]

    def tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return self.schemas(root, self.toolkit)

    def user_tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return [] if self.user_toolkit is None else self.schemas(root, self.user_toolkit)

    def has_split(self, root: Path, split: str) -> bool:
        try:
            return split in read_splits(data_file(root, self.tasks_file))
        except DataError:
            return False

    def task_count(self, root: Path, split: str) -> int:
        """The split file's distinct task ids: telecom's 13 MB task file is not read to count them."""
        return len(set(read_splits(data_file(root, self.tasks_file))[split]))

    def tasks(self, root: Path, split: str) -> list[Tau2Task]:
        return read_tasks(data_file(root, self.tasks_file), split)
