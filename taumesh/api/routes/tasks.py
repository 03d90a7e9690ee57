"""``POST /api/v1/list-tasks``: a split's tasks, a page at a time."""

from __future__ import annotations

from fastapi import APIRouter

from taumesh.api.deps import ClientsDep, KeyDep, SettingsDep
from taumesh.api.errors import ERROR_RESPONSES
from taumesh.api.runs import api_task_id, split_tasks
from taumesh.api.schemas import ErrorResponse, ListTasksRequest, ListTasksResponse, TaskInfo

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
    """Tasks with id (τ-bench v1: an integer), user id, instruction preview and gold action count.

    The preview is the instruction's first 200 characters; the count is ``num_actions`` (also ``action_count``);
    ``total_tasks`` (also ``total``) counts the split. A page past the last one is empty. An unknown domain or
    split is 404, as in validate-tasks.
    """
    config, tasks = await split_tasks(clients, body.env, body.task_split, settings)
    split = config.task_split or ""
    start = (body.page - 1) * body.page_size
    page = tasks[start : start + body.page_size]
    return ListTasksResponse(
        env=body.env,
        task_split=split,
        tasks=[
            TaskInfo(
                task_id=api_task_id(config.limits.task_id_style, t.task_id),
                user_id=t.user_id,
                instruction_preview=t.instruction[:PREVIEW_CHARS],
                num_actions=t.gold_action_count,
                action_count=t.gold_action_count,
            )
            for t in page
        ],
        total_tasks=len(tasks),
        total=len(tasks),
        page=body.page,
        page_size=body.page_size,
        next_page=body.page + 1 if start + body.page_size < len(tasks) else None,
    )
