"""pass^k: the chance that all k of k trials of a task succeed, averaged over tasks (τ-bench).

The one implementation: the scorer service's ComputePassHatK, the REST API, the viewer and the report all call
:func:`pass_hat_k`; the intervals (:mod:`taumesh.stats.intervals`) use the same per-task ratios
(:func:`taumesh.stats.success.all_k_succeed`) and the same success test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel

from taumesh.stats.success import TrialOutcome, all_k_succeed, is_success

MAX_OUTCOMES = 100_000
"""The most outcomes one computation accepts (a bound on request size for the scorer service).

The cost is linear in the outcomes (see :func:`pass_hat_k`); 100,000 is 165 tasks × 600 trials, and is answered
in well under a second.
"""


class PassHatK(BaseModel):
    """pass^k for k = 1..n, with the counts behind it."""

    values: dict[int, float]
    task_count: int
    trials_per_task: int
    average_reward: float


def pass_hat_k(outcomes: Iterable[TrialOutcome], ks: Iterable[int] = ()) -> PassHatK:
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
