"""The success test (:func:`is_success`, :data:`SUCCESS_TOLERANCE`), a scored trial, and the all-k-succeed ratio.

Declared here once: the scorer's pass^k, the intervals, the REST API, the viewer (its JavaScript gets the tolerance
from the server), tracing and the audits call it. Plain Python, apart from :mod:`taumesh.stats.trials`' numpy
tables, so the many processes that only test a reward (every service, the worker) do not import numpy.
"""

from __future__ import annotations

from typing import NamedTuple

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
