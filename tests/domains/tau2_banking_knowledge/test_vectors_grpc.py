"""Every record of the shared ``vectors.jsonl`` reproduced through the env and scorer services over real gRPC.

Per task: the opened session's hash, each gold action's observation, error flag and the hash after it, the final
hash (``GetFinalState``), then the scorer's verdict on the gold trajectory (upstream's greeting, each call and its
result, the user's stop): the reward, each basis's part of it, each ACTION check and the DB check. task_102's
NL assertion, which upstream's reference leaves unjudged, is judged by a scripted judge on 127.0.0.1 that finds it
met, so its reward is the recorded one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from taumesh.common.v1 import common_pb2
from taumesh.convert import message_to_proto, model_to_proto, score_from_proto
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import STOP_TOKEN, ChatMessage, ModelSettings, Score, ToolCall
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from tests.domains.tau2_banking_knowledge.support import (
    NEEDS_FIXTURES_AND_CHECKOUT,
    NO_KNOWLEDGE,
    RPC_TIMEOUT,
    data_dir_with_fixtures,
    env_and_scorer,
    imported_cache,
    judge_all_met,
    vectors,
)
from tests.helpers.fake_model import FakeOpenAI

GREETING = "Hi! How can I help you today?"
"""Upstream's ``DEFAULT_FIRST_AGENT_MESSAGE``, which the reference trajectories start with."""

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT

Stubs = tuple[env_pb2_grpc.EnvServiceStub, scorer_pb2_grpc.ScorerServiceStub, ModelSettings]


@pytest.fixture(scope="module")
def stubs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stubs]:
    """The services over the shared data, the checkout's texts imported, and the scripted judge."""
    with (
        FakeOpenAI(judge_all_met) as judge,
        judge.granted(),
        imported_cache(tmp_path_factory.mktemp("cache")),
        env_and_scorer(data_dir_with_fixtures(tmp_path_factory.mktemp("data"))) as (env, scorer),
    ):
        settings = ModelSettings(model="openai/judge", api_base=judge.url)
        yield env_pb2_grpc.EnvServiceStub(env), scorer_pb2_grpc.ScorerServiceStub(scorer), settings


def _reward_problems(score: Score, reference: dict[str, Any]) -> list[str]:
    problems = [] if score.reward == reference["reward"] else [f"reward {score.reward}"]
    parts: dict[str, bool] = {}
    for check in score.checks:
        parts[check.basis] = parts.get(check.basis, True) and check.passed
    for basis, value in reference["reward_breakdown"].items():
        if parts.get(basis, True) != (value == 1.0):
            problems.append(f"{basis} part {parts.get(basis)}")
    checks = {(check.basis, check.subject): check.passed for check in score.checks}
    for action in reference["action_checks"] or []:
        if checks.get(("ACTION", action["action"]["action_id"])) != action["action_match"]:
            problems.append(f"action check {action['action']['action_id']}")
    database = [check.passed for check in score.checks if check.basis == "DB"]
    if "DB" in reference["reward_basis"] and database != [reference["db_check"]["db_match"]]:
        problems.append(f"db check {database}")
    return problems


def _problems(stubs: Stubs, vector: dict[str, Any]) -> list[str]:
    env, scorer, judge = stubs
    ref = common_pb2.TaskRef(domain=NO_KNOWLEDGE, split="base", task_id=vector["task_id"])
    opened = env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT)
    problems = [] if opened.initial_data_hash == vector["initial_db_hash"] else ["initial hash"]
    trajectory = [ChatMessage(role="assistant", content=GREETING)]
    for index, action in enumerate(vector["actions"]):
        requestor = common_pb2.REQUESTOR_USER if action["requestor"] == "user" else common_pb2.REQUESTOR_ASSISTANT
        arguments = json.dumps(action["arguments"])
        call = common_pb2.ToolCall(
            id=f"call_{index}", name=action["name"], arguments_json=arguments, requestor=requestor
        )
        request = env_pb2.CallToolRequest(session_id=opened.session_id, tool_call=call, request_id=f"r{index}")
        result = env.CallTool(request, timeout=RPC_TIMEOUT)
        error = result.status == env_pb2.TOOL_CALL_STATUS_ERROR
        if (result.observation, error) != (action["content"], action["error"]):
            problems.append(f"{action['action_id']}: {result.observation[:200]!r} error={error}")
        state = env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
        if state.data_hash != action["db_hash_after"]:
            problems.append(f"{action['action_id']}: hash after")
        tool_call = ToolCall(id=call.id, name=call.name, arguments=arguments, requestor=action["requestor"])
        trajectory.append(ChatMessage(role=action["requestor"], tool_calls=[tool_call]))
        trajectory.append(ChatMessage(role="tool", content=result.observation, tool_call_id=call.id))
    final = env.GetFinalState(
        env_pb2.GetFinalStateRequest(session_id=opened.session_id, close_session=True), timeout=RPC_TIMEOUT
    )
    if final.data_hash != vector["final_db_hash"]:
        problems.append("final hash")
    scoring = scorer_pb2.ScoreEpisodeRequest(
        task=ref,
        termination=common_pb2.TERMINATION_USER_STOP,
        final_data_hash=final.data_hash,
        conversation=[message_to_proto(m) for m in [*trajectory, ChatMessage(role="user", content=STOP_TOKEN)]],
        judge=model_to_proto(judge),
    )
    score = score_from_proto(scorer.ScoreEpisode(scoring, timeout=RPC_TIMEOUT))
    return problems + [f"score: {problem}" for problem in _reward_problems(score, vector["reward_info"])]


def test_every_vector_is_reproduced_over_grpc(stubs: Stubs) -> None:
    records = vectors()
    assert len(records) == 97
    failures = {record["task_id"]: problems for record in records if (problems := _problems(stubs, record))}
    assert failures == {}


def test_the_judge_is_asked_only_for_the_task_with_an_nl_assertion(stubs: Stubs) -> None:
    """task_102 is ``[DB, NL_ASSERTION]``: its score holds the judge's check, and no other task's does."""
    env, scorer, judge = stubs
    (record,) = [record for record in vectors() if record["task_id"] == "task_102"]
    ref = common_pb2.TaskRef(domain=NO_KNOWLEDGE, split="base", task_id="task_102")
    opened = env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT)
    env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    scoring = scorer_pb2.ScoreEpisodeRequest(
        task=ref,
        termination=common_pb2.TERMINATION_USER_STOP,
        final_data_hash=opened.initial_data_hash,
        conversation=[message_to_proto(ChatMessage(role="user", content=STOP_TOKEN))],
        judge=model_to_proto(judge),
    )
    score = score_from_proto(scorer.ScoreEpisode(scoring, timeout=RPC_TIMEOUT))
    judged = [check for check in score.checks if check.basis == "NL_ASSERTION"]
    assert [check.passed for check in judged] == [True] == [True for _ in record["nl_assertions"]]
    assert score.reward == 0.0  # nothing was done, so the database differs from the gold one
