"""pass^k: the chance that all k of k trials of a task succeed, averaged over tasks (τ-bench)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import comb

from pydantic import BaseModel


class Outcome(BaseModel):
    """One scored trial."""

    task_id: int
    trial: int
    reward: float


class PassHatK(BaseModel):
    """pass^k for k = 1..n, with the counts behind it."""

    values: dict[int, float]
    task_count: int
    trials_per_task: int
    average_reward: float


def is_success(reward: float) -> bool:
    """τ-bench counts a trial as a success when its reward is 1 (within 1e-6)."""
    return 1 - 1e-6 <= reward <= 1 + 1e-6


def pass_hat_k(outcomes: Iterable[Outcome], ks: Iterable[int] = ()) -> PassHatK:
    """Mean over tasks of C(c, k) / C(n, k), with c successes in n trials, as τ-bench computes it.

    n is the number of distinct trial numbers; a task with fewer scored trials counts its missing
    ones as failures. Raises ValueError on no outcomes or a k outside 1..n.
    """
    outcomes = list(outcomes)
    if not outcomes:
        raise ValueError("no outcomes to compute pass^k over")
    successes: dict[int, int] = defaultdict(int)
    for outcome in outcomes:
        successes[outcome.task_id] += is_success(outcome.reward)
    n = len({outcome.trial for outcome in outcomes})
    wanted = sorted(set(ks)) or list(range(1, n + 1))
    if any(not 1 <= k <= n for k in wanted):
        raise ValueError(f"k must be between 1 and the number of trials ({n}), got {wanted}")
    values = {k: sum(comb(c, k) / comb(n, k) for c in successes.values()) / len(successes) for k in wanted}
    average = sum(outcome.reward for outcome in outcomes) / len(outcomes)
    return PassHatK(values=values, task_count=len(successes), trials_per_task=n, average_reward=average)
