"""ScorerService over real gRPC: τ-bench v1's reward vectors played through the env service, and pass^k."""

from __future__ import annotations

import json
import math
from typing import Any

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.convert import score_from_proto
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.stats import SUCCESS_TOLERANCE, TrialOutcome, TrialTable, pass_hat_k_intervals
from tests.helpers.grpc_services import RPC_TIMEOUT, EnvClient, aborted, done, task_ref
from tests.helpers.paths import V1_VECTORS, read_jsonl


def _rows(filename: str) -> list[dict[str, Any]]:
    path = V1_VECTORS / filename
    return list(read_jsonl(path)) if path.is_file() else []


REWARD_CASES = _rows("reward_cases.jsonl")
TASKS = {
    (row["env"], row["split"], row["task_id"]): row
    for name in ("retail_test", "retail_train", "retail_dev", "airline_test")
    for row in _rows(f"{name}.jsonl")
}
GOLD_TASKS = [row for key, row in TASKS.items() if key[1] == "test"] + [
    row for key, row in TASKS.items() if key[1] != "test"
]


def assistant(content: str) -> common_pb2.Message:
    return common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=content)


def score(
    stub: scorer_pb2_grpc.ScorerServiceStub,
    domain: str,
    split: str,
    index: int,
    final_hash: str,
    conversation: list[common_pb2.Message],
    ended: bool = True,
) -> scorer_pb2.ScoreEpisodeResponse:
    termination = common_pb2.TERMINATION_USER_STOP if ended else common_pb2.TERMINATION_MAX_STEPS
    request = scorer_pb2.ScoreEpisodeRequest(
        task=task_ref(domain, split, index),
        termination=termination,
        final_data_hash=final_hash,
        conversation=conversation,
    )
    return stub.ScoreEpisode(request, timeout=RPC_TIMEOUT)


def info_of(response: scorer_pb2.ScoreEpisodeResponse) -> dict[str, Any] | None:
    """The response's reward info in τ-bench's JSON shape (outputs as an ordered dict), from its checks."""
    reward_info = score_from_proto(response).tau_bench_reward_info()
    return reward_info["info"] if reward_info else None


def assert_same_info(actual: dict[str, Any] | None, expected: dict[str, Any]) -> None:
    assert actual == expected
    if "outputs" in expected:  # dict equality ignores order; the proto promises the task's order
        assert list(actual["outputs"]) == list(expected["outputs"])  # type: ignore[index]


def assert_gold_actions(response: scorer_pb2.ScoreEpisodeResponse, task: dict[str, Any]) -> None:
    gold = [(a["name"], a["kwargs"]) for a in task["actions"] if a["name"] != "respond"]
    assert [(a.name, json.loads(a.kwargs_json)) for a in response.gold_actions] == gold
    assert list(response.required_outputs) == task["expected_outputs"]


def test_reward_vectors_present() -> None:
    assert len(REWARD_CASES) == 17
    assert len(TASKS) == 685
    assert {"r_outputs" in c["reward_info"] for c in REWARD_CASES} == {True, False}
    assert {c["reward"] for c in REWARD_CASES} == {0.0, 1.0}


@pytest.mark.parametrize("case", REWARD_CASES, ids=[f"{i}-{c['description'][:50]}" for i, c in enumerate(REWARD_CASES)])
def test_reward_case(env: EnvClient, scorer_stub: scorer_pb2_grpc.ScorerServiceStub, case: dict[str, Any]) -> None:
    opened = env.open(case["env"], case["split"], case["task_id"])
    try:
        for index, action in enumerate(case["actions"]):
            result = env.call(opened.session_id, action["name"], json.dumps(action["kwargs"]))
            assert not aborted(result), f"step {index} {action['name']}"
            # only the last action may end the episode (the transfer of task 13)
            assert done(result) == (action["name"] == "transfer_to_human_agents"), f"step {index}"
        final = env.final(opened.session_id)
    finally:
        env.close(opened.session_id)
    response = score(
        scorer_stub,
        case["env"],
        case["split"],
        case["task_id"],
        final.data_hash,
        [assistant(content) for content in case["respond_contents"]],
    )
    assert response.reward == case["reward"]
    assert_same_info(info_of(response), case["reward_info"])
    assert_gold_actions(response, TASKS[(case["env"], case["split"], case["task_id"])])


