"""Intervals of pass^k and the average reward: values equal the scorer's, coverage checked by simulation."""

from __future__ import annotations

import numpy as np
import pytest

from taumesh.stats import TrialOutcome, TrialTable, average_reward_interval, pass_hat_k, pass_hat_k_intervals


def _simulated(rng: np.random.Generator, rates: np.ndarray, trials: int) -> TrialTable:
    wins = rng.random((len(rates), trials)) < rates[:, None]
    return TrialTable(TrialOutcome(str(t), j, float(wins[t, j])) for t in range(len(rates)) for j in range(trials))


def test_estimates_equal_the_scorers_pass_hat_k() -> None:
    rng = np.random.default_rng(3)
    table = _simulated(rng, rng.random(40), 5)
    outcomes = [
        TrialOutcome(task, trial, reward)
        for task, rewards in table.by_task.items()
        for trial, reward in rewards.items()
    ]
    expected = pass_hat_k(outcomes)
    intervals = pass_hat_k_intervals(table, n_resamples=199)
    assert {k: round(i.estimate, 12) for k, i in intervals.items()} == {
        k: round(v, 12) for k, v in expected.values.items()
    }
    assert average_reward_interval(table, n_resamples=199).estimate == pytest.approx(expected.average_reward)
    for interval in intervals.values():
        assert interval.low <= interval.estimate <= interval.high
        assert "bootstrap BCa over 40 tasks" in interval.method


def test_a_run_with_no_spread_gets_a_point_interval() -> None:
    table = TrialTable(TrialOutcome(str(t), j, 1.0) for t in range(20) for j in range(3))
    for interval in pass_hat_k_intervals(table, n_resamples=199).values():
        assert (interval.low, interval.estimate, interval.high) == (1.0, 1.0, 1.0)


def test_missing_trials_count_as_failures_and_flips_are_flagged() -> None:
    table = TrialTable(
        [
            TrialOutcome("1", 0, 1.0),
            TrialOutcome("1", 1, 1.0),
            TrialOutcome("2", 0, 1.0),
            TrialOutcome("3", 0, 0.0),
            TrialOutcome("3", 1, 0.5),
        ]
    )
    records = {r.task_id: r for r in table.records()}
    assert records["1"].success_rate == 1.0 and not records["1"].flips
    assert records["2"].success_rate == 0.5 and not records["2"].flips  # one trial, no flip seen
    assert records["3"].average_reward == 0.25 and not records["3"].flips
    assert table.flipping() == []
    flip = TrialTable([TrialOutcome("7", 0, 1.0), TrialOutcome("7", 1, 0.0)])
    assert flip.flipping() == ["7"]


@pytest.mark.parametrize(
    ("label", "trials", "k"),
    [("every task p = 0.6", 3, 1), ("every task p = 0.6", 3, 2), ("tasks p ~ Beta(2, 1.5)", 2, 1)],
)
def test_the_95_interval_covers_the_truth_in_90_to_99_percent_of_200_runs(label: str, trials: int, k: int) -> None:
    """200 simulated runs of 115 tasks with known success rates: how often the interval holds the true pass^k."""
    rng = np.random.default_rng(2026)
    covered = 0
    for run in range(200):
        if label.startswith("every"):
            rates, truth = np.full(115, 0.6), 0.6**k
        else:  # the tasks themselves drawn from a population: the truth is the population's pass^1
            rates, truth = rng.beta(2, 1.5, 115), 2 / 3.5
        table = _simulated(rng, rates, trials)
        interval = pass_hat_k_intervals(table, n_resamples=999, seed=run, k_max=k)[k]
        covered += interval.low <= truth <= interval.high
    assert 0.90 <= covered / 200 <= 0.99, f"{label}, pass^{k}: {covered}/200 intervals held the truth"


def test_average_reward_interval_coverage() -> None:
    rng = np.random.default_rng(7)
    covered = 0
    for run in range(200):
        rewards = rng.random((115, 2)) < 0.45
        table = TrialTable(TrialOutcome(str(t), j, float(rewards[t, j])) for t in range(115) for j in range(2))
        interval = average_reward_interval(table, n_resamples=999, seed=run)
        covered += interval.low <= 0.45 <= interval.high
    assert 0.90 <= covered / 200 <= 0.99
