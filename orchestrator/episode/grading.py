"""``--grader``: which grading the scorer applies, and the tasks the strict grader leaves out (docs/validity.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial

import grpc

from taumesh.convert import task_ref_to_proto, termination_to_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import TaskRef
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import RunConfig
from taumesh.rpc.errors import error_reason
from taumesh.scorer.v1 import scorer_pb2

GRADERS = {"faithful": scorer_pb2.GRADER_FAITHFUL, "strict": scorer_pb2.GRADER_STRICT}
"""``--grader``'s names as the scorer's enum."""
GOLD_ERRORS = "GOLD_ERRORS"
"""The scorer's reason for a task the strict grader does not grade."""
ASKED_AT_ONCE = 8
"""Tasks asked about at once."""


async def strict_exclusions(
    clients: ServiceClients, config: RunConfig, tasks: Sequence[env_pb2.TaskSummary], indices: Sequence[int]
) -> dict[str, str]:
    """Under ``--grader strict``: each selected task the scorer will not grade (its gold errors), with why.

    The scorer is asked before anything is played, with an episode that did not end: it answers FAILED_PRECONDITION
    (reason GOLD_ERRORS) for such a task whatever the episode. Empty under the faithful grader.
    """
    if config.grader != "strict":
        return {}
    assert config.task_split is not None, "the run resolves its split before choosing tasks"
    gate = asyncio.Semaphore(ASKED_AT_ONCE)

    async def refusal(task_id: str) -> str | None:
        request = scorer_pb2.ScoreEpisodeRequest(
            task=task_ref_to_proto(TaskRef(domain=config.env, split=config.task_split or "", task_id=task_id)),
            termination=termination_to_proto("max_steps"),
            grader=scorer_pb2.GRADER_STRICT,
        )
        async with gate:
            try:
                await with_retries(partial(clients.scorer.ScoreEpisode, request, timeout=config.rpc_timeout))
            except grpc.aio.AioRpcError as exc:
                if error_reason(exc) == GOLD_ERRORS:
                    return exc.details() or GOLD_ERRORS
                raise
        return None

    ids = [tasks[index].task_id for index in indices]
    answers = await asyncio.gather(*(refusal(task_id) for task_id in ids))
    return {task_id: reason for task_id, reason in zip(ids, answers, strict=True) if reason is not None}
