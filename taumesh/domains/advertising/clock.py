"""The platform's fixed clock and the arithmetic its rules use: budgets, ages, stopping rules, money.

Tools and the task generator share these functions, so a rule computed for a task's gold is the rule the tools apply.
Nothing here reads the real time or draws a random number: a replay of the same calls gives the same state.
"""

from __future__ import annotations

from datetime import date, timedelta

TODAY = date(2026, 3, 12)
"""The account team's today: Thursday 12 March 2026."""
REPORT_DAYS = 7
"""A performance report covers the seven whole days before today."""
MIN_DAILY_BUDGET = 10.0
MIN_AGE = {"alcohol": 21, "gambling": 21, "finance": 18}
"""The youngest age a vertical may target; every other vertical's floor is :data:`DEFAULT_MIN_AGE`."""
DEFAULT_MIN_AGE = 13
MAX_MIN_AGE = 65
TEST_MIN_DAYS = 14
"""An A/B test runs at least this many days before it may stop."""
TEST_MIN_CONVERSIONS = 100
"""Each arm of an A/B test needs at least this many conversions before it may stop."""


def day(text: str) -> date:
    """A ``YYYY-MM-DD`` date of the data or of a tool's argument."""
    return date.fromisoformat(text)


def report_window() -> tuple[str, str]:
    """The first and last day a performance report covers."""
    return (TODAY - timedelta(days=REPORT_DAYS)).isoformat(), (TODAY - timedelta(days=1)).isoformat()


def min_age(vertical: str) -> int:
    """The youngest age an advertiser of ``vertical`` may target."""
    return MIN_AGE.get(vertical, DEFAULT_MIN_AGE)


def cents(value: float) -> float:
    """``value`` rounded to the cent."""
    return round(value + 1e-9, 2)


def money(value: float) -> str:
    """An amount as an output holds it: always two decimals, no thousands separator (``412.50``)."""
    return f"{cents(value):.2f}"


def days_left(end_date: str) -> int:
    """The days a campaign still runs, today and its end date included (0 once it has ended)."""
    return max(0, (day(end_date) - TODAY).days + 1)


def highest_daily_budget(lifetime: float, spent: float, end_date: str) -> float:
    """The largest daily budget the rest of the lifetime budget covers until the end date, rounded down to the cent."""
    left = days_left(end_date)
    if left == 0:
        return 0.0
    return int((lifetime - spent) * 100 / left) / 100


def earliest_stop(start_date: str) -> str:
    """The first day an A/B test started on ``start_date`` may stop."""
    return (day(start_date) + timedelta(days=TEST_MIN_DAYS)).isoformat()


def conversion_rate(conversions: int, visitors: int) -> float:
    """Conversions per hundred visitors, to two decimals."""
    return cents(conversions * 100 / visitors) if visitors else 0.0
