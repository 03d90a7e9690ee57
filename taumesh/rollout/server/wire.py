"""``taumesh.rollout.v1`` messages from and to pydantic: protobuf only at the boundary."""

from __future__ import annotations

import json

from taumesh.api.schemas import RolloutsRequest
from taumesh.rollout.episodes import RolloutEpisode
from taumesh.rollout.v1 import rollout_pb2


def request_from_message(message: rollout_pb2.GroupRolloutsRequest) -> RolloutsRequest:
    """The request as :class:`RolloutsRequest` (proto3's empty values: the REST body's defaults).

    Raises pydantic's ValidationError for a request that is not valid.
    """
    given: dict[str, object] = {
        "env": message.env,
        "task_split": message.task_split or None,
        "task_ids": list(message.task_ids),
        "trials": message.trials,
        "seed": message.seed if message.HasField("seed") else None,
    }
    for name in ("agent_strategy", "user_strategy", "model", "model_provider", "user_model", "user_model_provider"):
        if value := getattr(message, name):
            given[name] = value
    if message.max_concurrency:
        given["max_concurrency"] = message.max_concurrency
    return RolloutsRequest.model_validate(given)


def episode_message(episode: RolloutEpisode) -> rollout_pb2.RolloutEpisode:
    """One ended episode as the stream sends it."""
    message = rollout_pb2.RolloutEpisode(
        task_id=episode.task_id,
        trial=episode.trial,
        seed=episode.seed,
        trajectory_json=json.dumps(episode.trajectory, ensure_ascii=False),
        reward_basis=[str(basis) for basis in episode.reward_basis],
        reward_vector=[
            rollout_pb2.RolloutCheck(
                basis=str(check.basis),
                subject=check.subject,
                passed=check.passed,
                expected=check.expected,
                actual=check.actual,
                credit=check.credit,
            )
            for check in episode.reward_vector
        ],
        info_json=json.dumps(episode.info, ensure_ascii=False, default=str),
        rollout_id=episode.rollout_id,
        traces=[
            rollout_pb2.ModelCallTrace(
                rollout_id=trace.rollout_id,
                index=trace.index,
                model=trace.model,
                request_json=json.dumps(trace.request, ensure_ascii=False),
                response_json=json.dumps(trace.response, ensure_ascii=False),
                prompt_token_ids=trace.prompt_token_ids,
                completion_token_ids=trace.completion_token_ids,
                completion_logprobs=trace.completion_logprobs,
                loss_mask=trace.loss_mask,
                weight_version=trace.weight_version,
                latency_s=trace.latency_s,
                system_fingerprint=trace.system_fingerprint,
            )
            for trace in episode.traces
        ],
    )
    if episode.reward is not None:
        message.reward = episode.reward
    if episode.error is not None:
        message.error.CopyFrom(
            rollout_pb2.RolloutError(
                kind=episode.error.kind, cause=episode.error.cause, attempts=episode.error.attempts
            )
        )
    return message


def episode_from_message(message: rollout_pb2.RolloutEpisode) -> RolloutEpisode:
    """The Python API's episode from the stream's message (for clients in Python)."""
    error = message.error if message.HasField("error") else None
    return RolloutEpisode.model_validate(
        {
            "task_id": message.task_id,
            "trial": message.trial,
            "seed": message.seed,
            "trajectory": json.loads(message.trajectory_json),
            "reward": message.reward if message.HasField("reward") else None,
            "reward_basis": list(message.reward_basis),
            "reward_vector": [
                {
                    "basis": check.basis,
                    "subject": check.subject,
                    "passed": check.passed,
                    "expected": check.expected,
                    "actual": check.actual,
                    "credit": check.credit,
                }
                for check in message.reward_vector
            ],
            "error": {"kind": error.kind, "cause": error.cause, "attempts": error.attempts} if error else None,
            "info": json.loads(message.info_json),
            "rollout_id": message.rollout_id,
            "traces": [
                {
                    "rollout_id": trace.rollout_id,
                    "index": trace.index,
                    "model": trace.model,
                    "request": json.loads(trace.request_json),
                    "response": json.loads(trace.response_json),
                    "prompt_token_ids": list(trace.prompt_token_ids),
                    "completion_token_ids": list(trace.completion_token_ids),
                    "completion_logprobs": list(trace.completion_logprobs),
                    "loss_mask": list(trace.loss_mask),
                    "weight_version": trace.weight_version,
                    "latency_s": trace.latency_s,
                    "system_fingerprint": trace.system_fingerprint,
                }
                for trace in message.traces
            ],
        }
    )
