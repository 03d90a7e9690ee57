"""The Python client of the taumesh REST API (``taumesh serve api``), sync and async, on httpx.

It imports nothing of the server: install taumesh and point it at any taumesh API.

    from taumesh.client import TaumeshClient

    with TaumeshClient("http://127.0.0.1:8000", api_key="tmk_…") as client:
        run = client.runs.create(env="retail", agent_strategy="oracle", user_strategy="scripted", task_ids=[0, 1])
        for event in client.stream_events(run.run_id):
            print(event)
"""

from taumesh.client.async_client import AsyncRuns, AsyncTaumeshClient
from taumesh.client.comparison import (
    ComparisonRefused,
    ComparisonRow,
    ModelComparison,
    ModelSpec,
    quick_validate,
    validate_with_comparison,
)
from taumesh.client.errors import (
    ApiError,
    AuthenticationError,
    InternalServerError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    TaumeshError,
)
from taumesh.client.events import EpisodeDone, OtherEvent, RunEnded, RunEvent
from taumesh.client.models import (
    CostBreakdown,
    HealthResponse,
    ListTasksResponse,
    Metrics,
    ModelCallTrace,
    ProviderStatus,
    QuickValidateOptions,
    RolloutCheck,
    RolloutEpisode,
    RolloutError,
    RolloutOptions,
    Run,
    RunAccepted,
    RunChecked,
    RunList,
    RunOptions,
    RunScope,
    RunStatus,
    ScoreInterval,
    TaskInfo,
    TaskResult,
    Trajectory,
    ValidateTasksResponse,
)
from taumesh.client.sync_client import Runs, TaumeshClient

__all__ = [
    "ApiError",
    "AsyncRuns",
    "AsyncTaumeshClient",
    "AuthenticationError",
    "ComparisonRefused",
    "ComparisonRow",
    "CostBreakdown",
    "EpisodeDone",
    "HealthResponse",
    "InternalServerError",
    "InvalidRequestError",
    "ListTasksResponse",
    "Metrics",
    "ModelCallTrace",
    "ModelComparison",
    "ModelSpec",
    "NotFoundError",
    "OtherEvent",
    "ProviderStatus",
    "QuickValidateOptions",
    "RateLimitError",
    "RolloutCheck",
    "RolloutEpisode",
    "RolloutError",
    "RolloutOptions",
    "Run",
    "RunAccepted",
    "RunChecked",
    "RunEnded",
    "RunEvent",
    "RunList",
    "RunOptions",
    "RunScope",
    "RunStatus",
    "Runs",
    "ScoreInterval",
    "TaskInfo",
    "TaskResult",
    "TaumeshClient",
    "TaumeshError",
    "Trajectory",
    "ValidateTasksResponse",
    "quick_validate",
    "validate_with_comparison",
]
