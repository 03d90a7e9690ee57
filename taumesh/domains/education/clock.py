"""The desk's fixed clock and the arithmetic of the university's rules, shared by tools, worlds and solvers.

Nothing here reads the real time or draws a random number, so a tool answers the same on every replay and a task's
expected figures (a tuition charge, a refund, a withdrawal fee, a pack's price, a weighted average) are the ones the
tools compute. A tutoring confirmation code is a digest of the slot and the student, so a replay finds it again.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2026, 10, 14)
"""The desk's clock: Wednesday 14 October 2026, in the autumn term."""
CURRENT_TERM = "autumn-2026"
TUITION_PER_CREDIT = {"home": 310.0, "international": 655.0}
"""Tuition per credit by fee band (policy 3.4)."""
WITHDRAWAL_FEE_PER_CREDIT = 45.0
"""What a withdrawal after the drop date costs per credit (policy 4.3)."""
MAX_EXTENSION_DAYS = 7
LATE_WINDOW_DAYS = 5
LATE_PENALTY_PER_DAY = 10
GRADE_CHANGE_WINDOW_DAYS = 60
TUTORING_LIMIT = 2
PASSING = ("A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D")
GRADES = (*PASSING, "F")
EXTENSION_REASONS = ("illness", "bereavement", "caring", "disability")
GRADE_CHANGE_REASONS = ("marking_error", "missed_work_found", "appeal_upheld")


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def days_from_today(text: str) -> int:
    """Whole days from today to ``text`` (negative: in the past)."""
    return (day(text) - TODAY).days


def cents(value: float) -> float:
    """An amount rounded to the cent."""
    return round(value + 1e-9, 2)


def tuition(credits: int, band: str) -> float:
    """The tuition a course of ``credits`` costs a student of fee band ``band``."""
    return cents(credits * TUITION_PER_CREDIT[band])


def withdrawal_fee(credits: int) -> float:
    """The fee for withdrawing from a course of ``credits`` after its drop date (policy 4.3)."""
    return cents(credits * WITHDRAWAL_FEE_PER_CREDIT)


def pack_charge(price: float, bursary: bool) -> float:
    """A course pack's price, halved for a bursary holder (policy 8.3)."""
    return cents(price / 2 if bursary else price)


def weighted_average(marked: list[tuple[float, int]]) -> float:
    """The average of ``(mark, weight)`` pairs weighted by weight, to two decimals (policy 9.2)."""
    total = sum(weight for _, weight in marked)
    return cents(sum(mark * weight for mark, weight in marked) / total)


def confirmation_code(slot_id: str, student_id: str) -> str:
    """The code a student's portal shows when they accept a tutoring offer."""
    return "TB-" + hashlib.sha256(f"{slot_id}:{student_id}:tutoring".encode()).hexdigest()[:6].upper()


def money(value: float) -> str:
    """An amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
