"""``AgentEnv`` (the caller is the agent) and ``UserEnv`` (the caller is the user), over the real services.

Each ``reset`` opens an episode of one task through the orchestrator's turn loop; each ``step`` answers the turn
the caller's seat was asked for, with a message or a tool call (:mod:`taumesh.orchestrator.gym.actions`), and
returns the seat's next view of the conversation (:mod:`taumesh.orchestrator.gym.observations`). The reward is 0.0
until the episode ends, then the scorer's. ``terminated`` when the episode ended by itself (the user stopped, a
terminate tool, the error limit); ``truncated`` when the step limit cut it (the scorer gives such an episode 0.0 and
no checks, as for ``taumesh run``).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, SupportsFloat

import gymnasium as gym

from taumesh.audit import NoStoredAudit
from taumesh.env.v1 import env_pb2
from taumesh.models import ChatMessage, Requestor, TaskRef, ToolSchema
from taumesh.orchestrator.episode.turn_loop import EpisodeOutcome
from taumesh.orchestrator.gym.actions import parse_action
from taumesh.orchestrator.gym.config import GymConfig
from taumesh.orchestrator.gym.driver import EpisodeDriver, SeatRole
from taumesh.orchestrator.gym.observations import action_space, observation_space, render_observation
from taumesh.orchestrator.gym.seats import Turn
from taumesh.orchestrator.run.preflight import run_problems

RESET_OPTIONS = frozenset({"domain", "task_split", "task_id"})
"""What ``reset(options=...)`` may set for one episode."""


class _TaumeshEnv(gym.Env[str, str]):
    """One seat of a taumesh episode played through Gymnasium's API."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's own attribute
    role: ClassVar[SeatRole]
    requestor: ClassVar[Requestor]

    def __init__(self, render_mode: str | None = None, **settings: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.config = GymConfig(**settings)
        self._checked: set[str] = set()  # the domains taumesh run's pre-flight has passed
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._driver: EpisodeDriver | None = None
        self._task: TaskRef | None = None
        self._turn: Turn | None = None
        self._outcome: EpisodeOutcome | None = None  # an episode that ended before the seat's first turn
        self._view: list[ChatMessage] = []
        self._steps = 0
        self._calls = 0
        self._left_out_of: dict[tuple[str, str], dict[str, str]] = {}

    @property
    def driver(self) -> EpisodeDriver:
        """The services, started on first use."""
        if self._driver is None:
            self._driver = EpisodeDriver(self.role, self.config.addresses, self.config.data_dir)
        return self._driver

    @property
    def task(self) -> TaskRef | None:
        """The task of the episode in play (or last played)."""
        return self._task

    def provider_stats(self) -> list[dict[str, Any]]:
        """Per limited provider (``provider_limits``): calls in flight, window, cap, 429s and answered calls."""
        return [stats.model_dump() for stats in self._driver.provider_stats()] if self._driver is not None else []

    def domains(self) -> dict[str, list[str]]:
        """Every domain the env service has data for, with its splits (the first is the default)."""
        return self.driver.call(self.driver.domains())

    def task_ids(self, domain: str | None = None, task_split: str | None = None) -> list[str]:
        """The ids of a split's tasks, in order (default: the configured domain and its split)."""
        domain, split = self._split(domain or self.config.domain, task_split or self.config.task_split)
        return [task.task_id for task in self.driver.call(self.driver.tasks(domain, split))]

    def _split(self, domain: str, split: str | None) -> tuple[str, str]:
        domains = self.driver.call(self.driver.domains(only=domain))
        if not domains.get(domain):
            raise ValueError(
                f"no data for domain {domain!r}; domains with data: {', '.join(sorted(domains)) or 'none'}"
            )
        if split is None:
            return domain, domains[domain][0]
        if split not in domains[domain]:
            raise ValueError(f"domain {domain!r} has no split {split!r}; its splits: {', '.join(domains[domain])}")
        return domain, split

    def _left_out(self, domain: str, split: str, tasks: list[env_pb2.TaskSummary]) -> dict[str, str]:
        """The split's tasks this environment does not play, each with why.

        With ``tasks="certified"`` those the stored audit flags; with ``grader="strict"`` those whose gold errors
        (asked of the scorer once per split).
        """
        key = (domain, split)
        if key not in self._left_out_of:
            left: dict[str, str] = {}
            if self.config.tasks == "certified":
                try:
                    certified = self.driver.call(self.driver.certified(domain, split, tasks))
                except NoStoredAudit as exc:
                    raise ValueError(str(exc)) from None
                left |= {
                    t.task_id: "is flagged by its audit: not certified" for t in tasks if t.task_id not in certified
                }
            if self.config.grader == "strict" and tasks:
                config = self.config.run_config(TaskRef(domain=domain, split=split, task_id=tasks[0].task_id))
                refused = self.driver.call(self.driver.ungradable(config, tasks))
                left |= {task_id: f"is not graded by the strict grader: {why}" for task_id, why in refused.items()}
            self._left_out_of[key] = left
        return self._left_out_of[key]

    def _choose(self, options: dict[str, Any]) -> TaskRef:
        unknown = set(options) - RESET_OPTIONS
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: {sorted(RESET_OPTIONS)}")
        domain, split = self._split(
            options.get("domain") or self.config.domain, options.get("task_split") or self.config.task_split
        )
        tasks = self.driver.call(self.driver.tasks(domain, split))
        left_out = self._left_out(domain, split, tasks)
        wanted = options.get("task_id", self.config.task_id)
        if wanted is not None and str(wanted) in left_out:
            raise ValueError(f"{domain} {split} task {wanted!r} {left_out[str(wanted)]}")
        ids = [task.task_id for task in tasks if task.task_id not in left_out]
        if not ids:
            raise ValueError(f"{domain} {split} has no tasks to play" + (" (all left out)" if left_out else ""))
        wanted = options.get("task_id", self.config.task_id)
        if wanted is None:
            return TaskRef(domain=domain, split=split, task_id=ids[int(self.np_random.integers(len(ids)))])
        if str(wanted) not in ids:
            raise ValueError(f"{domain} {split} has no task {wanted!r} (its {len(ids)} tasks: {ids[0]} … {ids[-1]})")
        return TaskRef(domain=domain, split=split, task_id=str(wanted))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode of ``options["task_id"]`` (else the configured task, else one drawn with ``seed``).

        ``options`` may also name ``domain`` and ``task_split``. An episode in play is given up (not scored).
        """
        super().reset(seed=seed)
        task = self._choose(dict(options or {}))
        self._task, self._turn, self._outcome, self._view, self._steps, self._calls = task, None, None, [], 0, 0
        config = self.config.run_config(task)
        if task.domain not in self._checked:  # taumesh run's own pre-flight, before the domain's first episode
            problems = run_problems(config, check_services=False)
            if problems:
                raise ValueError("; ".join(f"{problem.setting}: {problem.message}" for problem in problems))
            self._checked.add(task.domain)
        result = self.driver.call(self.driver.start(config, task))
        info = self._info()
        if isinstance(result, EpisodeOutcome):  # nothing for the seat to do: the next step reports the end
            self._outcome = result
            self._view = self._final_view(result)
        else:
            self._turn = result
            self._view = result.conversation
            info.update(self._brief(result))
        return render_observation(self._view), info

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Answer the seat's turn with ``action``: a message, or a tool call (JSON or ``tool(key=value)``)."""
        if self._outcome is not None:
            return self._end(self._outcome)
        if self._turn is None:
            raise RuntimeError("no episode in play: call reset() first (after the end of an episode too)")
        if not isinstance(action, str):
            raise TypeError(f"an action is text, not {type(action).__name__}")
        turn = self._turn
        self._calls += 1
        message = parse_action(action, [tool.name for tool in turn.tools], self.requestor, self._call_id())
        self._steps += 1
        self._turn = None
        result = self.driver.call(self.driver.answer(turn, message))
        if isinstance(result, EpisodeOutcome):
            self._view = [*turn.conversation, message] if self.role == "user" else self._final_view(result)
            return self._end(result)
        self._turn = result
        self._view = result.conversation
        return render_observation(self._view), 0.0, False, False, self._info()

    def _call_id(self) -> str:
        return f"gym_{self.role}_call_{self._calls}"

    def _end(self, outcome: EpisodeOutcome) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self._outcome = None
        truncated = outcome.termination == "max_steps"
        info = self._info()
        info.update(
            termination=outcome.termination,
            reward_info=outcome.reward_info,
            final_data_hash=outcome.final_data_hash,
            episode_steps=outcome.steps,
            checks=[check.model_dump() for check in outcome.checks],
        )
        return render_observation(self._view), float(outcome.reward), not truncated, truncated, info

    def _info(self) -> dict[str, Any]:
        assert self._task is not None
        return {"domain": self._task.domain, "task_split": self._task.split, "task_id": self._task.task_id,
                "step": self._steps}  # fmt: skip

    def _brief(self, turn: Turn) -> dict[str, Any]:
        raise NotImplementedError

    def _final_view(self, outcome: EpisodeOutcome) -> list[ChatMessage]:
        raise NotImplementedError

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the seat's view of the conversation as lines of text."""
        if self.render_mode != "ansi":
            return None
        return "\n".join(render_message(message) for message in self._view)

    def close(self) -> None:
        """Give up the episode in play (its env session is closed) and stop the services started for it."""
        driver, self._driver = self._driver, None
        if driver is not None:
            driver.close()
        self._turn = None


def render_message(message: ChatMessage) -> str:
    """One message as a line of text: ``role: content``, a tool call as ``name(arguments JSON)``."""
    calls = " ".join(f"{call.name}({call.arguments})" for call in message.tool_calls)
    return f"{message.role}: {' '.join(part for part in (message.content, calls) if part)}"


def tool_list(tools: list[ToolSchema]) -> list[dict[str, Any]]:
    """The tools in OpenAI's function form, new objects on every call."""
    return [json.loads(json.dumps(tool.openai())) for tool in tools]


class AgentEnv(_TaumeshEnv):
    """The caller is the agent: it sees the user's words and its tools' results, and speaks or calls tools.

    ``info`` of ``reset`` holds the domain's ``policy`` and the agent's ``tools`` (OpenAI function form); the user
    is simulated as ``user=`` says (default ``scripted``; ``{"strategy": "llm", "model": {...}}`` for a model).
    """

    role = "agent"
    requestor = "assistant"

    def _brief(self, turn: Turn) -> dict[str, Any]:
        return {"policy": turn.brief, "tools": tool_list(turn.tools)}

    def _final_view(self, outcome: EpisodeOutcome) -> list[ChatMessage]:
        return [message for message in outcome.traj if message.role != "system"]


class UserEnv(_TaumeshEnv):
    """The caller is the user: it sees the agent's words (and its own tools' results), and speaks.

    ``info`` of ``reset`` holds the task's ``instruction`` and the user's own ``tools`` (τ² telecom's phone; empty
    elsewhere). A message holding ``###STOP###`` ends the conversation. The agent is a built-in strategy as
    ``agent=`` says (default ``oracle``), or a running agent service (``addresses={"agent": "host:port"}``).
    """

    role = "user"
    requestor = "user"

    def _brief(self, turn: Turn) -> dict[str, Any]:
        return {"instruction": turn.brief, "tools": tool_list(turn.tools)}

    def _final_view(self, outcome: EpisodeOutcome) -> list[ChatMessage]:
        return [m for m in outcome.scored if m.role == "user" or (m.role == "assistant" and not m.tool_calls)]
