"""Every τ² vector of mock, airline and retail reproduced through the env and scorer services over real gRPC.

Per task: the initial hash of the opened session, each gold action's observation and status, the final
hash (``GetFinalState``), and the scorer's reward with its checks, for the gold actions alone and with
the communicate message. The scorer gets only the conversation and the env's final hash, as in a run.
Telecom's 2,285 vectors, with the user's own tool calls, are in ``test_tau2_telecom_grpc.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.convert import message_to_proto, messages_from_proto, score_from_proto
from taumesh.domains.tau2 import DatasetMissing, require
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import STOP_TOKEN, ChatMessage, RewardCheck, Score, ToolCall
from taumesh.rpc.errors import error_reason
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from tests.helpers.grpc_services import RPC_TIMEOUT, Tau2Stubs
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import TAU2_EXPECTED

GREETING = "Hi! How can I help you today?"
DOMAINS = ["mock", "airline", "retail"]


@pytest.fixture(scope="module")
def tau2_vectors() -> Path:
    """The τ² vectors folder; skips when the τ² data is not fetched or the expected values are absent."""
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    if not (TAU2_EXPECTED / "vectors").is_dir():
        pytest.skip(f"τ² expected values not found at {TAU2_EXPECTED}")
    return TAU2_EXPECTED / "vectors"


@pytest.fixture(scope="module")
def stubs(tau2_vectors: Path, tau2_stubs: Tau2Stubs) -> Tau2Stubs:
    """The τ² env and scorer servers, for the vectors' tests."""
    return tau2_stubs


def _ref(source_name: str, task_id: str) -> common_pb2.TaskRef:
    return common_pb2.TaskRef(domain=f"tau2-{source_name}", split="base", task_id=task_id)


def _requestor(side: str) -> common_pb2.Requestor.ValueType:
    return common_pb2.REQUESTOR_USER if side == "user" else common_pb2.REQUESTOR_ASSISTANT


def breakdown(score: Score) -> dict[str, float]:
    """τ²'s ``reward_breakdown`` rebuilt from the checks: per basis member, 1.0 iff all its checks passed."""
    by_basis: dict[str, list[RewardCheck]] = {}
    for check in score.checks:
        by_basis.setdefault(check.basis, []).append(check)
    return {
        basis: 1.0 if all(check.passed for check in by_basis.get(basis, [])) else 0.0 for basis in score.reward_basis
    }


def _reward_problems(key: str, score: Score, reference: dict[str, Any]) -> list[str]:
    problems = []
    derived = breakdown(score)
    if score.reward != reference["reward"] or any(
        derived.get(basis) != value for basis, value in reference["reward_breakdown"].items()
    ):
        problems.append(f"{key}: {score.reward} {derived}")
    checks = {(check.basis, check.subject): check.passed for check in score.checks}
    for action in reference["action_checks"] or []:
        if checks.get(("ACTION", action["action_id"])) != action["action_match"]:
            problems.append(f"{key}: action check {action['action_id']}")
    met = [check.passed for check in score.checks if check.basis == "ENV_ASSERTION"]
    if met != [assertion["met"] for assertion in reference["env_assertions"] or []]:
        problems.append(f"{key}: env assertions {met}")
    database = [check.passed for check in score.checks if check.basis == "DB"]
    compared = reference["action_checks"] is not None or reference["env_assertions"] is not None  # else τ² skips it
    if compared and database != [reference["db_check"]["db_match"]]:
        problems.append(f"{key}: db check {database}")
    return problems


