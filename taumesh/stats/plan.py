"""How many trials a run needs: for a target interval width, or to detect a difference between two runs.

Two variance models (docs/statistics.md): the binomial one (every trial a coin of the expected pass rate) and a
pilot run's (its tasks' observed success rates split into between-task and within-task variance).
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from pydantic import BaseModel

from taumesh.stats.trials import TrialTable

DEFAULT_POWER = 0.8


class Plan(BaseModel):
    """Trials per task needed, with the model and figures behind them."""

    tasks: int
    model: Literal["binomial", "pilot"]
    level: float
    power: float
    pass_rate: float
    within_variance: float
    """Trial-to-trial variance of a task's outcome (binomial: p(1 - p))."""
    between_variance: float
    """Variance of the tasks' true success rates (binomial: 0, every task alike)."""
    width: float | None = None
    trials_for_width: int | None = None
    """None when no number of trials reaches ``width`` with this many tasks (between-task spread sets a floor)."""
    detect: float | None = None
    trials_for_difference: int | None = None
    notes: list[str] = []

    def lines(self) -> list[str]:
        """The plan in plain words."""
        level = f"{self.level * 100:g} %"
        out = [
            f"{self.tasks} tasks, {self.model} model: pass^1 ≈ {self.pass_rate:.3f}, within-task variance "
            f"{self.within_variance:.4f}, between-task variance {self.between_variance:.4f}"
        ]
        if self.width is not None:
            if self.trials_for_width is None:
                out.append(
                    f"a {level} interval of width {self.width * 100:g} points: not reachable with {self.tasks} tasks "
                    "at any number of trials (the spread between tasks alone is wider); use more tasks"
                )
            else:
                out.append(
                    f"a {level} interval of width {self.width * 100:g} points on pass^1: "
                    f"{self.trials_for_width} trials per task"
                )
        if self.detect is not None and self.trials_for_difference is not None:
            out.append(
                f"to detect a difference of {self.detect * 100:g} points between two runs on these tasks "
                f"({level} two-sided test, power {self.power * 100:g} %): {self.trials_for_difference} trials per task"
            )
        return out + self.notes


def _z(level: float) -> float:
    from scipy import stats  # type: ignore[import-untyped]  # scipy-stubs is not a dependency

    return float(stats.norm.ppf(1 - (1 - level) / 2))


def _trials(needed: float) -> int:
    return max(1, math.ceil(needed - 1e-9))


def plan_from_rate(
    tasks: int,
    expected_pass: float,
    *,
    detect: float | None = None,
    width: float | None = None,
    level: float = 0.95,
    power: float = DEFAULT_POWER,
) -> Plan:
    """The binomial model: every trial of every task succeeds with probability ``expected_pass``.

    Width: n = (2z / w)² p(1 - p) / T. Difference d (the second run at p + d, or p - d past 1):
    n = (z + z_power)² (p(1 - p) + q(1 - q)) / (T d²).
    """
    from scipy import stats

    _check(tasks, detect, width, level, power)
    if not 0 <= expected_pass <= 1:
        raise ValueError(f"the expected pass rate is between 0 and 1, got {expected_pass}")
    p = expected_pass
    plan = Plan(
        tasks=tasks, model="binomial", level=level, power=power, pass_rate=p,
        within_variance=p * (1 - p), between_variance=0.0, width=width, detect=detect,
    )  # fmt: skip
    z = _z(level)
    if width is not None:
        plan.trials_for_width = _trials((2 * z / width) ** 2 * p * (1 - p) / tasks)
    if detect is not None:
        q = p + detect if p + detect <= 1 else p - detect
        zp = float(stats.norm.ppf(power))
        plan.trials_for_difference = _trials((z + zp) ** 2 * (p * (1 - p) + q * (1 - q)) / (tasks * detect**2))
    return plan


def pilot_variances(table: TrialTable) -> tuple[float, float]:
    """(within-task, between-task) variance of trial outcomes, estimated from a pilot run's per-task successes.

    Within: the mean over tasks of the unbiased r(1 - r) n / (n - 1). Between: the variance of the rates less the
    within part's share, floored at 0. A one-trial pilot cannot tell them apart: all of it counts as within.
    """
    rates = table.success_rates()
    n = table.trials
    if n < 2 or table.tasks < 2:
        p = float(rates.mean())
        return p * (1 - p), 0.0
    within = float(np.mean(rates * (1 - rates)) * n / (n - 1))
    between = max(0.0, float(np.var(rates, ddof=1)) - within / n)
    return within, between


def plan_from_pilot(
    table: TrialTable,
    *,
    tasks: int | None = None,
    detect: float | None = None,
    width: float | None = None,
    level: float = 0.95,
    power: float = DEFAULT_POWER,
) -> Plan:
    """Trials needed for a run like the pilot ``table`` on ``tasks`` tasks (default: the pilot's).

    Width: 2z √((σ_b² + σ_w² / n) / T) ≤ w. Difference between two runs on the same tasks (task effects cancel in
    the pairing): n = (z + z_power)² 2σ_w² / (T d²).
    """
    from scipy import stats

    tasks = tasks or table.tasks
    _check(tasks, detect, width, level, power)
    within, between = pilot_variances(table)
    plan = Plan(
        tasks=tasks, model="pilot", level=level, power=power, pass_rate=float(table.success_rates().mean()),
        within_variance=within, between_variance=between, width=width, detect=detect,
    )  # fmt: skip
    if table.trials < 2:
        plan.notes.append("the pilot has one trial per task: its variance is all taken as within-task (binomial)")
    z = _z(level)
    if width is not None:
        room = tasks * (width / (2 * z)) ** 2 - between
        if within == 0:
            plan.trials_for_width = 1 if room >= 0 else None
        else:
            plan.trials_for_width = _trials(within / room) if room > 0 else None
    if detect is not None:
        zp = float(stats.norm.ppf(power))
        plan.trials_for_difference = _trials((z + zp) ** 2 * 2 * within / (tasks * detect**2))
    return plan


def _check(tasks: int, detect: float | None, width: float | None, level: float, power: float) -> None:
    if tasks < 1:
        raise ValueError(f"the number of tasks is at least 1, got {tasks}")
    if detect is None and width is None:
        raise ValueError("give a difference to detect (--detect) or an interval width (--width)")
    if detect is not None and not 0 < detect < 1:
        raise ValueError(f"the difference to detect is between 0 and 1 (0.05 = 5 points), got {detect}")
    if width is not None and not 0 < width < 1:
        raise ValueError(f"the interval width is between 0 and 1 (0.05 = 5 points), got {width}")
    if not 0 < level < 1 or not 0 < power < 1:
        raise ValueError("the confidence level and the power are between 0 and 1")
