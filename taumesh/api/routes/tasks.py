"""``POST /api/v1/list-tasks``: a split's tasks, a page at a time."""

from __future__ import annotations

import grpc
from fastapi import APIRouter

from taumesh.api.deps import ClientsDep, KeyDep, SettingsDep
from taumesh.api.errors import ERROR_RESPONSES, ApiError
from taumesh.api.schemas import ErrorResponse, ListTasksRequest, ListTasksResponse, TaskInfo
from taumesh.orchestrator.clients import list_tasks
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.runner import ConfigError, first_split

router = APIRouter(prefix="/api/v1", tags=["tasks"])
PREVIEW_CHARS = 200


@router.post(
    "/list-tasks",
    response_model=ListTasksResponse,
    summary="List a split's tasks",
    responses={**ERROR_RESPONSES, 404: {"model": ErrorResponse, "description": "not_found: no such domain or split"}},
)
async def list_split_tasks(
    body: ListTasksRequest, _key: KeyDep, clients: ClientsDep, settings: SettingsDep
) -> ListTasksResponse:
    """Tasks with id, user id, the instruction's first 200 characters and the gold action count.

    A page past the last one is empty.
    """
    config = RunConfig(env=body.env, task_split=body.task_split, data_dir=settings.data_dir)
    try:
        split = body.task_split or await first_split(clients, config)
        tasks = await list_tasks(clients, body.env, split, config.rpc_timeout)
    except ConfigError as exc:
        raise ApiError(404, "not_found", str(exc), {"resource": "domain", "id": body.env}) from exc
    except grpc.aio.AioRpcError as exc:
        if exc.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
            raise ApiError(404, "not_found", exc.details() or "no such split", {"resource": "split"}) from exc
        raise
    start = (body.page - 1) * body.page_size
    page = tasks[start : start + body.page_size]
    return ListTasksResponse(
        env=body.env,
        task_split=split,
        tasks=[
            TaskInfo(
                task_id=t.task_id,
                user_id=t.user_id,
                instruction_preview=t.instruction[:PREVIEW_CHARS],
                action_count=t.gold_action_count,
            )
            for t in page
        ],
        total=len(tasks),
        page=body.page,
        page_size=body.page_size,
        next_page=body.page + 1 if start + body.page_size < len(tasks) else None,
    )
