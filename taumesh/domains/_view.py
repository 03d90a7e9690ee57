"""What a session and the hooks see of a domain: read-only views, so the core modules need no cycle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from taumesh.domains._tool import Tool


class StateHasher(Protocol):
    """Hashes a session's data (table name -> table); built once per process over the base data."""

    def hash(self, data: Mapping[str, Any]) -> str: ...


class DomainLayout(Protocol):
    """How a domain whose files are not v1's (one JSON file per table) reads them; see ``DomainPlugin.layout``."""

    def base_data(self, root: Path) -> dict[str, Any]:
        """The base database, table name -> table of plain JSON records, already normalised."""
        ...

    def policy(self, root: Path) -> str:
        """The policy text the agent gets."""
        ...

    def tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        """OpenAI function schemas of the assistant's tools, in the order the agent sees them."""
        ...

    def user_tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        """OpenAI function schemas of the user's tools."""
        ...

    def has_split(self, root: Path, split: str) -> bool:
        """Whether the data holds the tasks of ``split``."""
        ...

    def tasks(self, root: Path, split: str) -> Sequence[Any]:
        """The tasks of ``split`` (instances of ``taumesh.domains.Task`` or a subclass), in file order."""
        ...

    def task_count(self, root: Path, split: str) -> int:
        """How many tasks ``split`` has, without parsing them (listing domains must stay cheap)."""
        ...


class ToolRules(Protocol):
    """What a plugin declares about running its tools (the fields of ``DomainPlugin`` of the same names)."""

    @property
    def name(self) -> str: ...
    @property
    def terminate_tools(self) -> frozenset[str]: ...
    @property
    def unknown_tool(self) -> str: ...
    @property
    def error_from_text(self) -> bool: ...
    @property
    def layout(self) -> DomainLayout | None: ...


class DomainView(Protocol):
    """A domain bound to its files, as sessions and hooks see it (``taumesh.domains.Domain`` is one)."""

    @property
    def name(self) -> str: ...
    @property
    def root(self) -> Path: ...
    @property
    def spec(self) -> ToolRules: ...
    @property
    def base_data(self) -> Mapping[str, Mapping[str, Any]]: ...
    @property
    def hasher(self) -> StateHasher: ...
    @property
    def tools_by_name(self) -> dict[str, type[Tool]]: ...
    @property
    def documents(self) -> Sequence[Document]: ...


class Document(Protocol):
    """A document of a knowledge base (``taumesh.domains.Document`` is the model a domain returns)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...
