"""``GET /scores``: the MT-bench fork's scores JSONL of a fresh run of a model on a subset, or of its latest stored run.

The fork's README says every call runs the benchmark; ``fresh=false`` reads the newest stored run instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import ValidationError

from taumesh.api.deps import ClientsDep, ExecutorDep, KeyDep, StoreDep
from taumesh.api.errors import ERROR_RESPONSES, ApiError, not_found
from taumesh.api.executor import as_run_result
from taumesh.api.model_names import split_model
from taumesh.api.runs import play_now, preflight
from taumesh.api.schemas import ErrorResponse, ValidateTasksRequest
from taumesh.api.tables import RunRow
from taumesh.orchestrator.results.mt_layout import TASK_ID_PREFIX, scores_lines
from taumesh.services.agent.strategies import calls_model

router = APIRouter(tags=["scores"])


@router.get(
    "/scores",
    summary="MT-bench scores JSONL",
    response_class=Response,
    responses={
        **ERROR_RESPONSES,
        404: {"model": ErrorResponse, "description": "not_found: no such subset, or no completed run of the model"},
        200: {
            "description": "one JSON object a line: task-id, prompt, result, truth, score, duration",
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        },
    },
)
async def scores(
    request: Request,
    caller: KeyDep,
    store: StoreDep,
    executor: ExecutorDep,
    clients: ClientsDep,
    model: Annotated[
        str,
        Query(
            min_length=1,
            max_length=200,
            description="Agent model: `gpt-4o`, `openai/gpt-4o`, the MT fork's `openai_gpt-4o`, or `oracle`.",
        ),
    ],
    subset: Annotated[str, Query(min_length=1, max_length=100, description="Domain, e.g. retail.")],
    task_id: Annotated[
        str | None,
        Query(alias="taskID", max_length=100, description="Only this task (`7`, the fork's `task-7`, a τ² id)."),
    ] = None,
    fresh: Annotated[
        bool,
        Query(
            description="Run the benchmark now, as the MT fork does (only taskID when given); false: read the "
            "newest stored run instead."
        ),
    ] = True,
) -> Response:
    """Lines of a new run of ``model`` on ``subset``, played now as the MT fork's README says every call does.

    ``model`` may name the provider as litellm does (``openai/gpt-4o``) or as the MT fork does (``openai_gpt-4o``,
    its results files' ``openai-gpt-4o`` also works). The run is the whole subset, or only ``taskID`` (a task index,
    or a τ² task id). ``fresh=false`` reads the newest completed run of that provider's model among the caller's
    runs (an admin key's: all) instead: 404 when there is none.
    """
    if subset not in request.app.state.environments:
        raise not_found("subset", subset)
    if fresh:
        index = (task_id or "").removeprefix(TASK_ID_PREFIX)
        provider, name = split_model(model)
        offline = not calls_model(model)  # ``model`` names an agent strategy that calls none (``oracle``)
        try:
            body = ValidateTasksRequest(
                env=subset,
                model=name,
                model_provider=provider or "openai",
                agent_strategy=model if offline else "tool-calling",
                user_strategy="scripted" if offline else "llm",
                task_ids=None if not index else [int(index) if index.isdigit() else index],  # a τ² id as text
            )
        except ValidationError as exc:  # an index past the request's bound: the query's fault, not the server's
            message = f"taskID {task_id!r}: {exc.errors()[0]['msg']}"
            named = {"errors": [{"loc": ["query", "taskID"], "msg": message}]}
            raise ApiError(422, "validation_error", message, named) from None
        await preflight(clients, body, executor.settings)
        row = await play_now(store, executor, body, caller.key_id)
        if row.status != "completed":
            raise ApiError(422, "validation_error", f"the fresh run {row.status}: {row.error}", {"run_id": row.id})
    else:
        labels, accept = spellings(model)
        found = store.latest_run(caller, labels, subset, accept)
        if found is None:
            raise not_found("completed run of model and subset", f"{model} on {subset}")
        row = found
    request.state.run_id = row.id
    lines = scores_lines((as_run_result(r) for r in store.results(row.id)), task_id)
    text = "".join(line + "\n" for line in lines)
    return Response(text, media_type="application/x-ndjson")


def spellings(model: str) -> tuple[set[str], Callable[[RunRow], bool]]:
    """The run labels ``model`` may mean, and which of their runs it means.

    ``gpt-4o`` means every provider's; ``openai/gpt-4o``, ``openai_gpt-4o`` and ``openai-gpt-4o`` mean openai's
    (a run whose model is literally named that way matches too).
    """
    provider, name = split_model(model)
    if provider is None:
        head, dash, tail = model.partition("-")
        provider, name = split_model(f"{head}_{tail}") if dash else (None, model)
    if provider is None:
        return {model}, lambda _row: True
    labels = {model, name, f"{provider}/{name}"}

    def accept(row: RunRow) -> bool:
        given = str(row.request.get("model_provider", ""))
        return row.model == model or given == provider or row.model == f"{provider}/{name}"

    return labels, accept
