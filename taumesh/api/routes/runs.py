"""Runs: start one (``validate-tasks``), list, get, cancel, results, trajectories, and live events (SSE)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse

from taumesh.api.caller import Caller
from taumesh.api.deps import ClientsDep, ExecutorDep, KeyDep, SettingsDep, StoreDep
from taumesh.api.errors import ERROR_RESPONSES, as_json, not_found
from taumesh.api.runs import (
    execution_seconds,
    links,
    metrics_of,
    new_run,
    play_now,
    preflight,
    run_view,
    task_order,
    task_result,
)
from taumesh.api.schemas import (
    MAX_EVENT_ID,
    ErrorResponse,
    Run,
    RunAccepted,
    RunChecked,
    RunEvent,
    RunList,
    RunStatus,
    TaskResult,
    Trajectory,
    ValidateTasksRequest,
    ValidateTasksResponse,
)
from taumesh.api.store import TERMINAL, Store
from taumesh.api.tables import RunRow
from taumesh.api.viewer_link import viewer_url

router = APIRouter(prefix="/api/v1", tags=["runs"])
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse, "description": "not_found: no such run"}}
EVENT_POLL_SECONDS = 0.5


class EventStream(EventSourceResponse):
    """sse-starlette's response, with its media type on the class, where the OpenAPI document looks for it."""

    media_type = "text/event-stream"


def _found(store: Store, run_id: str, caller: Caller) -> RunRow:
    """The run, when ``caller`` may see it; another key's run is 404, as a run that does not exist."""
    row = store.visible_run(run_id, caller)
    if row is None:
        raise not_found("run", run_id)
    return row


@router.post(
    "/validate-tasks",
    response_model=ValidateTasksResponse,
    summary="Run a benchmark (synchronously, or queued with wait=false)",
    responses={
        **ERROR_RESPONSES,
        202: {"model": RunAccepted, "description": "queued (wait=false)"},
        404: {"model": ErrorResponse, "description": "not_found: no such domain or split"},
    },
)
async def validate_tasks(
    body: ValidateTasksRequest,
    request: Request,
    caller: KeyDep,
    store: StoreDep,
    executor: ExecutorDep,
    clients: ClientsDep,
) -> Any:
    """With ``wait`` (the default) the answer comes when the run ends; otherwise 202 with the run's id and links.

    The whole request is checked first (providers, model names, domain, split, task indices): nothing runs for a
    request that is not valid. ``results`` come in task order, trial after trial.
    """
    await preflight(clients, body, executor.settings)
    if not body.wait:
        row = store.create_run(new_run(body, executor.settings, caller.key_id))
        request.state.run_id = row.id
        executor.wakeup.set()
        accepted = RunAccepted(request_id=request.state.request_id, run_id=row.id, status="queued", links=links(row.id))
        return JSONResponse(accepted.model_dump(mode="json"), status_code=202)
    ended = await play_now(store, executor, body, caller.key_id)
    request.state.run_id = ended.id
    status: RunStatus = ended.status  # type: ignore[assignment]
    return ValidateTasksResponse(
        request_id=request.state.request_id,
        run_id=ended.id,
        status=status,
        results=[task_result(r) for r in sorted(store.results(ended.id), key=task_order)],
        metrics=metrics_of(ended),
        execution_time_seconds=execution_seconds(ended),
        timestamp=datetime.now(UTC),
        config_used=ended.request,
        error=ended.error,
        viewer_url=viewer_url(executor.settings, ended.id),
    )


@router.post(
    "/validate-tasks/check",
    response_model=RunChecked,
    summary="Check a run request without running it",
    responses={**ERROR_RESPONSES, 404: {"model": ErrorResponse, "description": "not_found: no such domain or split"}},
)
async def check_run(
    body: ValidateTasksRequest, request: Request, _caller: KeyDep, executor: ExecutorDep, clients: ClientsDep
) -> RunChecked:
    """The checks ``validate-tasks`` makes before it runs anything, and nothing else: nothing is stored or played.

    A client starting several runs together (``validate_with_comparison``) checks each first, so a model name the
    server refuses is known before any other model has run.
    """
    await preflight(clients, body, executor.settings)
    return RunChecked(request_id=request.state.request_id)


