"""From a request to a stored run, and from stored rows to the API's answers."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

from taumesh.api.errors import ApiError, invalid, not_found
from taumesh.api.executor import RunExecutor
from taumesh.api.model_names import known_model, known_provider
from taumesh.api.schemas import Metrics, Run, RunStatus, TaskResult, ValidateTasksRequest
from taumesh.api.settings import ApiSettings
from taumesh.api.store import Store, as_utc
from taumesh.api.tables import ResultRow, RunRow
from taumesh.api.viewer_link import viewer_url
from taumesh.llm.access import normalize_api_base
from taumesh.models import TaskIdStyle
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import ConfigError, DomainNotRunnable, served_domain, served_release
from taumesh.orchestrator.options import RunOptions
from taumesh.orchestrator.results.records import results_task_id
from taumesh.orchestrator.run.preflight import Problem, run_problems
from taumesh.orchestrator.run.runner import resolve_tasks, run_tasks, select_tasks
from taumesh.services.agent.strategies import calls_model as agent_calls_model
from taumesh.services.user_sim.strategies import calls_model as user_calls_model
from taumesh.stats import is_success


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


def check_models(body: ValidateTasksRequest) -> None:
    """Providers litellm knows, and model names their provider lists (422 ``validation_error`` otherwise).

    ``details`` names the value as the REST fork documents it (``details.provider``, ``details.model``) beside
    ``details.errors``. A model with its own ``api_base`` is not checked against a list; a model no strategy calls
    (the oracle agent's, a scripted user's) is not checked at all.
    """
    agent_used = body.agent_address is None and agent_calls_model(body.agent_strategy)
    user_used = user_calls_model(body.user_strategy)
    roles = (
        ("model_provider", "model", body.model_provider, body.model, body.api_base, agent_used),
        ("user_model_provider", "user_model", body.user_model_provider, body.user_model, body.user_api_base, user_used),
    )
    for provider_field, model_field, provider, model, api_base, used in roles:
        if not known_provider(provider):
            message = f"Invalid model provider: {provider!r} is not a provider litellm knows"
            raise _invalid_value(message, provider_field, {"provider": provider})
        if used and not api_base.strip() and not known_model(provider, model):
            message = f"Invalid model: {model!r} is not a model litellm lists for provider {provider!r}"
            raise _invalid_value(message, model_field, {"provider": provider, "model": model})


def _invalid_value(message: str, field: str, named: dict[str, str]) -> ApiError:
    error = invalid(message, field)
    error.details = {**named, **error.details}
    return error


async def preflight(clients: ServiceClients, body: ValidateTasksRequest, settings: ApiSettings) -> None:
    """Everything about a run request that can be known before it runs; nothing is stored or played before.

    An unknown domain or split is 404 ``not_found``; a domain that cannot run here, or a task id or index the split
    lacks (the orchestrator's own resolution, as ``taumesh run --task-ids`` reads them), is 422 naming the field; so
    is what ``taumesh run``'s own pre-flight refuses (:func:`~taumesh.orchestrator.run.preflight.run_problems`: a
    model whose credentials this server lacks, …), every problem at once.
    """
    check_allowed(body, settings)
    check_models(body)
    config, tasks = await split_tasks(clients, body.env, body.task_split, settings)
    range_ = {"task_ids": body.task_ids, "start_index": body.start_index, "end_index": body.end_index}
    try:
        select_tasks(config.model_copy(update=range_), [task.task_id for task in tasks])
    except ConfigError as exc:
        raise invalid(str(exc), "task_ids" if body.task_ids else "start_index") from exc
    if body.tasks == "certified":  # no stored audit of the served data, or it flags every selected task
        served = await served_domain(clients, config)
        try:
            run_tasks(config.model_copy(update=range_ | {"tasks": body.tasks}), tasks, served_release(served))
        except ConfigError as exc:
            raise invalid(str(exc), "tasks") from exc
    # the pre-flight every front door runs (taumesh run's): credentials of the models its own services call, the
    # strategies, τ-bench's imported prompts; off the event loop, as it may import litellm
    problems = await asyncio.to_thread(run_problems, run_config(body, settings), False)
    if problems:
        raise refused(problems)


def refused(problems: list[Problem]) -> ApiError:
    """A 422 naming every setting at fault, each with its own message."""
    error = invalid("; ".join(p.message for p in problems), problems[0].setting)
    error.details = {"errors": [{"loc": ["body", p.setting], "msg": p.message} for p in problems]}
    return error


async def split_tasks(
    clients: ServiceClients, env: str, task_split: str | None, settings: ApiSettings
) -> tuple[RunConfig, list[Any]]:
    """The split's tasks (the domain's first split when none is named).

    404 ``not_found`` for a domain or split; 422 naming ``env`` for a domain the services have but cannot run here
    (a model or sandbox it needs is missing).
    """
    config = RunConfig(env=env, task_split=task_split, data_dir=settings.data_dir)
    try:
        return await resolve_tasks(clients, config)
    except DomainNotRunnable as exc:
        raise invalid(str(exc), "env") from exc
    except ConfigError as exc:
        resource, ident = ("split", task_split) if task_split else ("domain", env)
        error = not_found(resource, ident or env)
        error.message = str(exc)
        raise error from exc


def api_task_id(style: TaskIdStyle, task_id: str) -> int | str:
    """A task id in the REST fork's routes, as the domain spells it: τ-bench v1's integer index, τ²'s id as text."""
    return task_id if style == "id" else results_task_id(task_id)


