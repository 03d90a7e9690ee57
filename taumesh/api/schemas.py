"""The JSON the API reads and writes: one documented pydantic model per body (OpenAPI at /docs and /redoc)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from taumesh.orchestrator.config import RunScope
from taumesh.orchestrator.results.validity import RunValidity

RunStatus = Literal["queued", "running", "completed", "failed", "cancelled"]
MAX_TASK_INDEX = 1_000_000
"""Bound of a task index in a request; the split's own size is checked before anything runs."""
MAX_TASK_ID_LENGTH = 200
"""Bound of a task id (text) in a request; whether the split has it is checked before anything runs."""
ErrorType = Literal["authentication_error", "validation_error", "not_found", "rate_limit_error", "internal_error"]


class ErrorResponse(BaseModel):
    """Every error the API returns."""

    error_type: ErrorType = Field(description="What kind of error; clients branch on this, never on the message.")
    message: str = Field(description="A sentence for people.")
    details: dict[str, Any] = Field(default_factory=dict, description="Machine-readable specifics (fields, limits).")
    timestamp: datetime = Field(description="When the error happened (UTC).")
    retry_after: float | None = Field(default=None, description="rate_limit_error: seconds to wait before retrying.")


class ProviderStatus(BaseModel):
    """Whether a model provider has credentials in the server's environment (never the credential itself)."""

    provider: str
    configured: bool


class HealthResponse(BaseModel):
    """The server is up; what it can run."""

    status: Literal["healthy"] = "healthy"
    version: str
    timestamp: datetime
    supported_environments: list[str] = Field(description="Domains the registry knows.")
    supported_models: dict[str, list[str]] = Field(
        description="The REST fork's field: chat models litellm lists for each documented provider."
    )
    providers: list[ProviderStatus] = Field(description="Model providers and whether credentials are configured.")
    auth_required: bool = Field(
        default=True,
        description="False in local mode: a request without a key from a loopback client acts as `local_key_id`.",
    )
    local_key_id: str | None = Field(default=None, description="In local mode, the key of requests without one.")


class ServiceInfo(BaseModel):
    """``GET /``: the service, its version and its routes."""

    service: str
    version: str
    endpoints: dict[str, str]
    timestamp: datetime


def _task_id_kind(value: Any) -> str | None:
    """Which kind of task id a request gives: a number is an index, a text an id; None for anything else."""
    if isinstance(value, str):
        return "id"
    return "index" if isinstance(value, int | float) else None


RequestedTaskId = Annotated[
    Annotated[int, Field(ge=0, le=MAX_TASK_INDEX), Tag("index")]
    | Annotated[str, Field(min_length=1, max_length=MAX_TASK_ID_LENGTH), Tag("id")],
    Discriminator(
        _task_id_kind,
        custom_error_type="task_id",
        custom_error_message="a task id is a task's index (an integer) or its id (a text)",
    ),
]
"""A task a run request names: an integer is an index in the split (the REST fork's), a text is the split's task
id as ``taumesh run --task-ids`` reads it (τ²'s ``task_001``; a number no task is named is its index)."""

RUN = RunScope.model_fields
"""The run's own settings (default, help, bounds), which a request narrows where the API allows less."""


