"""Results records: an entry of τ-bench v1's results file, ``{task_id, reward, info, traj, trial}``.

Also what ``info`` records, and the fingerprint that makes two runs' entries comparable.

The file itself (naming, writing, reading) is :mod:`taumesh.orchestrator.results.names` and
:mod:`taumesh.orchestrator.results.results_file`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from taumesh.audit import AUDIT_VERSION
from taumesh.models import ChatMessage, Usage
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode.turn_loop import EpisodeOutcome
from taumesh.orchestrator.episode.usage import PROVIDER, provider_record

ErrorKind = Literal["infrastructure", "refused_request", "internal"]
"""Why an episode has no score: the services kept failing, a service refused a request, or taumesh itself broke
(an unexpected exception, contained in its episode)."""


class EpisodeError(BaseModel):
    """An episode the infrastructure could not finish: never scored, always reported, rerun by --retry-errors."""

    kind: ErrorKind = "infrastructure"
    cause: str
    attempts: int


USER_TOOL_TURNS = "user_tool_turns"
"""The ``info`` key of the user's own tool calls (τ²'s telecom); absent when the user called none."""


HISTORY_MESSAGES = "history_messages"
"""The ``info`` key of how many messages of the task's message history (τ²) the episode continued from: the first
messages of the timeline (:meth:`RunResult.timeline`) after the system prompt; absent when the task has none."""


ENV_SESSION_REBUILDS = "env_session_rebuilds"
"""The ``info`` key of how many times the episode's env session was lost with its replica and rebuilt on another by
replaying its tool calls; absent when none was lost."""
ATTEMPTS = "attempts"
"""The ``info`` key of how many attempts a scored episode took, when the infrastructure cut one short and the episode
was replayed whole (so more than 1); absent after a first attempt that ended (an error records its own in
``error.attempts``)."""


class UserToolTurn(BaseModel):
    """The user's own tool calls at one place of the conversation, with their results: what the agent never saw.

    ``traj`` stays what the agent saw (τ-bench's trajectory); these turns, kept in ``info.user_tool_turns``, put the
    rest of the timeline back (:meth:`RunResult.timeline`), as τ²'s layout records it.
    """

    at: int
    """How many messages of ``traj`` (its system prompt included) came before them."""
    messages: list[dict[str, Any]]
    """The user's messages calling its tools, each followed by its calls' results (``requestor: "user"``), in
    OpenAI chat form."""


_USER_TOOL_TURNS = TypeAdapter(list[UserToolTurn])


def user_tool_turns(scored: list[ChatMessage]) -> list[UserToolTurn]:
    """The user's own tool use in an episode's scored timeline, each placed by the ``traj`` messages before it.

    A message is part of it when it is the user's and calls tools, or is a tool result answering such a message (τ²'s
    rule: a message's results follow it). Every other message of the timeline is in ``traj``, after the system prompt.
    """
    turns: list[UserToolTurn] = []
    in_traj, users = 1, False
    for message in scored:
        if message.role != "tool":
            users = message.role == "user" and bool(message.tool_calls)
        if not users:
            in_traj += 1
            continue
        raw = message.openai() | ({"requestor": "user"} if message.role == "tool" else {})
        if turns and turns[-1].at == in_traj:
            turns[-1].messages.append(raw)
        else:
            turns.append(UserToolTurn(at=in_traj, messages=[raw]))
    return turns


class RunResult(BaseModel):
    """One entry of a τ-bench results file.

    ``reward`` is None for an infrastructure error (``info.error`` says why): such an episode is
    neither a success nor a failure of the agent, and nothing downstream may count it as 0.
    """

    task_id: int | str
    """τ-bench's integer task index for its domains; a domain's own string id otherwise."""
    reward: float | None
    info: dict[str, Any]
    traj: list[dict[str, Any]]
    trial: int

    @property
    def is_error(self) -> bool:
        return self.reward is None or "error" in self.info

    def usage(self) -> tuple[Usage, Usage]:
        """Agent and user usage of the episode: the scored attempt plus every attempt the infrastructure cut short."""
        agent, user = Usage(), Usage()
        if "agent_usage" in self.info:
            agent += Usage.model_validate(self.info["agent_usage"])
            user += Usage.model_validate(self.info["user_usage"])
        lost = self.info.get("interrupted_attempts_usage")
        if lost:
            agent += Usage.model_validate(lost["agent"])
            user += Usage.model_validate(lost["user"])
        return agent, user

    def user_tool_turns(self) -> list[UserToolTurn]:
        """The user's own tool calls and their results, where the episode recorded any (``info.user_tool_turns``)."""
        return _USER_TOOL_TURNS.validate_python(self.info.get(USER_TOOL_TURNS) or [])

    def timeline(self) -> list[dict[str, Any]]:
        """The whole conversation in time order: ``traj`` with the user's own tool calls and results in their places.

        Results written before the user's tool calls were recorded, and episodes where the user called none, give
        ``traj`` itself.
        """
        places: dict[int, list[dict[str, Any]]] = {}
        for turn in self.user_tool_turns():
            places.setdefault(turn.at, []).extend(turn.messages)
        if not places:
            return self.traj
        timeline: list[dict[str, Any]] = []
        for at, message in enumerate(self.traj):
            timeline += places.pop(at, [])
            timeline.append(message)
        for at in sorted(places):  # after the last message of traj
            timeline += places[at]
        return timeline

    @classmethod
    def from_outcome(cls, outcome: EpisodeOutcome, instruction: str, user_id: str) -> RunResult:
        reward_info = outcome.reward_info
        info: dict[str, Any] = {
            "task": {
                "user_id": user_id,
                "instruction": instruction,
                "actions": reward_info["actions"] if reward_info else [],
                "outputs": outcome.required_outputs,
            },
            "source": outcome.source,
            "user_cost": outcome.user_usage.cost_usd,
            "reward_info": reward_info,
            "reward_basis": list(outcome.reward_basis),
            "reward_checks": [check.model_dump() for check in outcome.checks],
            "termination": outcome.termination,
            "steps": outcome.steps,
            "tool_errors": outcome.tool_errors,
            "episode_id": outcome.episode_id,
            "final_data_hash": outcome.final_data_hash,
            "duration_s": round(outcome.duration_s, 4),
            "agent_usage": outcome.agent_usage.model_dump(),
            "user_usage": outcome.user_usage.model_dump(),
        }
        if outcome.gave_up:
            info["agent_gave_up"] = outcome.gave_up
        if outcome.judge_usage.calls:
            info["judge_usage"] = outcome.judge_usage.model_dump()
        if outcome.user_checks.checks:  # the strict user: its checks' spend apart from the user's, and how they went
            info["user_check_usage"] = outcome.user_check_usage.model_dump()
            info["user_checks"] = outcome.user_checks.model_dump()
        roles = {
            "agent": outcome.agent_usage,
            "user": outcome.user_usage,
            "user_check": outcome.user_check_usage,
            "judge": outcome.judge_usage,
        }
        if provider := provider_record(roles):  # only where a model was called: other results stay as they were
            info[PROVIDER] = provider
        if turns := user_tool_turns(outcome.scored):
            info[USER_TOOL_TURNS] = [turn.model_dump() for turn in turns]
        if outcome.history_messages:
            info[HISTORY_MESSAGES] = outcome.history_messages
        if outcome.env_session_rebuilds:  # a lost replica's session, rebuilt elsewhere: on record, else absent
            info[ENV_SESSION_REBUILDS] = outcome.env_session_rebuilds
        return cls(
            task_id=results_task_id(outcome.task.task_id),
            reward=outcome.reward,
            info=info,
            traj=[message.openai() for message in outcome.traj],
            trial=outcome.trial,
        )

    @classmethod
    def from_error(cls, task_id: int | str, trial: int, error: EpisodeError) -> RunResult:
        return cls(task_id=task_id, reward=None, info={"error": error.model_dump()}, traj=[], trial=trial)


def results_task_id(task_id: str) -> int | str:
    """A task's id as results files write it: τ-bench's integer index when the id is one, else the id itself."""
    return int(task_id) if task_id.isdecimal() else task_id


EpisodeKey = tuple[int | str, int]
"""(task id, trial): one episode of a run."""


class AgentIdentity(BaseModel):
    """An external agent (``--agent-addr``) as it describes itself (``AgentService.Describe``)."""

    address: str
    name: str = ""
    """Empty when the agent does not implement Describe."""
    version: str = ""
    description: str = ""


DATA_RELEASE = "data_release"
"""The fingerprint's key for the release of the domain's data (absent when the env records none)."""


def run_fingerprint(config: RunConfig, agent: AgentIdentity | None, data_release: str = "") -> dict[str, Any]:
    """What makes two runs' results comparable, recorded in every entry (``info.run``) and checked by --resume.

    ``data_release`` is the release of the domain's data the env serves (``DomainInfo.data_release``), if any.
    """
    model, user_model = config.agent.model, config.user.model
    release = {DATA_RELEASE: data_release} if data_release else {}
    # only when not the default, so that files written before these settings existed are still continued
    certified = {"tasks": "certified", "audit_version": AUDIT_VERSION} if config.tasks == "certified" else {}
    grader = {"grader": config.grader} if config.grader != "faithful" else {}
    return {
        **release,
        **certified,
        **grader,
        "env": config.env,
        "task_split": config.task_split,
        "max_steps": config.max_steps,
        "agent": {
            "strategy": config.agent.strategy,
            "model": model.model,
            "provider": model.provider,
            "temperature": model.temperature,
            "few_shot_displays_path": config.agent.few_shot_displays_path,
            "address": agent.address if agent else "",
            "name": agent.name if agent else "",
            "version": agent.version if agent else "",
        },
        "user": {
            "strategy": config.user.strategy,
            "model": user_model.model,
            "provider": user_model.provider,
            "temperature": user_model.temperature,
        },
    }


def validity_record(config: RunConfig, excluded: Iterable[str] = ()) -> dict[str, Any]:
    """What each result records of how far to trust its score (``info.validity``).

    The audit version the run knew (whose stored audit it reads), its task set (all, or certified), its grader, and
    under the strict grader the selected tasks it left out (``excluded``: their gold errors).
    """
    record: dict[str, Any] = {"audit_version": AUDIT_VERSION, "tasks": config.tasks, "grader": config.grader}
    if config.grader == "strict":
        record["excluded"] = sorted(excluded, key=lambda task_id: (len(task_id), task_id))
    return record


def fingerprint_differences(recorded: dict[str, Any], current: dict[str, Any], prefix: str = "") -> list[str]:
    """Each setting whose value differs between two fingerprints, as ``name: 'file value' in the file, 'now' now``."""
    differences = []
    for key in sorted(set(recorded) | set(current)):
        before, now = recorded.get(key), current.get(key)
        if isinstance(before, dict) and isinstance(now, dict):
            differences += fingerprint_differences(before, now, f"{prefix}{key}.")
        elif before != now:
            differences.append(f"{prefix}{key}: {before!r} in the file, {now!r} now")
    return differences
