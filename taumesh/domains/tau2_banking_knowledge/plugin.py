"""The ``tau2-banking-knowledge`` plugin: files, tools, sessions and reward of τ³'s ``banking_knowledge``.

Its data is the imported upstream tree (``taumesh data import tau2``), or a ``--data-dir`` holding
``banking_knowledge/``. Sessions hold the 23 tables as ``{data, notes}`` plus two tables outside the database (the
tools unlocked, the task's read-log allowlist), which the hash leaves out. The reward is τ²'s components over the
replayed episode: DB, ACTION, COMMUNICATE and NL_ASSERTION (judged by the scorer).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from pathlib import Path
from typing import Any

from taumesh.data import imported_release, tau2_upstream_dir
from taumesh.domains import (
    VARIANT_SEPARATOR,
    DataError,
    Document,
    DomainPlugin,
    DomainView,
    Episode,
    EpisodeMismatch,
    EpisodeScore,
    Requestor,
    RewardComponent,
    Session,
    StepResult,
    Task,
    Tool,
    compose,
    parse_arguments,
)
from taumesh.domains.tau2 import ActionCheck, CommunicateCheck, DatabaseCheck, NlAssertionCheck, Tau2Plugin
from taumesh.domains.tau2_banking_knowledge.configs import (
    ALIASES,
    CONFIGS,
    RetrievalConfig,
    check_runnable,
    retrieval_config,
)
from taumesh.domains.tau2_banking_knowledge.knowledge import KnowledgeDocument, load_documents
from taumesh.domains.tau2_banking_knowledge.models import TransactionalDB
from taumesh.domains.tau2_banking_knowledge.policy import compose_policy
from taumesh.domains.tau2_banking_knowledge.reranker import reranker_model_name
from taumesh.domains.tau2_banking_knowledge.retrieval_tools import embedding_model_name, open_shell, retrieval_tools
from taumesh.domains.tau2_banking_knowledge.state import db_hash, deep_merge, load_db
from taumesh.domains.tau2_banking_knowledge.tasks import BankingTask, load_tasks
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts
from taumesh.domains.tau2_banking_knowledge.toolkit import SESSION_TABLES, SESSION_TASK, schema
from taumesh.domains.tau2_banking_knowledge.tools import AGENT_TOOLS, ENUMS, USER_TOOLS
from taumesh.models import EVALUATED_TERMINATIONS, ChatMessage, GoldAction

SOURCE_NAME = "banking_knowledge"
SPLITS = ("base",)
"""Upstream ignores the split name: every split is the 97 tasks of ``tasks/``."""
BANKING_REWARD: tuple[RewardComponent, ...] = (DatabaseCheck(), ActionCheck(), CommunicateCheck(), NlAssertionCheck())
"""τ²'s components that apply here (no task has env assertions), in τ²'s order."""


class BankingHasher:
    """τ²'s hash of the database's 23 tables (the session's own tables left out)."""

    def __init__(self, base: Mapping[str, Any]) -> None:
        self.tables = tuple(TransactionalDB.model_fields)

    def hash(self, data: Mapping[str, Any]) -> str:
        return db_hash({name: {"data": data[name]["data"], "notes": data[name]["notes"]} for name in self.tables})


@cache
def _documents(root: Path) -> tuple[KnowledgeDocument, ...]:
    return load_documents(root)


@dataclass(frozen=True)
class BankingLayout:
    """The domain folder as upstream lays it out: ``db.json``, ``tasks/``, ``documents/``, ``prompts/``."""

    config: RetrievalConfig

    def base_data(self, root: Path) -> dict[str, Any]:
        data: dict[str, Any] = load_db(root)
        for table in SESSION_TABLES:
            data[table] = {}
        return data

    def policy(self, root: Path) -> str:
        return compose_policy(self.config, root, _documents(root))

    def tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return [*_schemas(retrieval_tools(self.config), "retrieval"), *_schemas(AGENT_TOOLS, "agent")]

    def user_tool_schemas(self, root: Path) -> list[dict[str, Any]]:
        return _schemas(USER_TOOLS, "user")

    def has_split(self, root: Path, split: str) -> bool:
        return split in SPLITS and (root / "tasks").is_dir()

    def tasks(self, root: Path, split: str) -> Sequence[BankingTask]:
        return load_tasks(root)

    def task_count(self, root: Path, split: str) -> int:
        return len(list((root / "tasks").glob("task_*.json")))


def _schemas(tools: Sequence[type[Tool]], side: str) -> list[dict[str, Any]]:
    texts = banking_texts()
    described = {"agent": texts.agent_tools, "user": texts.user_tools, "retrieval": texts.retrieval_tools}[side]
    docs = {doc.name: doc for doc in described}
    missing = [tool.name for tool in tools if tool.name not in docs]
    if missing:
        raise DataError(f"the imported banking_knowledge texts describe no {', '.join(missing)}")
    enums = {name: {parameter: texts.transfer_reasons} for name, parameter in ENUMS.items()}
    return [schema(tool, docs[tool.name], enums.get(tool.name)) for tool in tools]


def _task(task: Task) -> BankingTask:
    if not isinstance(task, BankingTask):
        raise TypeError(f"tau2-banking-knowledge needs a banking_knowledge task, got {type(task).__name__}")
    return task


@dataclass(frozen=True)
class BankingPlugin(Tau2Plugin):
    """τ³'s ``banking_knowledge`` under one retrieval configuration: a τ² domain with its own data and session.

    From τ²'s plugin it keeps the user's side (τ²'s user guidelines, the greeting, ``###TRANSFER###``), the
    reward's basis and the transfer's closing message; the database, sessions, replay and tools are its own.
    """

    database: type[Any] = TransactionalDB
    splits: Sequence[str] = SPLITS
    task_model: type[Task] = BankingTask
    source_name: str = SOURCE_NAME
    hasher: Any = field(default=BankingHasher)

    def data_dir(self, default_data_dir: Path) -> Path:
        """``<default_data_dir>/banking_knowledge`` when it holds tasks, else the imported upstream data."""
        folder = Path(default_data_dir) / SOURCE_NAME
        if (folder / "tasks").is_dir():
            return folder
        return tau2_upstream_dir() / "data" / "domains" / SOURCE_NAME

    def data_release(self, root: Path) -> str | None:
        """The release ``taumesh data import tau2`` recognised (``v1.0.1``, ``unknown``) for the imported data.

        None for a folder of ``--data-dir``.
        """
        imported = tau2_upstream_dir() / "data" / "domains" / SOURCE_NAME
        return imported_release() if root.resolve() == imported.resolve() else None

    def missing_data(self, default_data_dir: Path) -> str:
        """τ³'s data is in no released wheel: it is imported from a checkout of upstream."""
        return (
            f"{self.name!r} is τ³'s, in no released wheel: run `taumesh data import tau2 PATH` (PATH: a checkout of "
            "sierra-research/tau2-bench; `taumesh data fetch tau2` does not bring it)"
        )

    def documents(self, root: Path) -> Sequence[Document]:
        """The knowledge base the retrieval tools search: ``documents/*.json`` in sorted file-name order."""
        return tuple(Document(id=doc.id, title=doc.title, text=doc.content) for doc in _documents(root))

    def run_problem(self) -> str | None:
        """What the configuration needs that this environment lacks (bubblewrap, a reranker, an embedding model)."""
        config = self.layout.config if isinstance(self.layout, BankingLayout) else None
        if config is None:
            return None
        try:
            check_runnable(config, embedding_model=embedding_model_name(), reranker_model=reranker_model_name())
        except DataError as exc:
            return str(exc)
        return None

    def variants(self) -> Mapping[str, Callable[[], DomainPlugin]]:
        """Every retrieval configuration as ``<name>:<config>`` (aliases too); whether it runs is asked on load."""
        if VARIANT_SEPARATOR in self.name:
            return {}
        names = [*CONFIGS, *ALIASES]
        return {config: partial(banking_plugin, f"{self.name}{VARIANT_SEPARATOR}{config}", config) for config in names}

    def task_policy(self, root: Path, task: Task) -> str | None:
        """``golden_retrieval``'s policy: the template with the documents ``task`` requires; None for the others."""
        config = self.layout.config if isinstance(self.layout, BankingLayout) else None
        if config is None or config.builder != "golden":
            return None
        return compose_policy(config, root, _documents(root), _task(task).required_documents or ())

    def open_session(self, domain: DomainView, task: Task) -> Session:
        """The pristine database with the task's ``agent_data`` merged in, its read-log allowlist and its shell."""
        banking = _task(task)
        session = Session(domain)
        state = banking.initial_state
        agent_data = state.initialization_data.agent_data if state and state.initialization_data else None
        with session.switch.writing():
            if agent_data:
                for table, update in agent_data.items():
                    if table not in TransactionalDB.model_fields or not isinstance(update, Mapping):
                        continue  # pydantic drops what is not a table of the model (tasks 058/059's users)
                    for key, value in update.items():
                        current = session.data[table].get(key)
                        if isinstance(current, dict) and isinstance(value, Mapping):
                            deep_merge(current, value)
                        else:
                            session.data[table][key] = json.loads(json.dumps(value))
            allowlist = {name: True for name in sorted(banking.read_log_allowlist())}
            session.data[SESSION_TASK]["read_log_allowlist"] = allowlist
        if isinstance(self.layout, BankingLayout) and self.layout.config.shell_access == "write":
            open_shell(session)
        return session

    def call_tool(
        self, session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant"
    ) -> StepResult:
        return session.call(name, arguments, requestor)

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """The evaluator's gold state: the initial state, then every gold action, errors ignored."""
        session = self.open_session(domain, task)
        for action in _task(task).gold_actions:
            session.call(action.name, action.arguments, action.requestor)
        return session.data_hash()

    def reward_components(self, task: Task) -> Sequence[RewardComponent]:
        return BANKING_REWARD

    def replay(self, domain: DomainView, task: Task, conversation: Sequence[ChatMessage]) -> Session:
        """τ²'s predicted env: the initial state, then every tool call of the episode (each id once)."""
        session = self.open_session(domain, task)
        seen: set[str] = set()
        for message in conversation:
            if message.role not in ("assistant", "user"):
                continue
            for call in message.tool_calls:
                if not call.id or call.id in seen or _searches(domain, call.name):
                    continue
                seen.add(call.id)
                arguments = parse_arguments(call.arguments)
                if isinstance(arguments, dict):
                    session.call(call.name, arguments, call.requestor)
        return session

    def score(self, episode: Episode) -> EpisodeScore:
        """τ²'s ``evaluate_simulation`` on the replayed episode, as checks."""
        banking = _task(episode.task)
        basis = self.reward_basis(banking)
        score = EpisodeScore(
            reward=0.0,
            reward_basis=basis,
            gold_actions=[
                GoldAction(name=action.name, kwargs=action.arguments, requestor=action.requestor)
                for action in banking.gold_actions
            ],
            required_outputs=list(banking.outputs),
        )
        if episode.termination not in EVALUATED_TERMINATIONS:
            return score
        session = self.replay(episode.domain, banking, episode.conversation)
        reached = session.data_hash()
        if episode.final_hash and reached != episode.final_hash:
            raise EpisodeMismatch(
                f"replaying the episode's tool calls on {episode.domain.name} task {banking.id!r} does not reach the "
                "final state the env reported"
            )
        replayed = replace(episode, task=banking, final_hash=reached, session=session)
        composed = compose(self.reward_components(banking), replayed, basis)
        return score.model_copy(
            update={"reward": composed.reward, "checks": composed.checks, "nl_assertions": composed.to_judge}
        )


def _searches(domain: DomainView, name: str) -> bool:
    """Whether ``name`` is a retrieval tool, which a replay skips: it changes nothing (upstream replays writes only)."""
    tool = domain.tools_by_name.get(name)
    return tool is not None and tool.reads_documents


def banking_plugin(name: str, config: str | None = None) -> BankingPlugin:
    """The plugin ``name`` serving retrieval configuration ``config`` (None: upstream's default)."""
    chosen = retrieval_config(config)
    tools = (*retrieval_tools(chosen), *AGENT_TOOLS, *USER_TOOLS)
    return BankingPlugin(name=name, tools=tools, layout=BankingLayout(chosen))
