"""``POST /api/v1/rollouts``: a group of rollouts, streamed as NDJSON, one episode per line as each one ends."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from taumesh.api.deps import ClientsDep, KeyDep, SettingsDep
from taumesh.api.errors import ERROR_RESPONSES, ApiError, invalid
from taumesh.api.schemas import ErrorResponse, RolloutsRequest
from taumesh.rollout.episodes import RolloutEpisode
from taumesh.rollout.server import RolloutOperator, RolloutRefused, check_rollouts, play_rollouts

router = APIRouter(prefix="/api/v1", tags=["rollouts"])
NDJSON = "application/x-ndjson"


class NdjsonStream(StreamingResponse):
    """Newline-delimited JSON, with its media type on the class, where the OpenAPI document looks for it."""

    media_type = NDJSON


def _as_json(responses: dict[int | str, dict[str, Any]]) -> dict[int | str, dict[str, Any]]:
    """``responses`` documented as the JSON they are: a ``model`` would take the route's NDJSON media type."""
    return {
        status: {
            "description": answer["description"],
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{answer['model'].__name__}"}}},
        }
        for status, answer in responses.items()
    }


async def _lines(episodes: AsyncGenerator[RolloutEpisode]) -> AsyncIterator[bytes]:
    """Each episode as one line of JSON; the client going away closes the stream, which cancels the run."""
    async with contextlib.aclosing(episodes):
        async for episode in episodes:
            yield episode.model_dump_json().encode() + b"\n"


@router.post(
    "/rollouts",
    response_class=NdjsonStream,
    summary="Play a group of rollouts, streamed as NDJSON as each episode ends",
    responses={
        **_as_json(
            {**ERROR_RESPONSES, 404: {"model": ErrorResponse, "description": "not_found: no such domain or split"}}
        ),
        200: {
            "model": RolloutEpisode,
            "description": "One RolloutEpisode JSON object per line, in the order they end.",
        },
    },
)
async def group_rollouts(
    body: RolloutsRequest, _caller: KeyDep, clients: ClientsDep, settings: SettingsDep
) -> NdjsonStream:
    """``trials`` rollouts of each task of ``task_ids``, each seeded by SHA-256 of (seed, task, trial).

    The whole request is checked first, as ``validate-tasks`` checks a run (strategies, providers and model names,
    the split's tasks, the concurrency cap): a refused request is 404 or 422 and nothing plays. The data, the
    services and the model endpoints are this server's. The run plays no faster than the client reads; a client
    that goes away cancels it. An episode the infrastructure failed has ``error`` set and ``reward`` null.
    """
    operator = RolloutOperator(
        data_dir=settings.data_dir, addresses=settings.addresses, max_concurrency=settings.max_run_concurrency
    )
    try:
        await check_rollouts(body, operator, clients, settings)
    except RolloutRefused as exc:
        if isinstance(exc.__cause__, ApiError):  # validate-tasks' own answer, naming the field
            raise exc.__cause__ from None
        raise invalid(exc.message, exc.field) from exc
    return NdjsonStream(_lines(play_rollouts(body, operator)))