class ValidateTasksRequest(BaseModel):
    """A benchmark run: the REST fork's request, plus the simulated user and an optional external agent.

    The fields a ``taumesh run`` also has take their declaration from :class:`RunScope`, with the API's bounds.
    """

    model_config = ConfigDict(extra="forbid")

    model_provider: str = Field(default="openai", max_length=100, description="litellm provider of the agent model.")
    model: str = Field(default="gpt-4o", max_length=200, description="The agent's model (ignored by `oracle`).")
    env: str = Field(min_length=1, max_length=100, description="Domain, e.g. retail, airline (required).")
    num_trials: Annotated[int, RUN["num_trials"], Field(le=10)] = RUN["num_trials"].default
    agent_strategy: str = Field(default="tool-calling", max_length=50, description="tool-calling, act, react, oracle…")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0, description="Agent model temperature.")
    task_split: Annotated[str | None, RUN["task_split"], Field(max_length=50)] = RUN["task_split"].default
    start_index: Annotated[int, RUN["start_index"], Field(ge=0, le=MAX_TASK_INDEX)] = RUN["start_index"].default
    end_index: Annotated[int, RUN["end_index"], Field(ge=-1, le=MAX_TASK_INDEX + 1)] = RUN["end_index"].default
    task_ids: list[RequestedTaskId] | None = Field(
        default=None,
        max_length=1000,
        description=(
            "Tasks to run, each once (more trials: num_trials); win over the range. An integer is an index in the "
            "split; a text is the split's task id (τ²'s task_001), or, when no task has that id, the index it spells. "
            "An id the split lacks is refused (422) before anything runs."
        ),
        json_schema_extra={"uniqueItems": True},
    )
    max_concurrency: Annotated[int, RUN["max_concurrency"], Field(le=64)] = RUN["max_concurrency"].default
    seed: int | None = Field(
        default=None,
        ge=-(2**63),
        le=2**63 - 1,
        description="Seeds the task order and the models; null: the domain's own (τ-bench's 10, τ²'s 300).",
    )
    shuffle: Annotated[bool, RUN["shuffle"]] = RUN["shuffle"].default
    tasks: Annotated[Literal["all", "certified"], RUN["tasks"]] = RUN["tasks"].default
    grader: Annotated[Literal["faithful", "strict"], RUN["grader"]] = RUN["grader"].default
    user_strategy: str = Field(default="llm", max_length=50, description="llm, react, verify, reflection, scripted.")
    user_model: str = Field(default="gpt-4o", max_length=200, description="The simulated user's model.")
    user_model_provider: str = Field(default="openai", max_length=100, description="litellm provider of the user.")
    api_base: str = Field(default="", max_length=500, description="Agent model endpoint; must be operator-allowed.")
    user_api_base: str = Field(default="", max_length=500, description="User model endpoint; operator-allowed.")
    agent_address: str | None = Field(
        default=None,
        min_length=1,
        max_length=300,
        description="host:port of an external AgentService; must be operator-allowed (null: the built-in agents).",
    )
    wait: bool = Field(default=True, description="true: answer when the run ends; false: 202 with the run id.")

    @field_validator("end_index")
    @classmethod
    def _end_after_start(cls, end: int, info: ValidationInfo) -> int:
        """The REST fork's rule: a range ends after it starts (or runs to the split's end, -1)."""
        start = info.data.get("start_index")
        if end != -1 and isinstance(start, int) and end <= start:
            raise ValueError(f"end_index {end} must be greater than start_index {start}, or -1")
        return end

    @model_validator(mode="after")
    def _known_strategies(self) -> ValidateTasksRequest:
        """Built-in strategies must exist (an external agent's ``agent_strategy`` is its own business)."""
        from taumesh.services.agent.strategies import STRATEGIES as AGENT_STRATEGIES
        from taumesh.services.user_sim.strategies import STRATEGIES as USER_STRATEGIES

        if self.agent_address is None and self.agent_strategy not in AGENT_STRATEGIES:
            raise ValueError(f"agent_strategy {self.agent_strategy!r} is unknown; known: {sorted(AGENT_STRATEGIES)}")
        users = sorted(set(USER_STRATEGIES) - {"human"})  # a person at a terminal cannot play over HTTP
        if self.user_strategy not in users:
            raise ValueError(f"user_strategy {self.user_strategy!r} is not available here; known: {users}")
        return self


TaskId = int | str
"""A task's id in the REST fork's routes: τ-bench v1's integer index, a τ² domain's own id."""


class TaskResult(BaseModel):
    """One episode's outcome."""

    task_id: TaskId = Field(description="τ-bench v1: the task's integer index; τ²: the task's id.")
    trial: int
    reward: float | None = Field(description="null when the infrastructure could not finish the episode.")
    success: bool = Field(description="reward is 1.0.")
    info: dict[str, Any] = Field(description="τ-bench's info (reward_info, termination, usage, …).")


class ScoreInterval(BaseModel):
    """A figure with its confidence interval, and how the interval was made (docs/statistics.md)."""

    estimate: float
    low: float
    high: float
    level: float = Field(description="Confidence level, e.g. 0.95.")
    method: str = Field(description="E.g. `bootstrap BCa over 115 tasks, trials nested (9999 resamples)`.")


class CostBreakdown(BaseModel):
    """What a run spent in USD: each model apart and in total, interrupted attempts included (paid for)."""

    agent_usd: float = Field(description="The agent's model, every attempt.")
    user_usd: float = Field(description="The user simulator's model, every attempt.")
    judge_usd: float = Field(description="The scorer's judge model (NL assertions).")
    total_usd: float = Field(description="agent_usd + user_usd + judge_usd.")
    interrupted_usd: float = Field(description="Of the total, what attempts the infrastructure cut short spent.")
    scored_episodes: int
    solved_episodes: int = Field(description="Scored episodes with reward 1.0.")
    per_task_usd: float | None = Field(description="total_usd / scored_episodes: one attempt at a task.")
    per_solved_task_usd: float | None = Field(description="total_usd / solved_episodes; null when none succeeded.")


