"""What a domain package declares: the plugin object the registry finds through its entry point."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from taumesh.domains._hashing import DataHasher
from taumesh.domains._tool import Tool


class StateHasher(Protocol):
    """Hashes a session's data (table name -> table); built once per process over the base data."""

    def hash(self, data: Mapping[str, Any]) -> str: ...


@dataclass(frozen=True)
class DomainPlugin:
    """A domain: its name, data model, tools, splits, and where its files are.

    Files (under :meth:`data_dir`): one ``<table>.json`` per field of ``database``, the policy
    (``policy_file``), the tasks of each split (``tasks_file`` with ``{split}`` filled in) and, when
    ``tool_schemas_file`` is set, the assistant tools' schemas (else each tool declares its own).
    """

    name: str
    """The domain's name: the ``--env`` value, and the entry point's name."""
    tools: Sequence[type[Tool]]
    """Every tool, assistant and user side; each tagged read or write (``Tool.writes``)."""
    database: type[BaseModel]
    """A pydantic model with one field per table (``dict[str, Record]``); validates the files at load."""
    splits: Sequence[str]
    """Task splits, in the order they are listed."""
    terminate_tools: frozenset[str] = frozenset({"transfer_to_human_agents"})
    """Tools whose call ends the episode."""
    own_data: Path | None = None
    """The folder holding the domain's files when the package carries them; None: ``<data dir>/<name>``."""
    policy_file: str = "wiki.md"
    tasks_file: str = "tasks_{split}.json"
    tool_schemas_file: str | None = None
    """A JSON list of OpenAI function schemas of the assistant tools (τ-bench v1's ``tools.json``)."""
    hasher: Callable[[Mapping[str, Mapping[Any, Any]]], StateHasher] = field(default=DataHasher)
    """Builds the state hasher over the base data; the default is τ-bench v1's ``get_data_hash``."""

    @property
    def tables(self) -> tuple[str, ...]:
        """The database's tables, one file each."""
        return tuple(self.database.model_fields)

    def data_dir(self, default_data_dir: Path) -> Path:
        """Where this domain's files are: its own folder, or ``<default_data_dir>/<name>``."""
        return self.own_data if self.own_data is not None else Path(default_data_dir) / self.name


DomainSpec = DomainPlugin
"""The former name of :class:`DomainPlugin`."""
