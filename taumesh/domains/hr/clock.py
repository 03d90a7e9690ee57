"""The HR desk's fixed clock and the arithmetic its rules use (working days, pay rates, notice), for tools and tasks.

Nothing here reads the real time or draws at random: every rule is computed against :data:`NOW`, so a tool answers
the same on every machine and every replay.
"""

from __future__ import annotations

import hashlib
import math
from datetime import date, datetime, timedelta

NOW = datetime(2026, 3, 2, 9, 0)
"""The desk's clock: Monday 2 March 2026, 09:00."""
TODAY = NOW.date()
HOLIDAYS = frozenset(
    date.fromisoformat(d) for d in ("2026-04-03", "2026-05-25", "2026-07-03", "2026-09-07", "2026-11-26", "2026-12-25")
)
"""Company holidays: never a working day, so never counted against leave."""
WORKING_DAYS_PER_YEAR = 260
"""A salaried employee's daily rate is the annual salary over this many days."""
LONG_LEAVE_DAYS = 5
"""Annual leave longer than this many working days needs :data:`LONG_LEAVE_NOTICE_DAYS` of notice."""
LONG_LEAVE_NOTICE_DAYS = 14
CASH_OUT_CAP_DAYS = 5
"""Days of annual leave one employee may cash out per calendar year."""
CASH_OUT_FLOOR_DAYS = 5
"""Days of annual leave that must remain after a cash-out."""
SWAP_NOTICE = timedelta(hours=48)
"""A shift can be handed to a colleague only this long before it starts."""
MAX_WEEKLY_SHIFTS = 5
MANAGER_RAISE_SHARE = 0.08
"""A raise up to this share of the current salary is the manager's to approve; above it, a director's."""
MAX_RAISE_SHARE = 0.15
"""No single raise above this share of the current salary."""
RAISE_COOLDOWN_DAYS = 183
"""Six months must pass between two pay changes of one employee."""
POSTING_DAYS = 30
"""An opening closes this many days after it is posted."""


def day(text: str) -> date:
    """A date of the data (``2026-03-16``)."""
    return date.fromisoformat(text[:10])


def working_days(start: str, end: str) -> int:
    """Working days from ``start`` to ``end`` inclusive: Monday to Friday, company holidays left out."""
    first, last = day(start), day(end)
    count = 0
    current = first
    while current <= last:
        if current.weekday() < 5 and current not in HOLIDAYS:
            count += 1
        current += timedelta(days=1)
    return count


def daily_rate(annual_salary: float) -> float:
    """What one working day is worth to a salaried employee, to the cent."""
    return round(annual_salary / WORKING_DAYS_PER_YEAR, 2)


def payout(annual_salary: float, days: float) -> float:
    """What cashing out ``days`` of annual leave pays, to the cent."""
    return round(daily_rate(annual_salary) * days, 2)


def years_of_service(hire_date: str) -> float:
    """Completed service on the desk's clock, in years (fractions included)."""
    return (TODAY - day(hire_date)).days / 365.25


def first_of_next_month() -> str:
    """When a pay change submitted today takes effect: the first day of the next month."""
    following = TODAY.replace(day=28) + timedelta(days=4)
    return following.replace(day=1).isoformat()


def closing_date() -> str:
    """The closing date of an opening posted today."""
    return (TODAY + timedelta(days=POSTING_DAYS)).isoformat()


def hours_until(start: str) -> float:
    """Hours from now until ``start`` (``2026-03-04T07:00``)."""
    return (datetime.fromisoformat(start) - NOW).total_seconds() / 3600


def largest_raise(salary: int, grade_max: int) -> int:
    """The highest salary one raise may reach: 15 % more, never above the grade's maximum, in whole dollars."""
    return min(math.floor(salary * (1 + MAX_RAISE_SHARE)), grade_max)


def approval_level(salary: int, new_salary: int) -> str:
    """Who approves a raise from ``salary`` to ``new_salary``: the manager up to 8 %, else a director."""
    return "manager" if new_salary <= salary * (1 + MANAGER_RAISE_SHARE) else "director"


def week_of(text: str) -> date:
    """The Monday of the week a date falls in (weeks run Monday to Sunday)."""
    when = day(text)
    return when - timedelta(days=when.weekday())


def portal_code(employee_id: str, number: int) -> str:
    """The ``number``-th (from 1) confirmation code sent to an employee's portal: six digits, fixed by the ids."""
    digest = hashlib.sha256(f"northwind:{employee_id}:{number}".encode()).hexdigest()
    return f"{int(digest, 16) % 1_000_000:06d}"
