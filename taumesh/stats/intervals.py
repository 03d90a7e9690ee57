"""Confidence intervals of pass^k and the average reward: scipy's bootstrap over tasks, trials nested in each task.

Tasks are the sampled unit: each resample draws tasks with replacement and keeps every trial of each drawn task,
so the interval covers both the choice of tasks and the trial-to-trial noise within them (docs/statistics.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from taumesh.stats.trials import TrialTable

Method = Literal["BCa", "percentile", "basic"]
DEFAULT_LEVEL = 0.95
DEFAULT_RESAMPLES = 9999
DEFAULT_SEED = 0
"""The resampling's seed: the same run always gets the same interval."""


class Interval(BaseModel):
    """A figure with its confidence interval, and how the interval was made."""

    estimate: float
    low: float
    high: float
    level: float
    method: str
    """E.g. ``bootstrap BCa over 115 tasks (9999 resamples)``."""

    def text(self, scale: float = 1.0, digits: int = 4) -> str:
        """``0.6000 (95 % CI 0.5130–0.6870, bootstrap BCa over 115 tasks)``; ``scale=100`` gives points."""
        e, lo, hi = (f"{value * scale:.{digits}f}" for value in (self.estimate, self.low, self.high))
        return f"{e} ({self.level * 100:g} % CI {lo}–{hi})"


def bootstrap_over_tasks(
    per_task: Callable[[NDArray[np.intp]], NDArray[np.float64]],
    tasks: int,
    *,
    level: float = DEFAULT_LEVEL,
    method: Method = "BCa",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    constant: bool = False,
) -> tuple[float, float, float]:
    """The statistic over all tasks and its interval; ``per_task(idx)`` computes it from the tasks ``idx``.

    ``idx`` has the task indices along its last axis (leading axes are resamples); the statistic must reduce that
    axis. A statistic constant under resampling (every task the same) gets the point interval; ``constant`` says
    the caller knows it is, which spares the resampling.
    """
    indices = np.arange(tasks)
    estimate = float(per_task(indices))
    if tasks < 2 or constant:
        return estimate, estimate, estimate
    # scipy-stubs is not a dependency; ~1 s to import, so only when an interval is computed (a one-task run has none)
    from scipy import stats  # type: ignore[import-untyped]

    def statistic(idx: NDArray[Any], axis: int = -1) -> NDArray[np.float64]:
        return per_task(np.moveaxis(np.asarray(idx, dtype=np.intp), axis, -1))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a degenerate sample: checked below
        result = stats.bootstrap(
            (indices,),
            statistic,
            vectorized=True,
            n_resamples=n_resamples,
            confidence_level=level,
            method=method,
            batch=max(1, 2_000_000 // tasks),
            rng=np.random.default_rng(seed),
        )
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    if not (np.isfinite(low) and np.isfinite(high)):
        return estimate, estimate, estimate  # no spread between tasks: every resample gives the estimate
    return estimate, min(low, estimate), max(high, estimate)


def _same(per_task: NDArray[np.float64]) -> bool:
    """Whether every task has the same value (so does any mean or weighted mean over a resample of them)."""
    return bool(np.all(per_task == per_task[0]))


def _method_text(method: Method, tasks: int, n_resamples: int) -> str:
    return f"bootstrap {method} over {tasks} tasks, trials nested ({n_resamples} resamples)"


def pass_hat_k_intervals(
    table: TrialTable,
    *,
    level: float = DEFAULT_LEVEL,
    method: Method = "BCa",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    k_max: int | None = None,
) -> dict[int, Interval]:
    """pass^k for k = 1..trials (at most ``k_max``), each with its bootstrap interval over tasks."""
    intervals: dict[int, Interval] = {}
    for k in range(1, min(table.trials, k_max or table.trials) + 1):
        contributions = table.all_k_succeed(k)

        def mean(idx: NDArray[np.intp], values: NDArray[np.float64] = contributions) -> NDArray[np.float64]:
            return np.asarray(values[idx].mean(axis=-1))

        estimate, low, high = bootstrap_over_tasks(
            mean,
            table.tasks,
            level=level,
            method=method,
            n_resamples=n_resamples,
            seed=seed,
            constant=_same(contributions),
        )
        intervals[k] = Interval(
            estimate=estimate, low=low, high=high, level=level, method=_method_text(method, table.tasks, n_resamples)
        )
    return intervals


def average_reward_interval(
    table: TrialTable,
    *,
    level: float = DEFAULT_LEVEL,
    method: Method = "BCa",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> Interval:
    """The average reward over scored trials, with its bootstrap interval over tasks (each task's trials kept)."""
    sums, counts = table.reward_sums, table.counts

    def ratio(idx: NDArray[np.intp]) -> NDArray[np.float64]:
        return np.asarray(sums[idx].sum(axis=-1) / counts[idx].sum(axis=-1))

    estimate, low, high = bootstrap_over_tasks(
        ratio,
        table.tasks,
        level=level,
        method=method,
        n_resamples=n_resamples,
        seed=seed,
        constant=_same(table.mean_rewards()),  # every task's average alike: so is every resample's
    )
    return Interval(
        estimate=estimate, low=low, high=high, level=level, method=_method_text(method, table.tasks, n_resamples)
    )
