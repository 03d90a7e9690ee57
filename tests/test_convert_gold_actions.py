"""Gold actions cross the scorer's wire with their requestor, and τ-bench's reward info names only the user's."""

from __future__ import annotations

import pytest

from taumesh.common.v1 import common_pb2
from taumesh.convert import ConversionError, score_from_proto, score_to_proto
from taumesh.models import GoldAction, RewardCheck, Score
from taumesh.scorer.v1 import scorer_pb2

ACTIONS = [
    GoldAction(name="toggle_airplane_mode", kwargs={}, requestor="user"),
    GoldAction(name="refuel_data", kwargs={"customer_id": "C1001", "gb_amount": 2.0}),
    GoldAction(name="reboot_device", requestor="user"),
]
SCORE = Score(
    reward=1.0,
    checks=[RewardCheck(basis="DB", subject="database", passed=True, expected="abc")],
    reward_basis=["DB"],
    gold_actions=ACTIONS,
)


def test_gold_actions_round_trip_with_their_requestors() -> None:
    response = score_to_proto(SCORE)
    assert [a.requestor for a in response.gold_actions] == [
        common_pb2.REQUESTOR_USER,
        common_pb2.REQUESTOR_ASSISTANT,
        common_pb2.REQUESTOR_USER,
    ]
    assert score_from_proto(scorer_pb2.ScoreEpisodeResponse.FromString(response.SerializeToString())) == SCORE


def test_an_unset_requestor_is_the_assistants() -> None:
    response = scorer_pb2.ScoreEpisodeResponse(
        reward=1.0, gold_actions=[scorer_pb2.GoldAction(name="get_user_details", kwargs_json='{"user_id": "u1"}')]
    )
    (action,) = score_from_proto(response).gold_actions
    assert action == GoldAction(name="get_user_details", kwargs={"user_id": "u1"}, requestor="assistant")


def test_an_unknown_requestor_is_refused() -> None:
    response = scorer_pb2.ScoreEpisodeResponse(gold_actions=[scorer_pb2.GoldAction(name="x", requestor=7)])  # type: ignore[arg-type]
    with pytest.raises(ConversionError, match="requestor 7"):
        score_from_proto(response)


def test_reward_info_names_the_requestor_of_the_users_actions_only() -> None:
    info = SCORE.tau_bench_reward_info()
    assert info is not None
    assert info["actions"] == [
        {"name": "toggle_airplane_mode", "kwargs": {}, "requestor": "user"},
        {"name": "refuel_data", "kwargs": {"customer_id": "C1001", "gb_amount": 2.0}},
        {"name": "reboot_device", "kwargs": {}, "requestor": "user"},
    ]
    assert [GoldAction.model_validate(action) for action in info["actions"]] == ACTIONS, "read back as written"