def recorded_style(row: ResultRow) -> TaskIdStyle:
    """How a stored result's domain spells task ids: as its run recorded its domain's defaults (else as v1)."""
    recorded = row.info.get("run_defaults") if isinstance(row.info, dict) else None
    return "id" if isinstance(recorded, dict) and recorded.get("task_id_style") == "id" else "index"


def task_order(row: ResultRow) -> tuple[int, int, int | str]:
    """Sort key of results in task order: trial after trial, each by task (integer ids by value)."""
    task = api_task_id(recorded_style(row), row.task_id)
    return (row.trial, 0, task) if isinstance(task, int) else (row.trial, 1, task)


def run_config(body: ValidateTasksRequest, settings: ApiSettings) -> RunConfig:
    """The orchestrator's configuration: the request's choices, the operator's data and service addresses.

    Built as ``taumesh run`` builds it (:meth:`~taumesh.settings.RunOptions.run_config`), from the body's fields
    that are ``taumesh run``'s settings too, and the operator's: nothing about a run is declared here again.
    """
    addresses = settings.addresses
    chosen = body.model_dump(include=set(RunOptions.model_fields) & set(ValidateTasksRequest.model_fields))
    options = RunOptions(
        **chosen,
        data_dir=settings.data_dir,
        env_addr=addresses.env,
        user_addr=addresses.user,
        agent_addr=body.agent_address if body.agent_address is not None else addresses.agent,
        scorer_addr=addresses.scorer,
        embedded_processes=addresses.processes,
        quiet=True,
    )
    return options.run_config()


def model_label(body: ValidateTasksRequest) -> str:
    """What ``/scores?model=`` matches: the agent's model, or its strategy for an agent that calls no model."""
    return body.model if agent_calls_model(body.agent_strategy) else body.agent_strategy


def new_run(body: ValidateTasksRequest, settings: ApiSettings, key_id: str | None, owner: str | None = None) -> RunRow:
    """A queued run, or one already leased to ``owner`` (a synchronous request plays it in its own worker).

    The run belongs to ``key_id``: only that key and admin keys see it.
    """
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
        owner_key_id=key_id,
        created_at=now,
        started_at=now if owner else None,
    )


async def play_now(store: Store, executor: RunExecutor, body: ValidateTasksRequest, key_id: str) -> RunRow:
    """Create a run leased to this worker, play it to the end (even if the caller goes away), return its row."""
    row = new_run(body, executor.settings, key_id, owner=executor.owner)
    store.work.claim_run(row.id, executor.owner, executor.settings.lease_seconds)  # leased before any poller sees it
    row = store.create_run(row)
    task = executor.start(row.id)
    await asyncio.wait({asyncio.ensure_future(asyncio.shield(task))})
    ended = store.get_run(row.id)
    assert ended is not None
    return ended


def task_result(row: ResultRow) -> TaskResult:
    """A stored episode as the API shows it (the REST fork's integer ``task_id`` for τ-bench v1 domains)."""
    return TaskResult(
        task_id=api_task_id(recorded_style(row), row.task_id),
        trial=row.trial,
        reward=row.reward,
        success=row.reward is not None and is_success(row.reward),
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
