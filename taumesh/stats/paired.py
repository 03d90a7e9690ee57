"""Paired comparison of two runs on the same tasks and trials: the difference, its interval, a test, plain words.

Each task is a pair (its success rate over the trials in run A and in run B). The difference in pass^1 is the mean
of the per-task differences; its interval is scipy's bootstrap over tasks; the test is scipy's paired permutation
test (the sign of each task's difference flipped at random under "no difference").
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from taumesh.stats.intervals import DEFAULT_LEVEL, DEFAULT_RESAMPLES, DEFAULT_SEED, Interval, bootstrap_over_tasks
from taumesh.stats.plan import DEFAULT_POWER
from taumesh.stats.trials import TrialOutcome, TrialTable

DRIVING_TASKS = 10
"""The most tasks listed as driving the difference."""


class DrivingTask(BaseModel):
    """A task whose outcome differs between the runs."""

    task_id: str
    rate_a: float
    rate_b: float

    @property
    def difference(self) -> float:
        return self.rate_b - self.rate_a


class PairedComparison(BaseModel):
    """Run B against run A on their shared tasks and trials."""

    name_a: str
    name_b: str
    tasks: int
    trials: int
    pass1_a: float
    pass1_b: float
    pass1_difference: Interval
    """B's pass^1 less A's, with its interval."""
    reward_difference: Interval
    """B's average reward (per-task means, averaged over tasks) less A's."""
    p_value: float
    test: str
    significant: bool
    trials_to_resolve: int | None
    """About how many trials per task would resolve a difference of the observed size (None: nothing to resolve)."""
    driving: list[DrivingTask]
    """The tasks that differ most, B's gains and losses, largest first."""
    better: list[str]
    """Tasks B solved more often than A."""
    worse: list[str]
    """Tasks B solved less often than A."""

    def verdict(self) -> str:
        """The comparison in one sentence."""
        d = self.pass1_difference
        level = f"{d.level * 100:g} %"
        ci = f"{level} CI {d.low * 100:.1f}–{d.high * 100:.1f}"
        if self.significant:
            better, worse = (self.name_b, self.name_a) if d.estimate > 0 else (self.name_a, self.name_b)
            # the interval of the difference as the sentence states it (better less worse): "A is better than B by
            # 58.0 points" beside B less A's "CI -72.0 to -44.0" read as a contradiction
            sign = 1 if d.estimate > 0 else -1
            low, high = sorted((d.low * sign, d.high * sign))
            return (
                f"{better} is better than {worse} by {abs(d.estimate) * 100:.1f} points of pass^1 "
                f"({level} CI {low * 100:.1f}–{high * 100:.1f}, p = {self.p_value:.2g})"
            )
        size = f"{self.tasks} tasks × {self.trials} trial{'s' if self.trials != 1 else ''}"
        observed = f"difference {d.estimate * 100:.1f} points, {ci}, p = {self.p_value:.2g}"
        text = f"no detectable difference with {size} ({observed})"
        if self.trials_to_resolve is not None:
            text += f"; about {self.trials_to_resolve} trials per task would resolve a difference of this size"
        elif d.estimate == 0 and not self.better and not self.worse:
            text += "; the runs agree on every task"
        return text


def _paired_tables(a: TrialTable, b: TrialTable) -> tuple[TrialTable, TrialTable]:
    """Both runs restricted to the tasks and trial numbers both played."""
    tasks = set(a.task_ids) & set(b.task_ids)
    trials = set(a.trial_ids) & set(b.trial_ids)
    if not tasks or not trials:
        raise ValueError("the runs share no task and trial: nothing to pair")

    def keep(table: TrialTable) -> TrialTable:
        return TrialTable(
            TrialOutcome(task, trial, reward)
            for task in tasks
            for trial, reward in table.by_task[task].items()
            if trial in trials
        )

    return keep(a), keep(b)


