"""Scored trials arranged by task: the success test, success counts, per-task rates, the all-k-succeed ratios.

The success test (:func:`is_success`, :data:`SUCCESS_TOLERANCE`) is declared here once: the scorer's pass^k, the
intervals, the REST API, the viewer (its JavaScript gets the tolerance from the server), tracing and the audits
call it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

SUCCESS_TOLERANCE = 1e-6
"""τ-bench counts a trial as a success when its reward is 1 within this tolerance."""


class TrialOutcome(NamedTuple):
    """One scored trial of one task."""

    task_id: str
    trial: int
    reward: float


def is_success(reward: float) -> bool:
    """τ-bench's success: a reward of 1 within :data:`SUCCESS_TOLERANCE`, as τ-bench writes it.

    The bounds are computed as ``1 ∓ tolerance`` (not ``abs(reward - 1)``): a reward of exactly ``1 - 1e-6``
    succeeds, as in τ-bench's pass^k. The viewer's JavaScript compares the same way with the tolerance it is sent.
    """
    return 1 - SUCCESS_TOLERANCE <= reward <= 1 + SUCCESS_TOLERANCE


def all_k_succeed(successes: int, trials: int, k_max: int) -> list[float]:
    """C(c, k) / C(n, k) for k = 1..min(c, k_max), with c successes in n trials (zero for every larger k).

    Built as the running product of (c - i) / (n - i): one float division and one multiplication per k, never
    the big integers of C(n, k). Relative error at most about k × 2⁻⁵³ (1e-12 for k = 9,000); a value below
    float's range is 0.0, as the exact quotient converted to float would be.
    """
    ratios: list[float] = []
    ratio = 1.0
    for i in range(min(successes, k_max)):
        ratio *= (successes - i) / (trials - i)
        ratios.append(ratio)
    return ratios


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