@router.get("/runs", response_model=RunList, summary="List runs, newest first", responses=ERROR_RESPONSES)
def list_runs(
    caller: KeyDep,
    store: StoreDep,
    settings: SettingsDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    status: RunStatus | None = None,
) -> RunList:
    """A page of the caller's runs (an admin key's: every run) by ``limit`` and ``offset``, optionally of one status."""
    rows, total = store.list_runs(caller, limit, offset, status)
    views = [run_view(r, store.result_count(r.id), settings) for r in rows]
    return RunList(runs=views, total=total, limit=limit, offset=offset)


@router.get("/runs/{run_id}", response_model=Run, summary="A run's state", responses={**ERROR_RESPONSES, **NOT_FOUND})
def get_run(run_id: str, request: Request, caller: KeyDep, store: StoreDep, settings: SettingsDep) -> Run:
    """Status, progress, metrics once finished, and the request it was started with."""
    request.state.run_id = run_id
    return run_view(_found(store, run_id, caller), store.result_count(run_id), settings)


@router.post(
    "/runs/{run_id}/cancel", response_model=Run, summary="Cancel a run", responses={**ERROR_RESPONSES, **NOT_FOUND}
)
def cancel_run(run_id: str, request: Request, caller: KeyDep, store: StoreDep, settings: SettingsDep) -> Run:
    """Stops an unfinished run (its worker notices within a third of the lease); a finished one is unchanged."""
    request.state.run_id = run_id
    before = _found(store, run_id, caller)
    row = store.cancel(run_id)
    assert row is not None
    if before.status not in TERMINAL and row.status == "cancelled":
        store.add_event(run_id, "run_cancelled", {"status": "cancelled", "metrics": None, "error": None})
    return run_view(row, store.result_count(run_id), settings)


@router.get(
    "/runs/{run_id}/results",
    response_model=list[TaskResult],
    summary="A run's episode results",
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
def run_results(
    run_id: str,
    request: Request,
    caller: KeyDep,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[TaskResult]:
    """Results stored so far, in the order the episodes ended."""
    request.state.run_id = run_id
    _found(store, run_id, caller)  # refused unless the caller may see the run
    return [task_result(r) for r in store.results(run_id, limit, offset)]


@router.get(
    "/runs/{run_id}/trajectories",
    response_model=list[Trajectory],
    summary="A run's conversations",
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
def run_trajectories(
    run_id: str,
    request: Request,
    caller: KeyDep,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[Trajectory]:
    """Each episode's messages in OpenAI chat form."""
    request.state.run_id = run_id
    _found(store, run_id, caller)
    return [
        Trajectory(task_id=r.task_id, trial=r.trial, reward=r.reward, messages=r.traj)
        for r in store.results(run_id, limit, offset)
    ]


@router.get(
    "/runs/{run_id}/events",
    summary="Live progress (Server-Sent Events)",
    response_class=EventStream,
    responses={
        **as_json(ERROR_RESPONSES),
        **as_json(NOT_FOUND),
        200: {
            "model": RunEvent,
            "description": "a stream of events, each as `RunEvent` describes it (`id:`, `event:`, `data:` as JSON): "
            "`episode_done` per stored episode, and finally `run_completed`, `run_failed` or `run_cancelled`",
            "content": {"text/event-stream": {"schema": {"type": "object"}}},  # not the default's "string"
        },
    },
)
async def run_events(
    run_id: str,
    request: Request,
    caller: KeyDep,
    store: StoreDep,
    last_event_id: Annotated[
        int, Header(ge=0, le=MAX_EVENT_ID, description="Resume after this event id (the last `id:` received).")
    ] = 0,
) -> EventStream:
    """Every event of the run from the start (or after ``Last-Event-ID``); the stream ends with the run.

    A ``Last-Event-ID`` that is not a whole number from 0 to 2^63-1 is 422, before the stream starts.
    """
    request.state.run_id = run_id
    _found(store, run_id, caller)
    return EventStream(_event_stream(store, run_id, last_event_id), ping=15)


async def _event_stream(store: Store, run_id: str, after: int) -> AsyncIterator[dict[str, str]]:
    while True:
        events = await asyncio.to_thread(store.events_after, run_id, after)
        for event in events:
            after = event.id
            yield {"id": str(event.id), "event": event.type, "data": _json(event.data)}
            if event.type.startswith("run_"):
                return
        if not events:
            row = await asyncio.to_thread(store.get_run, run_id)
            if row is None or (
                row.status in TERMINAL and not await asyncio.to_thread(store.events_after, run_id, after)
            ):
                return
        await asyncio.sleep(EVENT_POLL_SECONDS)


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))
