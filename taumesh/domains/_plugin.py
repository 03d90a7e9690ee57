"""What a domain package declares: the plugin object the registry finds through its entry point."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from taumesh.domains._hashing import DataHasher
from taumesh.domains._tool import Requestor, Tool

if TYPE_CHECKING:
    from taumesh.domains._domain import Domain, Task
    from taumesh.domains._session import Session, StepResult
    from taumesh.models import ChatMessage, Score, Termination


class DomainLayout(Protocol):
    """How a domain whose files are not v1's (one JSON file per table) reads them; see :attr:`DomainPlugin.layout`."""

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
    """Tools whose call ends the episode (τ-bench v1's transfer; τ² domains declare none)."""
    own_data: Path | None = None
    """The folder holding the domain's files when the package carries them; None: ``<data dir>/<name>``."""
    policy_file: str = "wiki.md"
    tasks_file: str = "tasks_{split}.json"
    tool_schemas_file: str | None = None
    """A JSON list of OpenAI function schemas of the assistant tools (τ-bench v1's ``tools.json``)."""
    hasher: Callable[[Mapping[str, Mapping[Any, Any]]], StateHasher] = field(default=DataHasher)
    """Builds the state hasher over the base data; the default is τ-bench v1's ``get_data_hash``."""
    layout: DomainLayout | None = None
    """Reads data, policy, schemas and tasks laid out otherwise than v1 (τ²); None: the files above."""
    unknown_tool: str = "Unknown action {name}"
    """The observation for a tool that does not exist or belongs to the other side (``{name}`` filled in)."""
    error_from_text: bool = True
    """τ-bench v1: an observation starting with ``Error`` is an error; False (τ²): only a raised exception is."""

    @property
    def tables(self) -> tuple[str, ...]:
        """The database's tables, one file each."""
        return tuple(self.database.model_fields)

    def tools_for(self, root: Path) -> Sequence[type[Tool]]:
        """The tools over the data folder ``root``: :attr:`tools`, unless a version of the data adds some."""
        return self.tools

    def data_dir(self, default_data_dir: Path) -> Path:
        """Where this domain's files are: its own folder, or ``<default_data_dir>/<name>``."""
        return self.own_data if self.own_data is not None else Path(default_data_dir) / self.name

    # The episode hooks: what the services ask of a domain. The defaults are τ-bench v1's.

    def open_session(self, domain: Domain, task: Task) -> Session:
        """A fresh session in ``task``'s initial state (v1: the base data)."""
        from taumesh.domains._session import Session

        return Session(domain)

    def call_tool(
        self, session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant"
    ) -> StepResult:
        """One tool call of an episode, as the benchmark's env runs it (v1: ``Env.step``)."""
        return session.call(name, arguments, requestor)

    def gold_hash(self, domain: Domain, task: Task) -> str:
        """The data hash the task's gold actions lead to (v1: replayed from the base data)."""
        from taumesh.domains._reward import v1_gold_hash

        return v1_gold_hash(domain, task)

    def score(
        self,
        domain: Domain,
        task: Task,
        conversation: Sequence[ChatMessage],
        termination: Termination,
        final_hash: str,
        gold_hash: str,
    ) -> Score:
        """The reward of an episode and its checks (v1: ``calculate_reward``).

        ``conversation`` is the episode as the orchestrator recorded it, ``final_hash`` the env's
        final data hash, ``gold_hash`` this plugin's :meth:`gold_hash` of the task.
        """
        from taumesh.domains._reward import compute_reward

        responses = [m.content for m in conversation if m.role == "assistant" and not m.tool_calls]
        return compute_reward(task, gold_hash, termination, final_hash, responses)


DomainSpec = DomainPlugin
"""The former name of :class:`DomainPlugin`."""
