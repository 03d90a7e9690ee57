"""Scoring one episode: the env's final state of its session, and the scorer's verdict on the conversation."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from taumesh.common.v1 import common_pb2
from taumesh.convert import model_to_proto, score_from_proto, task_ref_to_proto, termination_to_proto, usage_from_proto
from taumesh.models import Score, TaskRef, Termination, Usage
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode.env_session import EpisodeSession
from taumesh.orchestrator.episode.grading import GRADERS
from taumesh.scorer.v1 import scorer_pb2


class Scored(NamedTuple):
    """The scorer's verdict, the hash of the data it judged, and what its judge model spent."""

    score: Score
    final_data_hash: str
    judge_usage: Usage


async def score_episode(
    clients: ServiceClients,
    config: RunConfig,
    task: TaskRef,
    env: EpisodeSession,
    termination: Termination,
    conversation: list[common_pb2.Message],
) -> Scored:
    """The final state from the env (which closes the session) and the scorer's verdict on ``conversation``."""
    with tracing.scoring() as span:
        final = await env.final_state()
        request = scorer_pb2.ScoreEpisodeRequest(
            task=task_ref_to_proto(task),
            termination=termination_to_proto(termination),
            final_data_hash=final.data_hash,
            conversation=conversation,
            grader=GRADERS[config.grader],
        )
        judged = bool(config.judge.model)
        if judged:  # τ²'s NL assertions: the scorer asks this model, and may retry it
            request.judge.CopyFrom(model_to_proto(config.judge))
        timeout = config.model_timeout if judged else config.rpc_timeout
        response: scorer_pb2.ScoreEpisodeResponse = await with_retries(
            partial(clients.scorer.ScoreEpisode, request, timeout=timeout)
        )
        score = score_from_proto(response)
        span.scored(score.reward, final.data_hash, score.tau_bench_reward_info())
    return Scored(score, final.data_hash, usage_from_proto(response.judge_usage))
