"""The API's JSON as pydantic models: what the client sends (:class:`RunOptions`) and what it gets back.

Written by hand to mirror ``taumesh.api.schemas`` rather than imported from it: the client is a library that must run
without the server's dependencies, and a dozen small models read better than generated code. Drift is caught by
``tests/client/test_models_match_openapi.py``, which compares these fields with the live server's ``/openapi.json``.
Unknown fields in an answer are ignored, so a newer server does not break an older client.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypedDict

from pydantic import BaseModel, Field

RunStatus = Literal["queued", "running", "completed", "failed", "cancelled"]
TERMINAL_STATUSES: frozenset[str] = frozenset({"completed", "failed", "cancelled"})


class RunScope(TypedDict, total=False):
    """Fields of ``POST /api/v1/validate-tasks`` besides the agent's model, the domain and the trials."""

    temperature: float
    task_split: str | None
    start_index: int
    end_index: int
    task_ids: list[int | str] | None
    """An integer: an index in the split; a text: the split's task id (τ²'s ``task_001``)."""
    max_concurrency: int
    seed: int
    shuffle: bool
    user_strategy: str
    user_model: str
    user_model_provider: str
    api_base: str
    user_api_base: str
    agent_address: str | None
    tasks: Literal["all", "certified"]
    """``certified``: only the tasks the stored audit leaves unflagged (docs/validity.md)."""
    grader: Literal["faithful", "strict"]
    """``strict``: the corrected grader, opt-in; ``faithful`` (the default) is the benchmark's own."""


class QuickValidateOptions(RunScope, total=False):
    """What ``quick_validate`` takes beyond provider, model and domain."""

    num_trials: int
    agent_strategy: str


class RunOptions(QuickValidateOptions, total=False):
    """Every field of ``POST /api/v1/validate-tasks`` but ``wait`` (the server checks them: 422 when one is wrong)."""

    model_provider: str
    model: str
    env: str


class ProviderStatus(BaseModel):
    """Whether a model provider has credentials on the server (never the credential)."""

    provider: str
    configured: bool


class HealthResponse(BaseModel):
    """``GET /health``."""

    status: str
    version: str
    timestamp: datetime
    supported_environments: list[str]
    supported_models: dict[str, list[str]] = Field(default_factory=dict)
    providers: list[ProviderStatus]
    auth_required: bool = True
    """False in local mode (``serve api --local``): requests without a key act as ``local_key_id``."""
    local_key_id: str | None = None


class TaskResult(BaseModel):
    """One episode's outcome."""

    task_id: int | str = Field(description="τ-bench v1: the task's integer index; τ²: the task's id.")
    trial: int
    reward: float | None
    success: bool
    info: dict[str, Any]


class ScoreInterval(BaseModel):
    """A figure with its confidence interval, its level (0.95) and the method that made it."""

    estimate: float
    low: float
    high: float
    level: float
    method: str


class CostBreakdown(BaseModel):
    """A run's spend in USD: agent, user simulator and judge apart and in total, interrupted attempts included."""

    agent_usd: float
    user_usd: float
    judge_usd: float
    total_usd: float
    interrupted_usd: float = Field(description="Of the total, what attempts cut short by the infrastructure spent.")
    scored_episodes: int
    solved_episodes: int
    per_task_usd: float | None
    per_solved_task_usd: float | None = Field(description="None when no episode succeeded.")


class Metrics(BaseModel):
    """Aggregates over a run's episodes."""

    total_tasks: int = Field(description="Distinct tasks with a result.")
    successful_tasks: int = Field(description="Tasks whose every trial scored 1.0.")
    failed_tasks: int
    success_rate: float = Field(description="successful_tasks / total_tasks.")
    total_episodes: int | None = None
    successful_episodes: int | None = None
    average_reward: float | None
    pass_hat_k: dict[str, float] = Field(description="pass^k keyed by k as a string.")
    cost_usd: float
    pass_hat_k_intervals: dict[str, ScoreInterval] | None = None
    average_reward_interval: ScoreInterval | None = None
    flipping_tasks: list[str] | None = Field(default=None, description="Tasks whose verdict flips between trials.")
    cost: CostBreakdown | None = Field(default=None, description="Full cost (None from servers before it).")
    validity: dict[str, Any] | None = Field(
        default=None,
        description="Beside the score: the certified score, null floor, flagged tasks and evidence bounds by the "
        "stored audit, or the line saying none is stored (docs/validity.md); None from servers before it.",
    )


