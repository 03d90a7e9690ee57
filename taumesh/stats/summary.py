"""A run's uncertainty as one record for files and answers: pass^k and the average reward with intervals, per task.

What the end-of-run summary prints (``taumesh.orchestrator.results.figures``), as data: the REST API's metrics, τ²'s
document and the MT folder carry it. Same defaults (level, method, resamples, seed), so the same run gets the same
intervals everywhere.
"""

from __future__ import annotations

from pydantic import BaseModel

from taumesh.stats.intervals import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    Interval,
    average_reward_interval,
    pass_hat_k_intervals,
)
from taumesh.stats.trials import TaskRecord, TrialTable


class RunStatistics(BaseModel):
    """pass^k (k = 1..trials, keyed by k as a string) and the average reward with their intervals; every task."""

    pass_hat_k: dict[str, Interval]
    average_reward: Interval
    level: float
    method: str
    """How every interval here was made (e.g. ``bootstrap BCa over 115 tasks, trials nested (9999 resamples)``)."""
    tasks: int
    trials: int
    flipping_tasks: list[str]
    """Tasks some of whose trials succeeded and some failed."""
    per_task: list[TaskRecord]


def run_statistics(
    table: TrialTable, *, level: float = DEFAULT_LEVEL, n_resamples: int = DEFAULT_RESAMPLES
) -> RunStatistics:
    """The statistics of a run's scored trials."""
    intervals = pass_hat_k_intervals(table, level=level, n_resamples=n_resamples)
    average = average_reward_interval(table, level=level, n_resamples=n_resamples)
    return RunStatistics(
        pass_hat_k={str(k): interval for k, interval in intervals.items()},
        average_reward=average,
        level=level,
        method=average.method,
        tasks=table.tasks,
        trials=table.trials,
        flipping_tasks=table.flipping(),
        per_task=table.records(),
    )
