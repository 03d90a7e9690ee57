"""The club's fixed clock and the arithmetic of its rules: windows, fees, goal caps, end dates and share codes.

Tools and reference solvers both compute from here, so that a rule the policy states has one implementation. Nothing
reads the machine's clock or draws a random number at tool time: a replay answers as the first run did.
"""

from __future__ import annotations

import hashlib
import math
from datetime import date, datetime, timedelta

NOW = datetime(2025, 6, 2, 9, 0)
"""Monday 2 June 2025, 09:00: the front desk's clock. Every window below is measured from it."""
TODAY = NOW.date()
LATE_CANCEL_WINDOW = timedelta(hours=12)
"""A class cancelled less than this before its start costs the late fee (policy 4.3)."""
LATE_CANCEL_FEE = 12.0
WAIVER_INTERVAL_DAYS = 365
"""One late-fee courtesy waiver per member in this many days (policy 4.4)."""
IMPORT_WINDOW_DAYS = 14
"""A watch workout may be imported this many days after it was recorded, not later (policy 7.3)."""
WEEK_DAYS = 7
"""The progress window: today and the six days before it (policy 7.4)."""
GOAL_RAISE_SHARE = 1.25
GOAL_STEP = 5
MAX_FREEZE_MONTHS = 3
NOTICE_DAYS = 30
TERMINATION_SHARE = 0.5
DAY_PASS_PRICE = 18.0


def at(text: str) -> datetime:
    """A timestamp (``2025-06-02T17:30``) or a date (``2025-06-02``) of the data."""
    return datetime.fromisoformat(text)


def money(value: float) -> str:
    """An amount as data and outputs write it: ``73.5``, ``29``, ``14.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")


def late_cancellation(start: str) -> bool:
    """Whether cancelling a class that starts at ``start`` now is late (less than 12 hours ahead)."""
    return at(start) - NOW < LATE_CANCEL_WINDOW


def waiver_available(last_waiver: str | None) -> bool:
    """Whether a member whose last courtesy waiver was on ``last_waiver`` may have another today."""
    return last_waiver is None or (TODAY - date.fromisoformat(last_waiver)).days >= WAIVER_INTERVAL_DAYS


def importable(recorded: str) -> bool:
    """Whether a workout recorded on ``recorded`` is still within the import window."""
    return (TODAY - date.fromisoformat(recorded)).days <= IMPORT_WINDOW_DAYS


def in_last_week(day: str) -> bool:
    """Whether ``day`` is today or one of the six days before it."""
    return 0 <= (TODAY - date.fromisoformat(day)).days < WEEK_DAYS


def goal_cap(week_minutes: int) -> int:
    """The highest weekly goal allowed: a quarter above the last week's minutes, down to a multiple of 5."""
    return int(math.floor(week_minutes * GOAL_RAISE_SHARE / GOAL_STEP) * GOAL_STEP)


def add_months(day: date, months: int) -> date:
    """The same day of the month ``months`` later (billing days are 1-28, so it always exists)."""
    month = day.month - 1 + months
    return day.replace(year=day.year + month // 12, month=month % 12 + 1)


def cancellation_effective(billing_day: int) -> date:
    """The first billing date on or after the end of the 30 days' notice: the membership's last day."""
    earliest = TODAY + timedelta(days=NOTICE_DAYS)
    candidate = earliest.replace(day=billing_day)
    return candidate if candidate >= earliest else add_months(candidate, 1)


def months_between(start: date, end: date) -> int:
    """Whole billing months from ``start`` to ``end`` (both on the same billing day); 0 when ``end`` is not later."""
    if end <= start:
        return 0
    return (end.year - start.year) * 12 + end.month - start.month


def termination_fee(monthly_fee: float, effective: date, commitment_end: date) -> float:
    """Half the monthly fee for every month of commitment left after the membership ends."""
    return round(TERMINATION_SHARE * monthly_fee * months_between(effective, commitment_end), 2)


def share_code(member_id: str, number: int) -> str:
    """The code a member's watch shows for its ``number``-th workout: the same on every machine."""
    digest = hashlib.sha256(f"{member_id}/workout/{number}".encode()).hexdigest()
    return f"WK-{digest[:6].upper()}"
