"""The scorer's τ² DB check over real gRPC: no hashing for an episode in the gold state, exact hashes otherwise.

Env and scorer servers run in this process, so the test counts every SHA-256 of τ²'s hasher that
either makes while the scorer answers.
"""

from __future__ import annotations

import json

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.convert import message_to_proto, score_from_proto
from taumesh.domains.tau2 import Tau2Task, gold_hash
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import STOP_TOKEN, ChatMessage, RewardCheck, Score, ToolCall
from taumesh.rpc.errors import error_reason
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from tests.helpers.grpc_services import RPC_TIMEOUT, Tau2Stubs
from tests.helpers.tau2 import tau2_domain


@pytest.fixture(scope="module")
def stubs(tau2_stubs: Tau2Stubs) -> Tau2Stubs:
    return tau2_stubs


def _ref(task_id: str) -> common_pb2.TaskRef:
    return common_pb2.TaskRef(domain="tau2-retail", split="base", task_id=task_id)


def _task(task_id: str) -> Tau2Task:
    task = tau2_domain("retail").find_task("base", task_id)
    assert isinstance(task, Tau2Task)
    return task


def _play(
    env: env_pb2_grpc.EnvServiceStub, task: Tau2Task, actions: int | None = None
) -> tuple[list[ChatMessage], str]:
    """The first ``actions`` gold calls through the env; the conversation and GetFinalState's hash."""
    opened = env.OpenSession(env_pb2.OpenSessionRequest(task=_ref(task.id)), timeout=RPC_TIMEOUT)
    conversation = [ChatMessage(role="assistant", content="Hi! How can I help you today?")]
    for index, action in enumerate(task.gold_actions[:actions]):
        call = ToolCall(id=f"call_{index}", name=action.name, arguments=json.dumps(action.arguments))
        result = env.CallTool(
            env_pb2.CallToolRequest(
                session_id=opened.session_id,
                tool_call=common_pb2.ToolCall(id=call.id, name=call.name, arguments_json=call.arguments),
            ),
            timeout=RPC_TIMEOUT,
        )
        conversation += [
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(role="tool", content=result.observation, tool_call_id=call.id),
        ]
    final = env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    criteria = task.evaluation_criteria
    said = "; ".join(criteria.communicate_info or []) if criteria is not None else ""
    conversation += [ChatMessage(role="assistant", content=said), ChatMessage(role="user", content=STOP_TOKEN)]
    return conversation, final.data_hash


def _score(
    scorer: scorer_pb2_grpc.ScorerServiceStub, task: Tau2Task, conversation: list[ChatMessage], final: str
) -> Score:
    request = scorer_pb2.ScoreEpisodeRequest(
        task=_ref(task.id),
        termination=common_pb2.TERMINATION_USER_STOP,
        final_data_hash=final,
        conversation=[message_to_proto(message) for message in conversation],
    )
    return score_from_proto(scorer.ScoreEpisode(request, timeout=RPC_TIMEOUT))


def _db_check(score: Score) -> RewardCheck:
    (check,) = [check for check in score.checks if check.basis == "DB"]
    return check


def _short_task() -> Tau2Task:
    """A retail task with several gold writes: stopping before the last one ends elsewhere than gold."""
    return _task("1")


def test_a_passing_episode_is_scored_without_hashing(stubs: Tau2Stubs, hash_calls: list[int]) -> None:
    env, scorer = stubs
    task = _task("0")
    conversation, final = _play(env, task)
    _score(scorer, task, conversation, final)  # the scorer's first sight of the task computes its gold state
    hash_calls.clear()
    score = _score(scorer, task, conversation, final)
    assert hash_calls == []
    assert score.reward == 1.0
    check = _db_check(score)
    assert (check.passed, check.expected, check.actual) == (True, final, final)


def test_a_failing_episode_reports_the_envs_hash(stubs: Tau2Stubs) -> None:
    env, scorer = stubs
    task = _short_task()
    conversation, final = _play(env, task, actions=len(task.gold_actions) - 1)
    gold = gold_hash(tau2_domain("retail"), task)
    assert final != gold
    score = _score(scorer, task, conversation, final)
    assert score.reward == 0.0
    check = _db_check(score)
    assert (check.passed, check.expected, check.actual) == (False, gold, final)


@pytest.mark.parametrize("replayed", ["gold", "short"])
def test_an_env_hash_the_replay_does_not_reach_is_refused(stubs: Tau2Stubs, replayed: str) -> None:
    env, scorer = stubs
    task = _short_task()
    gold_conversation, gold_final = _play(env, task)
    short_conversation, short_final = _play(env, task, actions=len(task.gold_actions) - 1)
    conversation, reported = (
        (gold_conversation, short_final) if replayed == "gold" else (short_conversation, gold_final)
    )
    with pytest.raises(grpc.RpcError) as caught:
        _score(scorer, task, conversation, reported)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_reason(caught.value) == "EPISODE_NOT_REPRODUCIBLE"
