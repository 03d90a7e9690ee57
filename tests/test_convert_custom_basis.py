"""A domain's own kind of reward check on the wire: REWARD_BASIS_CUSTOM and its name, both ways; bad names refused."""

from __future__ import annotations

import pytest

from taumesh.convert import ConversionError, score_from_proto, score_to_proto
from taumesh.models import RewardCheck, Score
from taumesh.scorer.v1 import scorer_pb2


def test_custom_and_standard_kinds_round_trip_in_order() -> None:
    score = Score(
        reward=1.0,
        reward_basis=["DB", "KNOWLEDGE", "COMMUNICATE", "CITATION"],
        checks=[
            RewardCheck(basis="KNOWLEDGE", subject="doc", passed=True),
            RewardCheck(basis="DB", subject="database", passed=True),
        ],
    )
    wire = score_to_proto(score)
    assert list(wire.reward_basis) == [
        scorer_pb2.REWARD_BASIS_DB,
        scorer_pb2.REWARD_BASIS_CUSTOM,
        scorer_pb2.REWARD_BASIS_COMMUNICATE,
        scorer_pb2.REWARD_BASIS_CUSTOM,
    ]
    assert list(wire.custom_reward_basis) == ["KNOWLEDGE", "CITATION"]
    assert wire.checks[0].custom_basis == "KNOWLEDGE" and wire.checks[1].custom_basis == ""
    assert score_from_proto(wire) == score


@pytest.mark.parametrize("name", ["", "knowledge", "DB CHECK"])
def test_a_custom_check_without_a_valid_name_is_an_error(name: str) -> None:
    wire = scorer_pb2.ScoreEpisodeResponse(
        reward=1.0,
        checks=[scorer_pb2.RewardCheck(basis=scorer_pb2.REWARD_BASIS_CUSTOM, custom_basis=name, subject="x")],
    )
    with pytest.raises(ConversionError, match="custom basis name"):
        score_from_proto(wire)


def test_a_custom_basis_entry_without_its_name_is_an_error() -> None:
    wire = scorer_pb2.ScoreEpisodeResponse(reward=1.0, reward_basis=[scorer_pb2.REWARD_BASIS_CUSTOM])
    with pytest.raises(ConversionError, match="custom basis name ''"):
        score_from_proto(wire)