class Metrics(BaseModel):
    """Aggregates over a run's scored episodes."""

    total_tasks: int = Field(description="Distinct tasks with a result (the REST fork's count; trials apart).")
    successful_tasks: int = Field(description="Tasks whose every trial scored 1.0.")
    failed_tasks: int = Field(description="Tasks with a trial scored below 1.0 or not scored.")
    success_rate: float = Field(description="successful_tasks / total_tasks (0 without tasks).")
    total_episodes: int | None = Field(default=None, description="Episodes with a result (errors included).")
    successful_episodes: int | None = Field(default=None, description="Episodes scored 1.0.")
    average_reward: float | None
    pass_hat_k: dict[str, float] = Field(description="pass^k by k (as strings).")
    cost_usd: float = Field(description="Agent and user model spend.")
    pass_hat_k_intervals: dict[str, ScoreInterval] | None = Field(
        default=None, description="pass^k by k (as strings) with its confidence interval; null when nothing scored."
    )
    average_reward_interval: ScoreInterval | None = Field(
        default=None, description="average_reward with its confidence interval; null when nothing scored."
    )
    flipping_tasks: list[str] | None = Field(
        default=None, description="Tasks some of whose trials scored 1.0 and some did not."
    )
    cost: CostBreakdown | None = Field(
        default=None, description="Full cost: agent, user simulator and judge apart, per task and per solved task."
    )
    validity: RunValidity | None = Field(
        default=None,
        description=(
            "Beside the score (docs/validity.md): by the stored audit of the run's domain, split and data release, the "
            "score over certified tasks, the null floor of the tasks run, how many are flagged and the evidence "
            "bounds (flagged tasks counted as failed, as passed); without a stored audit, `missing` says how to make "
            "one. With the grader and task set the run used."
        ),
    )


class ValidateTasksResponse(BaseModel):
    """A finished run (the REST fork's response)."""

    request_id: str
    run_id: str
    status: RunStatus
    results: list[TaskResult]
    metrics: Metrics | None
    execution_time_seconds: float
    timestamp: datetime
    config_used: dict[str, Any]
    error: str | None = Field(default=None, description="Why a failed run failed.")
    viewer_url: str | None = Field(
        default=None, description="The run's page in `taumesh view`, when the server is configured with a viewer."
    )


class RunAccepted(BaseModel):
    """An asynchronous run was queued: follow it at ``links``."""

    request_id: str
    run_id: str
    status: RunStatus
    links: dict[str, str] = Field(description="self, events, results, trajectories.")


class RunChecked(BaseModel):
    """A run request the server would accept (``POST /api/v1/validate-tasks/check``): nothing was stored or played."""

    request_id: str
    valid: bool = Field(default=True, description="Always true: a request that is not valid is answered 404 or 422.")


class Run(BaseModel):
    """A run's state."""

    id: str
    status: RunStatus
    env: str
    model: str = Field(description="Agent model name, or its strategy when it has none.")
    total_episodes: int | None = Field(description="Known once the run has listed its tasks.")
    done_episodes: int
    metrics: Metrics | None
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    config_used: dict[str, Any]
    viewer_url: str | None = Field(
        default=None, description="The run's page in `taumesh view`, when the server is configured with a viewer."
    )


class RunList(BaseModel):
    """A page of runs, newest first."""

    runs: list[Run]
    total: int
    limit: int
    offset: int


class Trajectory(BaseModel):
    """An episode's conversation in OpenAI chat-message form."""

    task_id: str
    trial: int
    reward: float | None
    messages: list[dict[str, Any]]


class ListTasksRequest(BaseModel):
    """Which split's tasks, and which page."""

    model_config = ConfigDict(extra="forbid")

    env: str = Field(min_length=1, max_length=100, description="Domain (required).")
    task_split: str | None = Field(default=None, max_length=50, description="null: the domain's first split.")
    page: int = Field(default=1, ge=1, le=1_000_000, description="1-based page number.")
    page_size: int = Field(default=50, ge=1, le=500)


class TaskInfo(BaseModel):
    """One task of a split."""

    task_id: TaskId = Field(description="The task's id (τ-bench v1: its integer index in the split).")
    user_id: str
    instruction_preview: str = Field(description="The user instruction's first 200 characters.")
    num_actions: int = Field(description="Gold actions (the REST fork's name).")
    action_count: int = Field(description="Gold actions (the same number, taumesh's earlier name).")


class ListTasksResponse(BaseModel):
    """A page of tasks."""

    env: str
    task_split: str
    tasks: list[TaskInfo]
    total_tasks: int = Field(description="Tasks in the split (the REST fork's name).")
    total: int = Field(description="The same number (taumesh's earlier name).")
    page: int
    page_size: int
    next_page: int | None = Field(description="The following page, null on the last.")


MAX_EVENT_ID = 2**63 - 1
"""Largest ``Last-Event-ID`` (a signed 64-bit integer, what the databases store)."""


