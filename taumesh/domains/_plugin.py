"""The domain contract: what a domain package declares, and the hooks the services call on it.

:class:`DomainPlugin` is the one contract every domain implements, built-in or third-party. Its fields
declare the domain (tools tagged by side and read/write, splits, terminate tools, files); its methods
are the hooks, whose defaults are τ-bench v1's. The services call only these hooks (through
:class:`~taumesh.domains.Domain`) and the task's own (:class:`~taumesh.domains.Task`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from taumesh.domains._errors import DataError
from taumesh.domains._hashing import DataHasher
from taumesh.domains._reward import (
    V1_REWARD,
    Episode,
    EpisodeScore,
    RewardComponent,
    compose,
    reward_basis,
    v1_gold_hash,
)
from taumesh.domains._session import Session, StepResult
from taumesh.domains._task import Task
from taumesh.domains._tool import Requestor, Tool
from taumesh.domains._view import DomainLayout, DomainView, StateHasher
from taumesh.models import (
    EVALUATED_TERMINATIONS,
    STOP_TOKEN,
    V1_RUN_DEFAULTS,
    GoldAction,
    RewardBasis,
    RunDefaults,
)


class Document(BaseModel):
    """One document of a domain's knowledge base, which its retrieval tools search."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str = ""
    text: str


@dataclass(frozen=True)
class UserPrompt:
    """How a domain prompts the LLM user simulator: its system prompt, and the agent's greeting it answers."""

    system: str
    greeting: str