def _problems(
    env: env_pb2_grpc.EnvServiceStub,
    scorer: scorer_pb2_grpc.ScorerServiceStub,
    source_name: str,
    vector: dict[str, Any],
) -> list[str]:
    ref = _ref(source_name, vector["task_id"])
    opened = env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT)
    problems = [] if opened.initial_data_hash == vector["initial_db_hash"] else ["initial hash"]
    # τ²'s trajectory starts with the task's message history (as the env tells it), else with the agent's greeting
    trajectory = messages_from_proto(opened.history) or [ChatMessage(role="assistant", content=GREETING)]
    for index, action in enumerate(vector["actions"]):
        arguments = json.dumps(action["arguments"])
        call = common_pb2.ToolCall(
            id=f"call_{index}", name=action["name"], arguments_json=arguments, requestor=_requestor(action["requestor"])
        )
        result = env.CallTool(
            env_pb2.CallToolRequest(session_id=opened.session_id, tool_call=call, request_id=f"r{index}"),
            timeout=RPC_TIMEOUT,
        )
        error = result.status == env_pb2.TOOL_CALL_STATUS_ERROR
        if (result.observation, error) != (action["content"], action["error"]):
            problems.append(f"action {index}: {result.observation!r} status={result.status}")
        tool_call = ToolCall(id=call.id, name=call.name, arguments=arguments, requestor=action["requestor"])
        trajectory.append(ChatMessage(role=action["requestor"], tool_calls=[tool_call]))
        trajectory.append(ChatMessage(role="tool", content=result.observation, tool_call_id=call.id))
    final = env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    if final.data_hash != vector["final_db_hash"]:
        problems.append("final hash")
    said = ChatMessage(role="assistant", content="; ".join(vector["communicate_info"]))
    stop = ChatMessage(role="user", content=STOP_TOKEN)
    for key, extra in (("reward_gold_actions_only", []), ("reward_gold_actions_plus_communicate", [said])):
        if vector[key] is None:
            continue
        request = scorer_pb2.ScoreEpisodeRequest(
            task=ref,
            termination=common_pb2.TERMINATION_USER_STOP,
            final_data_hash=final.data_hash,
            conversation=[message_to_proto(m) for m in [*trajectory, *extra, stop]],
        )
        score = score_from_proto(scorer.ScoreEpisode(request, timeout=RPC_TIMEOUT))
        problems += _reward_problems(key, score, vector[key])
    return problems


@pytest.mark.parametrize("source_name", DOMAINS)
def test_every_vector_is_reproduced_over_grpc(
    stubs: tuple[env_pb2_grpc.EnvServiceStub, scorer_pb2_grpc.ScorerServiceStub],
    tau2_vectors: Path,
    source_name: str,
) -> None:
    env, scorer = stubs
    vectors = list(read_jsonl(tau2_vectors / f"{source_name}.jsonl"))
    assert len(vectors) == {"mock": 9, "airline": 50, "retail": 114}[source_name]
    failures = {v["task_id"]: problems for v in vectors if (problems := _problems(env, scorer, source_name, v))}
    assert failures == {}


def test_a_replay_that_misses_the_reported_state_is_refused(
    stubs: tuple[env_pb2_grpc.EnvServiceStub, scorer_pb2_grpc.ScorerServiceStub],
) -> None:
    _, scorer = stubs
    request = scorer_pb2.ScoreEpisodeRequest(
        task=_ref("mock", "create_task_1"),
        termination=common_pb2.TERMINATION_USER_STOP,
        final_data_hash="0" * 64,
        conversation=[message_to_proto(ChatMessage(role="user", content=STOP_TOKEN))],
    )
    with pytest.raises(grpc.RpcError) as caught:
        scorer.ScoreEpisode(request, timeout=RPC_TIMEOUT)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_reason(caught.value) == "EPISODE_NOT_REPRODUCIBLE"


def test_an_unfinished_episode_scores_zero_without_checks(
    stubs: tuple[env_pb2_grpc.EnvServiceStub, scorer_pb2_grpc.ScorerServiceStub],
) -> None:
    _, scorer = stubs
    request = scorer_pb2.ScoreEpisodeRequest(
        task=_ref("mock", "create_task_1"), termination=common_pb2.TERMINATION_MAX_STEPS
    )
    score = score_from_proto(scorer.ScoreEpisode(request, timeout=RPC_TIMEOUT))
    assert (score.reward, score.checks) == (0.0, [])
    assert [(action.name, action.kwargs) for action in score.gold_actions] == [
        ("create_task", {"user_id": "user_1", "title": "Important Meeting"})
    ]
