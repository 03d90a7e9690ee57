"""The one success test: a reward of 1 within 1e-6, both bounds included, as τ-bench's pass^k writes it."""

from __future__ import annotations

import math

import pytest

from taumesh.stats import SUCCESS_TOLERANCE, is_success


@pytest.mark.parametrize(
    ("reward", "succeeds"),
    [
        (1.0, True),
        (1 - SUCCESS_TOLERANCE, True),
        (math.nextafter(1 - SUCCESS_TOLERANCE, 0.0), False),
        (1 + SUCCESS_TOLERANCE, True),
        (math.nextafter(1 + SUCCESS_TOLERANCE, 2.0), False),
        (0.999999, True),
        (0.9999989, False),
        (0.0, False),
        (2.0, False),
    ],
)
def test_a_reward_succeeds_within_the_tolerance_of_one(reward: float, succeeds: bool) -> None:
    assert is_success(reward) is succeeds


def test_the_tolerance_is_tau_benchs() -> None:
    assert SUCCESS_TOLERANCE == 1e-6
