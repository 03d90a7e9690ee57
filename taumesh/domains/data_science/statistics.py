"""The desk's statistics, in plain Python: every figure a report, a test or a model states is computed here.

The functions are deterministic and round only at the end (:func:`two`), so a figure the agent reads from a tool is
the figure a task expects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def two(value: float) -> float:
    """``value`` to two decimals, as every stored figure is kept."""
    return round(value + 1e-12, 2)


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (of one value or more)."""
    return sum(values) / len(values)


def median(values: Sequence[float]) -> float:
    """The middle value, or the mean of the two middle values."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def sample_std(values: Sequence[float]) -> float:
    """The standard deviation with ``n - 1`` in the denominator (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))


def welch_t(first: Sequence[float], second: Sequence[float]) -> float:
    """The absolute Welch t statistic comparing the means of two groups (each of two values or more)."""
    spread = sample_std(first) ** 2 / len(first) + sample_std(second) ** 2 / len(second)
    if spread == 0:
        return 0.0
    return abs(mean(first) - mean(second)) / math.sqrt(spread)


def least_squares(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """The slope and intercept of the straight line through ``(xs, ys)`` with the least squared error."""
    x_bar, y_bar = mean(xs), mean(ys)
    spread = sum((x - x_bar) ** 2 for x in xs)
    slope = 0.0 if spread == 0 else sum((x - x_bar) * (y - y_bar) for x, y in zip(xs, ys, strict=True)) / spread
    return slope, y_bar - slope * x_bar


def rmse(slope: float, intercept: float, xs: Sequence[float], ys: Sequence[float]) -> float:
    """The root mean squared error of the line on ``(xs, ys)``."""
    errors = [(slope * x + intercept - y) ** 2 for x, y in zip(xs, ys, strict=True)]
    return math.sqrt(sum(errors) / len(errors))


def summary_figures(found: Sequence[float]) -> dict[str, float]:
    """A summary report's figures over recorded values: count, mean, median and sample standard deviation."""
    return {
        "count": float(len(found)),
        "mean": two(mean(found)),
        "median": two(median(found)),
        "std": two(sample_std(found)),
    }
