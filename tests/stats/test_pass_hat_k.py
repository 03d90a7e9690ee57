"""pass^k's closed form in floats agrees with the exact rational C(c, k) / C(n, k), and stays cheap."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taumesh.stats import MAX_OUTCOMES, TrialOutcome, pass_hat_k


def exact(successes: list[int], n: int, k: int) -> Fraction:
    """τ-bench's definition, in exact rationals."""
    return sum((Fraction(math.comb(c, k), math.comb(n, k)) for c in successes), Fraction(0)) / len(successes)


def outcomes_of(successes: list[int], n: int) -> list[TrialOutcome]:
    """n trials of each task, the first c of them successes."""
    return [
        TrialOutcome(task_id=str(task), trial=trial, reward=1.0 if trial < c else 0.0)
        for task, c in enumerate(successes)
        for trial in range(n)
    ]


def assert_close(value: float, want: Fraction) -> None:
    # 1e-300: below float's range the exact quotient itself is 0.0 or subnormal
    assert math.isclose(value, float(want), rel_tol=1e-12, abs_tol=1e-300), (value, float(want))


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[int], int, list[int]]:
    n = draw(st.integers(1, 60))
    successes = draw(st.lists(st.integers(0, n), min_size=1, max_size=12))
    ks = draw(st.lists(st.integers(1, n), max_size=6))
    return successes, n, ks


@settings(max_examples=300, deadline=None)
@given(runs())
def test_matches_the_exact_rational_result(run: tuple[list[int], int, list[int]]) -> None:
    successes, n, ks = run
    result = pass_hat_k(outcomes_of(successes, n), ks)
    assert sorted(result.values) == (sorted(set(ks)) or list(range(1, n + 1)))
    for k, value in result.values.items():
        assert_close(value, exact(successes, n, k))
    assert result.task_count == len(successes) and result.trials_per_task == n


def test_ten_thousand_trials_of_one_task_with_every_k() -> None:
    n, c = 10_000, 9_990
    result = pass_hat_k(outcomes_of([c], n))
    assert list(result.values) == list(range(1, n + 1))
    for k in (1, 2, 10, 500, 9_000, c):
        assert_close(result.values[k], exact([c], n, k))
    assert result.values[c + 1] == 0.0 and result.values[n] == 0.0


def test_large_runs_with_many_success_counts() -> None:
    n = 400
    successes = [n - (task % 37) for task in range(200)]
    result = pass_hat_k(outcomes_of(successes, n))
    for k in (1, 7, 100, 363, 399, 400):
        assert_close(result.values[k], exact(successes, n, k))


def test_missing_trials_count_as_failures() -> None:
    outcomes = [TrialOutcome(task_id="0", trial=t, reward=1.0) for t in range(4)] + [
        TrialOutcome(task_id="1", trial=0, reward=1.0)
    ]
    assert pass_hat_k(outcomes, [1, 2]).values == {1: (1 + 1 / 4) / 2, 2: 1 / 2}


def test_the_request_size_is_bounded() -> None:
    one_too_many = [TrialOutcome(task_id=str(i), trial=0, reward=1.0) for i in range(MAX_OUTCOMES + 1)]
    with pytest.raises(ValueError, match=f"at most {MAX_OUTCOMES} outcomes"):
        pass_hat_k(one_too_many)
    assert pass_hat_k(one_too_many[:MAX_OUTCOMES]).values == {1: 1.0}


def test_a_k_outside_the_trials_is_named_alone() -> None:
    with pytest.raises(ValueError, match=r"number of trials \(2\), got 3$"):
        pass_hat_k(outcomes_of([1], 2), [1, 3, *range(4, 10_000)])