def compare_paired(
    a: TrialTable,
    b: TrialTable,
    *,
    name_a: str = "A",
    name_b: str = "B",
    level: float = DEFAULT_LEVEL,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    power: float = DEFAULT_POWER,
) -> PairedComparison:
    """B against A on the tasks and trials both played (callers check that the runs are comparable first)."""
    a, b = _paired_tables(a, b)
    rates_a, rates_b = a.success_rates(), b.success_rates()
    rewards_a, rewards_b = a.mean_rewards(), b.mean_rewards()
    pass_diff, reward_diff = rates_b - rates_a, rewards_b - rewards_a
    method = f"paired bootstrap percentile over {a.tasks} tasks, trials nested ({n_resamples} resamples)"

    def interval(per_task: NDArray[np.float64]) -> Interval:
        def mean(idx: NDArray[np.intp]) -> NDArray[np.float64]:
            return np.asarray(per_task[idx].mean(axis=-1))

        estimate, low, high = bootstrap_over_tasks(
            mean, a.tasks, level=level, method="percentile", n_resamples=n_resamples, seed=seed
        )
        return Interval(estimate=estimate, low=low, high=high, level=level, method=method)

    p_value = _permutation_p(rates_a, rates_b, n_resamples, seed)
    pass1 = interval(pass_diff)
    alpha = 1 - level
    significant = p_value < alpha and (pass1.low > 0 or pass1.high < 0)
    order = sorted(range(a.tasks), key=lambda i: (-abs(pass_diff[i]), i))
    driving = [
        DrivingTask(task_id=a.task_ids[i], rate_a=float(rates_a[i]), rate_b=float(rates_b[i]))
        for i in order[:DRIVING_TASKS]
        if pass_diff[i] != 0
    ]
    return PairedComparison(
        name_a=name_a,
        name_b=name_b,
        tasks=a.tasks,
        trials=a.trials,
        pass1_a=float(rates_a.mean()),
        pass1_b=float(rates_b.mean()),
        pass1_difference=pass1,
        reward_difference=interval(reward_diff),
        p_value=p_value,
        test=f"paired permutation test on per-task success rates (two-sided, {n_resamples} resamples)",
        significant=significant,
        trials_to_resolve=None if significant else _trials_to_resolve(pass_diff, a.trials, level, power),
        driving=driving,
        better=[a.task_ids[i] for i in range(a.tasks) if pass_diff[i] > 0],
        worse=[a.task_ids[i] for i in range(a.tasks) if pass_diff[i] < 0],
    )


def _permutation_p(x: NDArray[np.float64], y: NDArray[np.float64], n_resamples: int, seed: int) -> float:
    """Two-sided p-value of scipy's paired permutation test of the mean difference (1 when no pair differs)."""
    from scipy import stats  # type: ignore[import-untyped]  # scipy-stubs is not a dependency

    if not np.any(x != y):
        return 1.0

    def mean_difference(first: NDArray[np.float64], second: NDArray[np.float64], axis: int = -1) -> NDArray[np.float64]:
        return np.asarray(np.mean(second - first, axis=axis))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.permutation_test(
            (x, y),
            mean_difference,
            permutation_type="samples",
            vectorized=True,
            n_resamples=n_resamples,
            alternative="two-sided",
            rng=np.random.default_rng(seed),
        )
    return float(result.pvalue)


def _trials_to_resolve(diff: NDArray[np.float64], trials: int, level: float, power: float) -> int | None:
    """Trials per task at which the observed mean difference would be detected, its spread shrinking as 1/trials.

    n = trials × (z + z_power)² s² / (T d²), with s² the variance of the per-task differences (docs/statistics.md).
    """
    from scipy import stats

    d = float(diff.mean())
    if d == 0 or len(diff) < 2:
        return None
    z, zp = float(stats.norm.ppf(1 - (1 - level) / 2)), float(stats.norm.ppf(power))
    spread = float(np.var(diff, ddof=1))
    return max(trials + 1, math.ceil(trials * (z + zp) ** 2 * spread / (len(diff) * d**2)))