@dataclass(frozen=True)
class DomainPlugin:
    """A domain: its name, data model, tools, splits and files, and the hooks of an episode.

    Files (under :meth:`data_dir`): one ``<table>.json`` per field of ``database``, the policy
    (``policy_file``), the tasks of each split (``tasks_file`` with ``{split}`` filled in) and, when
    ``tool_schemas_file`` is set, the assistant tools' schemas (else each tool declares its own). A
    ``layout`` reads files laid out otherwise (τ²'s).
    """

    name: str
    """The domain's name: the ``--env`` value, and the entry point's name."""
    tools: Sequence[type[Tool]]
    """Every tool, assistant and user side (``Tool.side``); each tagged read or write (``Tool.writes``)."""
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
    documents_file: str | None = None
    """A JSON list of documents (``{"id", "title", "text"}``) the retrieval tools search; None: no documents."""
    task_model: type[Task] = Task
    """The model of the task files' records (a subclass of ``Task`` may add fields and compute the hooks)."""
    hasher: Callable[[Mapping[str, Mapping[Any, Any]]], StateHasher] = field(default=DataHasher)
    """Builds the state hasher over the base data; the default is τ-bench v1's ``get_data_hash``."""
    layout: DomainLayout | None = None
    """Reads data, policy, schemas and tasks laid out otherwise than v1 (τ²); None: the files above."""
    unknown_tool: str = "Unknown action {name}"
    """The observation for a tool that does not exist or belongs to the other side (``{name}`` filled in)."""
    error_from_text: bool = True
    """τ-bench v1: an observation starting with ``Error`` is an error; False (τ²): only a raised exception is."""
    own_user_prompt: bool = False
    """Whether :meth:`user_prompt` prompts the LLM user (τ²: its guidelines); False: the user strategy's own prompt."""
    user_stop_tokens: tuple[str, ...] = (STOP_TOKEN,)
    """What ends the episode when the simulated user's text holds it (v1: ``###STOP###``; τ² adds its two)."""
    user_opening_stops: bool = False
    """Whether the user's opening message is checked for them too (τ² checks every user message; v1 only replies)."""
    identity_tools: frozenset[str] | None = None
    """Tools that find or verify who the user is (``taumesh domain audit``'s ``identity_then_refuse`` floor plays the
    gold's calls of them, then refuses); None: not declared, and that floor reads "unknown"."""
    unordered_arguments: Mapping[str, tuple[tuple[str, ...], ...]] | None = None
    """Reorderings the domain declares equal: per tool, groups of list arguments an agent may give in any order (the
    lists of a group reordered together: paired lists such as ``item_ids`` and ``new_item_ids``). The audit reorders
    them in the gold and flags a task whose gold outcome's hash then changes (``order_sensitive``); None: not
    declared, and a task whose gold writes pass lists gets the flag as "unknown"."""
    run_defaults: RunDefaults = V1_RUN_DEFAULTS
    """What a run of this domain takes for the limits, seeds and conventions it does not set (seed, max steps and
    errors, per-trial seeds, default split, task-id style, replay): its own benchmark's. The env sends them with the
    domain (``DomainInfo.run_defaults``); the default is τ-bench v1's."""
    foreign_names: Mapping[str, str] = field(default_factory=dict)
    """The domain's name in another benchmark's flags and files, by benchmark: τ²'s plugins give ``{"tau2":
    "airline"}``, so τ²'s ``--domain airline`` and a τ² results document's ``domain_name: airline`` mean this domain
    (:meth:`Registry.named_by <taumesh.domains.Registry.named_by>`); empty: none."""
    aliases: tuple[str, ...] = ()
    """Other names ``--env`` takes for this domain where no other domain has them (τ²'s ``telecom``)."""

    @property
    def tables(self) -> tuple[str, ...]:
        """The database's tables, one file each."""
        return tuple(self.database.model_fields)

    # Files: where they are, which tools and documents go with them.

    def data_dir(self, default_data_dir: Path) -> Path:
        """Where this domain's files are: its own folder, or ``<default_data_dir>/<name>``."""
        return self.own_data if self.own_data is not None else Path(default_data_dir) / self.name

    def data_release(self, root: Path) -> str | None:
        """The release of the data in ``root`` as recorded when it was fetched or imported; None: not recorded.

        Results record it (``info.run.data_release``), and ``--resume`` and ``rescore`` refuse to mix releases
        unless told (``--allow-release-change``).
        """
        return None

    def data_roots(self, default_data_dir: Path) -> Mapping[str, Path]:
        """The folders whose files are the domain's data, by label; the default: the data folder (:meth:`data_dir`).

        A signed run's manifest hashes their files and ``taumesh verify`` checks them again.
        """
        return {"data": self.data_dir(default_data_dir)}

    def variants(self) -> Mapping[str, Callable[[], DomainPlugin]]:
        """Plugins this one offers as ``<name>:<variant>`` (a configuration of the same data), each built on demand.

        The registry answers ``<name>:<variant>`` with the plugin the loader returns; none by default.
        """
        return {}

    def run_problem(self) -> str | None:
        """What this environment lacks to run the domain (a model, a sandbox), worded for the user; None: it runs.

        Asked whenever the domain is taken for use (:func:`~taumesh.domains.load_domain`, ``Catalog.get``: sessions,
        runs), which refuse it with a DataError saying so, so keep it cheap (cache what costs); listings and
        discovery (``Catalog.describe``) do not ask, so they work without it.
        """
        return None

    def missing_data(self, default_data_dir: Path) -> str:
        """What to do when the domain's files are not there, worded for the user (``taumesh run`` says it first).

        The default is τ-bench v1's: import a τ-bench checkout, or point ``--data-dir`` at the data.
        """
        return (
            f"τ-bench v1's {self.name!r} data is not in {default_data_dir}: run `taumesh data import taubench PATH` "
            "(PATH: a τ-bench checkout), or point --data-dir (TAUMESH_DATA_DIR) at a folder holding it"
        )

    def tools_for(self, root: Path) -> Sequence[type[Tool]]:
        """The tools over the data folder ``root``: :attr:`tools`, unless a version of the data adds some."""
        return self.tools

    def policy(self, root: Path) -> str:
        """The policy text given to the agent as its system prompt (v1: ``wiki.md``)."""
        if self.layout is not None:
            return self.layout.policy(root)
        path = root / self.policy_file
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise DataError(f"{path} not found") from exc

    def task_policy(self, root: Path, task: Task) -> str | None:
        """The policy of ``task``'s episode when it has its own; None (the default): the domain's :meth:`policy`.

        τ³'s ``golden_retrieval`` gives each task the documents it needs in its policy.
        """
        return None

    def documents(self, root: Path) -> Sequence[Document]:
        """The knowledge base the retrieval tools (``Tool.reads_documents``) search: ``documents_file``, if any."""
        if self.documents_file is None:
            return ()
        path = root / self.documents_file
        try:
            return tuple(Document.model_validate(record) for record in _json_list(path))
        except ValueError as exc:
            raise DataError(f"{path}: {exc}") from exc

    # The user's side.

    def user_prompt(self, instruction: str, with_tools: bool) -> UserPrompt | None:
        """The LLM user's system prompt for ``instruction`` (τ²: its user guidelines); None: the strategy's own."""
        return None

    def stop_reply(self, agent_message: str) -> str | None:
        """What the scripted user answers to end the conversation on this agent message; None: it goes on."""
        return None

    def opening_message(self, task: Task) -> str | None:
        """The agent's first message, said before the user's first turn (τ²'s greeting); None: the user opens (v1).

        Every view of the episode starts with it, as an assistant text the user replies to; it is no step.
        """
        return None

    # The agent's side.

    def closing_message(self, task: Task, policy: str) -> str | None:
        """What the oracle says after its gold actions beside the outputs (τ²: the message after a transfer)."""
        return None

    # The episode.

    def open_session(self, domain: DomainView, task: Task) -> Session:
        """A fresh session in ``task``'s initial state: the base data, then the history's tool calls."""
        session = Session(domain)
        for message in task.history():
            for call in message.tool_calls:
                arguments = _json_object(call.arguments)
                session.call(call.name, arguments, call.requestor)
        return session

    def call_tool(
        self, session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant"
    ) -> StepResult:
        """One tool call of an episode, as the benchmark's env runs it (v1: ``Env.step``)."""
        return session.call(name, arguments, requestor)

    # The reward.

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """The data hash the task's gold actions lead to (v1: replayed from the initial state)."""
        return v1_gold_hash(domain, task)

    def reward_components(self, task: Task) -> Sequence[RewardComponent]:
        """The named checks of the reward (v1: DB and COMMUNICATE)."""
        return V1_REWARD

    def reward_basis(self, task: Task) -> list[RewardBasis]:
        """Which components the reward multiplies (v1: DB, and COMMUNICATE when the task requires outputs)."""
        return reward_basis(task)

    def listed_checks(self, task: Task) -> Mapping[RewardBasis, int]:
        """How many checks of each kind ``task`` lists, whether or not its reward basis counts them.

        ``taumesh domain audit`` lints the basis with it (``basis_lint``): a kind in the basis with none listed checks
        nothing, checks listed beside a basis that leaves them out are never scored. v1: one DB comparison, and
        one COMMUNICATE check per required output.
        """
        return {"DB": 1, "COMMUNICATE": len(task.outputs)}

    def task_flags(self, domain: DomainView, tasks: Sequence[Task]) -> Mapping[str, list[tuple[str, str]]]:
        """Flags of kinds the domain checks itself, per task id: ``(kind, sentence)`` pairs; none by default.

        ``taumesh domain audit`` adds them to its own. A factory domain (``taumesh.domains.factory``) answers
        ``non_unique`` (an allowed outcome its grader rejects), ``trap_cue`` and ``output_spec``.
        """
        return {}

    def task_intent(self, task: Task) -> str | None:
        """What ``task`` tests, in the domain's own words (healthcare's ``intent``); None: the domain says nothing."""
        return None

    def policy_clauses(self, root: Path, task: Task) -> Sequence[str] | None:
        """The policy clauses ``task`` tests, each as the policy words it (``"4.6 Cancelling an appointment…"``).

        ``taumesh domain audit --sheet`` lists them beside the task, so a reviewer can check its gold against the
        rules it is meant to test. None (the default): the domain does not say, and the sheet reads "not declared";
        a factory domain answers from its tasks' ``clauses`` and its numbered policy.
        """
        return None

    def labels(self) -> tuple[str, ...]:
        """The task fields the viewer shows beside each task and filters by; empty: none.

        Healthcare's are intent, tier, trap and dual control. The default reads the task model's ``LABELS`` class
        variable where it has one (``FactoryTask``'s, release 1's ``HealthcareTask``'s), so a domain that declares
        them there needs nothing more.
        """
        return tuple(getattr(self.task_model, "LABELS", ()))

    def score(self, episode: Episode) -> EpisodeScore:
        """The reward of ``episode`` and its checks: the components over the basis (v1: ``calculate_reward``).

        ``episode`` holds the domain, the task, the conversation as the orchestrator recorded it, how it ended, the
        env's final data hash and this plugin's :meth:`gold_hash` of the task. An episode that did not end gets 0 and
        no checks.
        """
        task = episode.task
        basis = self.reward_basis(task)
        score = EpisodeScore(
            reward=0.0,
            reward_basis=basis,
            gold_actions=[
                GoldAction(name=a.name, kwargs=a.kwargs, requestor=a.requestor)
                for a in task.actions
                if a.name != "respond"
            ],
            required_outputs=list(task.outputs),
        )
        if episode.termination not in EVALUATED_TERMINATIONS:
            return score
        composed = compose(self.reward_components(task), episode, basis)
        return score.model_copy(
            update={"reward": composed.reward, "checks": composed.checks, "nl_assertions": composed.to_judge}
        )


def _json_list(path: Path) -> list[Any]:
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found") from exc
    if not isinstance(records, list):
        raise DataError(f"{path} must hold a JSON list")
    return records


def _json_object(text: str) -> dict[str, Any]:
    try:
        parsed = json.loads(text or "{}")
    except json.JSONDecodeError as exc:
        raise DataError(f"a tool call of the message history has arguments that are not JSON: {exc}") from exc
    if not isinstance(parsed, dict):
        raise DataError("a tool call of the message history has arguments that are not a JSON object")
    return parsed


DomainSpec = DomainPlugin
"""The former name of :class:`DomainPlugin`."""