@pytest.mark.parametrize("task", GOLD_TASKS, ids=[f"{t['env']}-{t['split']}-{t['task_id']}" for t in GOLD_TASKS])
def test_gold_final_state_scores_one(scorer_stub: scorer_pb2_grpc.ScorerServiceStub, task: dict[str, Any]) -> None:
    """The gold final state (proven equal to the env's in test_env_vectors_grpc) with the vector's last respond."""
    conversation = [assistant(task["respond_content"])] if task.get("respond_content") else []
    response = score(scorer_stub, task["env"], task["split"], task["task_id"], task["final_hash"], conversation)
    assert response.reward == task["reward"] == 1.0
    assert_same_info(info_of(response), task["reward_info"])
    database = next(check for check in response.checks if check.basis == scorer_pb2.REWARD_BASIS_DB)
    assert database.passed
    assert database.expected == database.actual == task["gt_data_hash"]
    assert [c.subject for c in response.checks if c.basis == scorer_pb2.REWARD_BASIS_COMMUNICATE] == list(
        task["reward_info"].get("outputs", {})
    )
    assert_gold_actions(response, task)


def test_gold_state_through_env_scores_one(env: EnvClient, scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    """End to end for one task with required outputs: env replay, final state, scoring."""
    task = TASKS[("retail", "test", 37)]
    opened = env.open("retail", "test", 37)
    try:
        for action in task["actions"]:
            env.call(opened.session_id, action["name"], json.dumps(action["kwargs"]))
        final = env.final(opened.session_id)
    finally:
        env.close(opened.session_id)
    response = score(scorer_stub, "retail", "test", 37, final.data_hash, [assistant(task["respond_content"])])
    assert response.reward == 1.0
    assert_same_info(info_of(response), {"r_outputs": 1.0, "outputs": {"camera": True, "481.5": True}})


def test_not_ended_gives_zero_and_no_info(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    task = TASKS[("retail", "test", 0)]
    response = score(scorer_stub, "retail", "test", 0, task["final_hash"], [assistant("ok")], ended=False)
    assert response.reward == 0.0
    assert not response.checks
    assert_gold_actions(response, task)
    # and no final hash is needed for an episode that did not end
    response = score(scorer_stub, "retail", "test", 0, "", [], ended=False)
    assert response.reward == 0.0
    assert not response.checks


def test_wrong_final_hash_scores_zero(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    task = TASKS[("airline", "test", 0)]
    response = score(scorer_stub, "airline", "test", 0, task["initial_hash"], [assistant("ok")])
    assert response.reward == 0.0
    assert info_of(response) == {"r_actions": 0.0, "gt_data_hash": task["gt_data_hash"]}


def test_outputs_only_count_in_assistant_texts(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    """Outputs said by the user, by a tool, or in an assistant message that calls a tool are not respond actions."""
    task = TASKS[("retail", "test", 2)]
    call = common_pb2.ToolCall(id="c1", name="think", arguments_json='{"thought": "10"}')
    conversation = [
        common_pb2.Message(role=common_pb2.ROLE_SYSTEM, content="policy 10"),
        common_pb2.Message(role=common_pb2.ROLE_USER, content="I want 10"),
        common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content="10", tool_calls=[call]),
        common_pb2.Message(role=common_pb2.ROLE_TOOL, content="10", tool_call_id="c1", name="think"),
        assistant("Done."),
    ]
    response = score(scorer_stub, "retail", "test", 2, task["final_hash"], conversation)
    assert response.reward == 0.0
    assert info_of(response) == {"r_outputs": 0.0, "outputs": {"10": False}}
    response = score(scorer_stub, "retail", "test", 2, task["final_hash"], [*conversation, assistant("It is 10.")])
    assert response.reward == 1.0
    assert info_of(response) == {"r_outputs": 1.0, "outputs": {"10": True}}


def _outcomes(successes: dict[int, int], trials: int) -> list[scorer_pb2.TrialOutcome]:
    return [
        scorer_pb2.TrialOutcome(task_id=str(task), trial=trial, reward=1.0 if trial < count else 0.0)
        for task, count in successes.items()
        for trial in range(trials)
    ]


def pass_hat_k(
    stub: scorer_pb2_grpc.ScorerServiceStub,
    outcomes: list[scorer_pb2.TrialOutcome],
    ks: list[int] = (),  # type: ignore[assignment]
) -> scorer_pb2.ComputePassHatKResponse:
    return stub.ComputePassHatK(scorer_pb2.ComputePassHatKRequest(outcomes=outcomes, ks=ks), timeout=RPC_TIMEOUT)


def test_pass_hat_k_hand_computed(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    # task 0: 4/4 successes, task 1: 2/4. pass^k = mean over tasks of C(c, k) / C(4, k).
    response = pass_hat_k(scorer_stub, _outcomes({0: 4, 1: 2}, 4))
    assert [v.k for v in response.values] == [1, 2, 3, 4]
    expected = [0.75, (1 + 1 / 6) / 2, 0.5, 0.5]
    assert [v.value for v in response.values] == pytest.approx(expected, abs=1e-12)
    assert response.task_count == 2
    assert response.trials_per_task == 4
    assert response.average_reward == pytest.approx(0.75)


def test_pass_hat_k_selected_ks_ascending(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    response = pass_hat_k(scorer_stub, _outcomes({0: 4, 1: 2, 2: 1}, 4), ks=[3, 1, 3])
    assert [v.k for v in response.values] == [1, 3]
    assert [v.value for v in response.values] == pytest.approx([(1 + 0.5 + 0.25) / 3, 1 / 3], abs=1e-12)
    assert response.task_count == 3


def test_pass_hat_k_partial_reward_is_a_failure(scorer_stub: scorer_pb2_grpc.ScorerServiceStub) -> None:
    outcomes = [
        scorer_pb2.TrialOutcome(task_id="7", trial=0, reward=1.0),
        scorer_pb2.TrialOutcome(task_id="7", trial=1, reward=0.5),
    ]
    response = pass_hat_k(scorer_stub, outcomes)
    assert [(v.k, v.value) for v in response.values] == [(1, 0.5), (2, 0.0)]
    assert response.average_reward == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("outcomes", "ks", "fragment"),
    [
        ([], [], "no outcomes"),
        (_outcomes({0: 1}, 2), [3], "k must be between 1 and the number of trials (2)"),
        (_outcomes({0: 1}, 2), [0], "k must be between 1"),
        (_outcomes({0: 1}, 2), [-1], "k must be between 1"),
    ],
    ids=["empty", "k-too-big", "k-zero", "k-negative"],
)
def test_pass_hat_k_invalid(
    scorer_stub: scorer_pb2_grpc.ScorerServiceStub,
    outcomes: list[scorer_pb2.TrialOutcome],
    ks: list[int],
    fragment: str,
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        pass_hat_k(scorer_stub, outcomes, ks)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert fragment in raised.value.details()


BOUNDARY_REWARDS = {
    "at-low-bound": 1 - SUCCESS_TOLERANCE,
    "just-below": math.nextafter(1 - SUCCESS_TOLERANCE, 0.0),
    "at-high-bound": 1 + SUCCESS_TOLERANCE,
    "just-above": math.nextafter(1 + SUCCESS_TOLERANCE, 2.0),
}


def test_the_scorer_and_the_intervals_count_the_same_successes_at_the_bounds(
    scorer_stub: scorer_pb2_grpc.ScorerServiceStub,
) -> None:
    """The scorer's pass^k and the intervals' table (the figures, the viewer's uncertainty) share one success test:
    the table once counted a reward of exactly 1 - 1e-6 as a failure, the scorer as a success."""
    outcomes = [scorer_pb2.TrialOutcome(task_id=task, trial=0, reward=r) for task, r in BOUNDARY_REWARDS.items()]
    response = pass_hat_k(scorer_stub, outcomes)
    assert [(v.k, v.value) for v in response.values] == [(1, 0.5)]
    table = TrialTable(TrialOutcome(o.task_id, o.trial, o.reward) for o in outcomes)
    successes = dict(zip(table.task_ids, table.successes.tolist(), strict=True))
    assert successes == {"at-low-bound": 1, "just-below": 0, "at-high-bound": 1, "just-above": 0}
    assert pass_hat_k_intervals(table, n_resamples=99)[1].estimate == response.values[0].value
