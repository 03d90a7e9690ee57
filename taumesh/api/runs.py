"""From a request to a stored run, and from stored rows to the API's answers."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

from taumesh.api.errors import invalid
from taumesh.api.executor import RunExecutor
from taumesh.api.schemas import Metrics, Run, RunStatus, TaskResult, ValidateTasksRequest
from taumesh.api.settings import ApiSettings
from taumesh.api.store import Store, as_utc
from taumesh.api.tables import ResultRow, RunRow
from taumesh.api.viewer_link import viewer_url
from taumesh.llm.access import normalize_api_base
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig

OFFLINE_AGENTS = frozenset({"oracle"})
"""Agent strategies that call no model: a run is known by the strategy's name."""
SUCCESS = 1 - 1e-6


def check_allowed(body: ValidateTasksRequest, settings: ApiSettings) -> None:
    """A request may only name the agents and model endpoints the operator allowed (422 otherwise)."""
    if body.agent_address is not None and body.agent_address not in settings.allowed_agent_addresses:
        raise invalid("agent_address is not one this server's operator allowed", "agent_address")
    allowed = {normalize_api_base(b) for b in settings.allowed_api_bases}
    for field in ("api_base", "user_api_base"):
        value: str = getattr(body, field)
        if value.strip() and normalize_api_base(value) not in allowed:
            raise invalid(f"{field} is not a model endpoint this server's operator allowed", field)
    if body.max_concurrency > settings.max_run_concurrency:
        raise invalid(f"max_concurrency is above this server's {settings.max_run_concurrency}", "max_concurrency")


def run_config(body: ValidateTasksRequest, settings: ApiSettings) -> RunConfig:
    """The orchestrator's configuration: the request's choices, the operator's data and service addresses."""
    addresses = settings.addresses
    if body.agent_address is not None:
        addresses = addresses.model_copy(update={"agent": body.agent_address})
    return RunConfig(
        env=body.env,
        task_split=body.task_split,
        task_ids=body.task_ids,
        start_index=body.start_index,
        end_index=body.end_index,
        num_trials=body.num_trials,
        agent=AgentSettings(
            strategy=body.agent_strategy,
            model=ModelSettings(
                model=body.model, provider=body.model_provider, temperature=body.temperature, api_base=body.api_base
            ),
        ),
        user=UserSettings(
            strategy=body.user_strategy,
            model=ModelSettings(model=body.user_model, provider=body.user_model_provider, api_base=body.user_api_base),
        ),
        max_concurrency=body.max_concurrency,
        seed=body.seed,
        shuffle=body.shuffle,
        data_dir=settings.data_dir,
        addresses=addresses,
        show_progress=False,
    )


def model_label(body: ValidateTasksRequest) -> str:
    """What ``/scores?model=`` matches: the agent's model, or its strategy for an offline agent."""
    return body.agent_strategy if body.agent_strategy in OFFLINE_AGENTS else body.model


def new_run(body: ValidateTasksRequest, settings: ApiSettings, key_id: str | None, owner: str | None = None) -> RunRow:
    """A queued run, or one already leased to ``owner`` (a synchronous request plays it in its own worker)."""
    check_allowed(body, settings)
    now = datetime.now(UTC)
    return RunRow(
        id=uuid.uuid4().hex,
        status="running" if owner else "queued",
        env=body.env,
        model=model_label(body),
        config=run_config(body, settings).model_dump(mode="json"),
        request=body.model_dump(mode="json", exclude={"wait"}),
        key_id=key_id,
        created_at=now,
        started_at=now if owner else None,
        lease_owner=owner,
        lease_expires_at=now + timedelta(seconds=settings.lease_seconds) if owner else None,
    )


async def play_now(store: Store, executor: RunExecutor, body: ValidateTasksRequest, key_id: str) -> RunRow:
    """Create a run leased to this worker, play it to the end (even if the caller goes away), return its row."""
    row = store.create_run(new_run(body, executor.settings, key_id, owner=executor.owner))
    task = executor.start(row.id)
    await asyncio.wait({asyncio.ensure_future(asyncio.shield(task))})
    ended = store.get_run(row.id)
    assert ended is not None
    return ended


def task_result(row: ResultRow) -> TaskResult:
    """A stored episode as the API shows it."""
    return TaskResult(
        task_id=row.task_id,
        trial=row.trial,
        reward=row.reward,
        success=row.reward is not None and row.reward >= SUCCESS,
        info=row.info,
    )


def metrics_of(row: RunRow) -> Metrics | None:
    """A finished run's metrics, None before."""
    return Metrics.model_validate(row.metrics) if row.metrics else None


def run_view(row: RunRow, done: int, settings: ApiSettings) -> Run:
    """A run row as the API shows it, with ``done`` stored episodes and its viewer page when there is one."""
    created = as_utc(row.created_at)
    assert created is not None
    status: RunStatus = row.status  # type: ignore[assignment]
    return Run(
        id=row.id,
        status=status,
        env=row.env,
        model=row.model,
        total_episodes=row.total_episodes,
        done_episodes=done,
        metrics=metrics_of(row),
        error=row.error,
        created_at=created,
        started_at=as_utc(row.started_at),
        finished_at=as_utc(row.finished_at),
        config_used=row.request,
        viewer_url=viewer_url(settings, row.id),
    )


def links(run_id: str) -> dict[str, str]:
    """Where to follow a run."""
    base = f"/api/v1/runs/{run_id}"
    return {
        "self": base,
        "events": f"{base}/events",
        "results": f"{base}/results",
        "trajectories": f"{base}/trajectories",
    }


def execution_seconds(row: RunRow) -> float:
    """Wall time from start to end of a run (0 while unfinished)."""
    started, finished = as_utc(row.started_at), as_utc(row.finished_at)
    if started is None or finished is None:
        return 0.0
    return round((finished - started).total_seconds(), 3)
