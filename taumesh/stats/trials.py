"""Scored trials arranged by task in numpy arrays: success counts, per-task rates, the all-k-succeed ratios.

The success test and the trial record are :mod:`taumesh.stats.success`'s (re-exported here), which needs no numpy.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from taumesh.stats.success import SUCCESS_TOLERANCE, TrialOutcome, all_k_succeed, is_success

__all__ = ["SUCCESS_TOLERANCE", "TaskRecord", "TrialOutcome", "TrialTable", "all_k_succeed", "is_success"]


class TaskRecord(BaseModel):
    """One task over its trials."""

    task_id: str
    trials: int
    """Scored trials of the task."""
    successes: int
    success_rate: float
    average_reward: float
    flips: bool
    """Some trials succeeded and some failed: the verdict depends on which trial is looked at."""


def _order(task_id: str) -> tuple[int, int | str]:
    return (0, int(task_id)) if task_id.isdecimal() else (1, task_id)


class TrialTable:
    """A run's scored trials by task, in task order (numeric ids by value).

    ``trials`` is the number of distinct trial numbers: as in τ-bench's pass^k, a task with fewer scored trials
    counts the missing ones as failures (and its average reward is over the trials it has).
    """

    def __init__(self, outcomes: Iterable[TrialOutcome]) -> None:
        by_task: dict[str, dict[int, float]] = {}
        for outcome in outcomes:
            by_task.setdefault(str(outcome.task_id), {})[int(outcome.trial)] = float(outcome.reward)
        if not by_task:
            raise ValueError("no scored trials")
        self.task_ids: list[str] = sorted(by_task, key=_order)
        self.trial_ids: list[int] = sorted({trial for rewards in by_task.values() for trial in rewards})
        self.by_task = by_task
        self.successes: NDArray[np.int64] = np.array(
            [sum(is_success(r) for r in by_task[t].values()) for t in self.task_ids], dtype=np.int64
        )
        self.reward_sums: NDArray[np.float64] = np.array([sum(by_task[t].values()) for t in self.task_ids])
        self.counts: NDArray[np.int64] = np.array([len(by_task[t]) for t in self.task_ids], dtype=np.int64)

    @property
    def tasks(self) -> int:
        return len(self.task_ids)

    @property
    def trials(self) -> int:
        return len(self.trial_ids)

    def success_rates(self) -> NDArray[np.float64]:
        """Per task: successes over the run's trials (missing trials count as failures)."""
        return self.successes / self.trials

    def mean_rewards(self) -> NDArray[np.float64]:
        """Per task: the average reward over its scored trials."""
        return self.reward_sums / self.counts

    def records(self) -> list[TaskRecord]:
        """Every task's success rate over trials, with the flag for a verdict that flips between trials."""
        return [
            TaskRecord(
                task_id=task,
                trials=int(self.counts[i]),
                successes=int(self.successes[i]),
                success_rate=float(self.successes[i] / self.trials),
                average_reward=float(self.reward_sums[i] / self.counts[i]),
                flips=0 < int(self.successes[i]) < int(self.counts[i]),
            )
            for i, task in enumerate(self.task_ids)
        ]

    def flipping(self) -> list[str]:
        """The tasks some of whose trials succeeded and some failed."""
        return [record.task_id for record in self.records() if record.flips]

    def all_k_succeed(self, k: int) -> NDArray[np.float64]:
        """Per task: C(c, k) / C(n, k), the chance that k trials drawn without replacement all succeed."""
        n = self.trials
        if not 1 <= k <= n:
            raise ValueError(f"k must be between 1 and the number of trials ({n}), got {k}")
        counts: list[int] = self.successes.tolist()
        ratio_of: dict[int, float] = {}
        for c in set(counts):  # tasks with the same count share one product, the scorer's
            ratios = all_k_succeed(c, n, k)
            ratio_of[c] = ratios[-1] if len(ratios) == k else 0.0
        return np.array([ratio_of[c] for c in counts], dtype=np.float64)