class EpisodeDone(BaseModel):
    """``data`` of an ``episode_done`` event: an episode was stored."""

    task_id: str
    trial: int
    reward: float | None
    done: int = Field(description="Episodes stored so far.")
    total: int = Field(description="Episodes of the run.")
    pass_rate: float | None = Field(description="Episodes scored 1.0 among those scored so far (null before any).")
    cost_usd: float = Field(description="Model spend so far.")


class RunEnded(BaseModel):
    """``data`` of the last event, ``run_completed``, ``run_failed`` or ``run_cancelled``."""

    status: RunStatus
    metrics: Metrics | None = Field(description="A completed run's metrics.")
    error: str | None = Field(description="Why a failed run failed.")


class RunEvent(BaseModel):
    """One Server-Sent Event of ``GET /api/v1/runs/{id}/events``: its ``id:``, ``event:`` and JSON ``data:`` lines."""

    id: int = Field(ge=1, le=MAX_EVENT_ID, description="Send it back as `Last-Event-ID` to resume after it.")
    event: Literal["episode_done", "run_completed", "run_failed", "run_cancelled"]
    data: EpisodeDone | RunEnded


MAX_ROLLOUT_TRIALS = 256
"""Bound of a group's trials per task (GRPO groups are 4-64 rollouts)."""


class RolloutsRequest(BaseModel):
    """A group of rollouts: ``POST /v1/rollouts``'s body, and gRPC ``GroupRollouts``' request once read.

    It names what to play, never where the data lives, which endpoint a model is called at, or with which key: those
    are the server's. It is checked as a run request is (:meth:`as_run_request`): the same strategies, providers and
    model names are allowed.
    """

    model_config = ConfigDict(extra="forbid")

    env: str = Field(min_length=1, max_length=100, description="Domain, e.g. hospitality, retail (required).")
    task_split: str | None = Field(default=None, max_length=50, description="Split; null: the domain's first.")
    task_ids: list[Annotated[str, Field(min_length=1, max_length=MAX_TASK_ID_LENGTH)]] = Field(
        min_length=1,
        max_length=1000,
        description="Ids of the split's tasks (a text no task is named is the index it spells); at least one.",
        json_schema_extra={"uniqueItems": True},
    )
    trials: int = Field(default=1, ge=1, le=MAX_ROLLOUT_TRIALS, description="Rollouts of each task.")
    seed: int | None = Field(
        default=None,
        ge=-(2**63),
        le=2**63 - 1,
        description="The run's seed: each episode plays with SHA-256 of (seed, task, trial); null: the domain's.",
    )
    agent_strategy: str = Field(default="tool-calling", max_length=50, description="tool-calling, act, react, oracle…")
    user_strategy: str = Field(default="llm", max_length=50, description="llm, react, verify, reflection, scripted.")
    model: str = Field(default="gpt-4o", max_length=200, description="The agent's model (ignored by `oracle`).")
    model_provider: str = Field(default="openai", max_length=100, description="litellm provider of the agent model.")
    user_model: str = Field(default="gpt-4o", max_length=200, description="The simulated user's model.")
    user_model_provider: str = Field(default="openai", max_length=100, description="litellm provider of the user.")
    max_concurrency: int = Field(default=8, ge=1, le=64, description="Episodes in flight; at most the server's cap.")

    @field_validator("task_ids")
    @classmethod
    def _distinct(cls, task_ids: list[str]) -> list[str]:
        """Each task once: more rollouts of a task are ``trials``."""
        if len(set(task_ids)) != len(task_ids):
            raise ValueError("task_ids repeats a task; ask for more trials instead")
        return task_ids

    @model_validator(mode="after")
    def _valid_as_a_run(self) -> RolloutsRequest:
        """The strategies a run request may name (the same check, not a copy of it)."""
        self.as_run_request()
        return self

    def as_run_request(self, api_base: str = "", user_api_base: str = "") -> ValidateTasksRequest:
        """The run request that plays one trial of these tasks with the same models and strategies.

        Its checks are the REST API's for every run (:func:`taumesh.api.runs.preflight`). ``api_base`` and
        ``user_api_base`` are the server's endpoints, never a request's. A ValueError names what is refused.
        """
        try:
            return ValidateTasksRequest(
                env=self.env,
                task_split=self.task_split,
                task_ids=list(self.task_ids),
                seed=self.seed,
                agent_strategy=self.agent_strategy,
                user_strategy=self.user_strategy,
                model=self.model,
                model_provider=self.model_provider,
                user_model=self.user_model,
                user_model_provider=self.user_model_provider,
                max_concurrency=self.max_concurrency,
                api_base=api_base,
                user_api_base=user_api_base,
            )
        except ValidationError as exc:
            raise ValueError("; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())) from exc