class ValidateTasksResponse(BaseModel):
    """A finished synchronous run (the REST fork's response)."""

    request_id: str
    run_id: str
    status: RunStatus
    results: list[TaskResult]
    metrics: Metrics | None
    execution_time_seconds: float
    timestamp: datetime
    config_used: dict[str, Any]
    error: str | None = None
    viewer_url: str | None = Field(default=None, description="The run's page in ``taumesh view``, when configured.")


class RunChecked(BaseModel):
    """A run request the server would accept (``runs.check``): nothing was stored or played."""

    request_id: str
    valid: bool = True


class RunAccepted(BaseModel):
    """A queued run (``wait: false``) and where to follow it."""

    request_id: str
    run_id: str
    status: RunStatus
    links: dict[str, str]


class Run(BaseModel):
    """A run's state."""

    id: str
    status: RunStatus
    env: str
    model: str
    total_episodes: int | None
    done_episodes: int
    metrics: Metrics | None
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    config_used: dict[str, Any]
    viewer_url: str | None = Field(default=None, description="The run's page in ``taumesh view``, when configured.")

    @property
    def finished(self) -> bool:
        """Whether the run has ended (completed, failed or cancelled)."""
        return self.status in TERMINAL_STATUSES


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


class TaskInfo(BaseModel):
    """One task of a split."""

    task_id: int | str
    user_id: str
    instruction_preview: str
    num_actions: int
    action_count: int


class ListTasksResponse(BaseModel):
    """A page of a split's tasks."""

    env: str
    task_split: str
    tasks: list[TaskInfo]
    total_tasks: int
    total: int
    page: int
    page_size: int
    next_page: int | None


class ErrorBody(BaseModel):
    """The body of every error answer."""

    error_type: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)
    timestamp: datetime | None = None
    retry_after: float | None = None


class RolloutCheck(BaseModel):
    """One named check of an episode's reward (``taumesh.rollout.RolloutCheck``)."""

    basis: str
    subject: str
    passed: bool
    expected: str = ""
    actual: str = ""
    credit: float


class RolloutError(BaseModel):
    """Why the infrastructure failed an episode after its retries."""

    kind: str
    cause: str
    attempts: int


class ModelCallTrace(BaseModel):
    """One agent model call through the model gateway, token by token (``taumesh.gateway.records.ModelCallTrace``)."""

    rollout_id: str
    index: int
    model: str
    request: dict[str, Any]
    response: dict[str, Any]
    prompt_token_ids: list[int] = Field(default_factory=list)
    completion_token_ids: list[int] = Field(default_factory=list)
    completion_logprobs: list[float] = Field(default_factory=list)
    loss_mask: list[int] = Field(default_factory=list)
    weight_version: str = ""
    latency_s: float = 0.0


class RolloutEpisode(BaseModel):
    """One ended rollout, a line of ``POST /api/v1/rollouts`` (``taumesh.rollout.RolloutEpisode``).

    ``reward`` is None when ``error`` is set: leave the episode out of its group, never count it as a 0.
    """

    task_id: str
    trial: int
    seed: int
    trajectory: list[dict[str, Any]]
    reward: float | None
    reward_basis: list[str]
    reward_vector: list[RolloutCheck]
    error: RolloutError | None = None
    info: dict[str, Any]
    rollout_id: str = ""
    traces: list[ModelCallTrace] = Field(default_factory=list)
    """The agent's model calls through the gateway (empty without one)."""


class RolloutOptions(TypedDict, total=False):
    """Fields of ``POST /api/v1/rollouts`` besides the domain, the tasks and the trials."""

    task_split: str | None
    seed: int | None
    agent_strategy: str
    user_strategy: str
    model: str
    model_provider: str
    user_model: str
    user_model_provider: str
    max_concurrency: int
