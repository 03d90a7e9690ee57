"""pass^k: the chance that all k of k trials of a task succeed, averaged over tasks (τ-bench)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel

MAX_OUTCOMES = 100_000
"""The most outcomes one computation accepts (a bound on request size for the scorer service).

The cost is linear in the outcomes (see :func:`pass_hat_k`); 100,000 is 165 tasks × 600 trials, and is answered
in well under a second.
"""


class Outcome(BaseModel):
    """One scored trial."""

    task_id: str
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


def pass_hat_k(outcomes: Iterable[Outcome], ks: Iterable[int] = ()) -> PassHatK:
    """Mean over tasks of C(c, k) / C(n, k), with c successes in n trials, as τ-bench computes it.

    n is the number of distinct trial numbers; a task with fewer scored trials counts its missing
    ones as failures. Tasks with the same c share one product, computed once for every wanted k, so the
    work is linear in the outcomes. Raises ValueError on no outcomes, more than :data:`MAX_OUTCOMES`,
    or a k outside 1..n.
    """
    outcomes = list(outcomes)
    if not outcomes:
        raise ValueError("no outcomes to compute pass^k over")
    if len(outcomes) > MAX_OUTCOMES:
        raise ValueError(f"at most {MAX_OUTCOMES} outcomes per computation, got {len(outcomes)}")
    successes: Counter[str] = Counter()
    for outcome in outcomes:
        successes[outcome.task_id] += is_success(outcome.reward)
    n = len({outcome.trial for outcome in outcomes})
    wanted = sorted(set(ks)) or list(range(1, n + 1))
    outside = [k for k in wanted if not 1 <= k <= n]
    if outside:  # name one: the list itself can be as long as the request
        raise ValueError(f"k must be between 1 and the number of trials ({n}), got {outside[0]}")
    totals = [0.0] * (wanted[-1] + 1)  # totals[k]: the sum over tasks of C(c, k) / C(n, k)
    for c, tasks in Counter(successes.values()).items():
        for k, ratio in enumerate(all_k_succeed(c, n, wanted[-1]), start=1):
            totals[k] += tasks * ratio
    values = {k: totals[k] / len(successes) for k in wanted}
    average = sum(outcome.reward for outcome in outcomes) / len(outcomes)
    return PassHatK(values=values, task_count=len(successes), trials_per_task=n, average_reward=average)
