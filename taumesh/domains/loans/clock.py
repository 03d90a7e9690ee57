"""The lender's fixed clock and the arithmetic of its rules, shared by the tools, the worlds and the solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and a task's
expected amounts are the ones the tools compute.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2025, 6, 16)
"""The lender's clock: Monday 16 June 2025. Every window and every accrual is counted to it."""
PAYOFF_WINDOW_DAYS = 30
"""A payoff quote is good through a date at most this many days ahead (policy 4.2)."""
COOLDOWN_DAYS = 365
"""A fee waiver, a due-date change and a hardship plan each come once per 365 days (policies 6.3, 7.3, 8.4)."""
MAX_DEFERRAL_MONTHS = 3
"""The longest deferral a hardship plan grants (policy 8.2)."""
COLLECTIONS_DAYS = 60
"""A loan this many days past due belongs to collections, not to a hardship plan (policy 8.5)."""
PAY_SLIP_MAX_AGE_DAYS = 60
"""A pay slip proves income only when it is dated within this many days (policy 10.3)."""
AUTOPAY_DISCOUNT = 0.25
"""Percentage points off the APR while autopay is on (policy 9.4)."""
LATEST_DUE_DAY = 28
"""Due days run from 1 to 28, so that every month has one (policy 7.2)."""
TIERS = (("A", 760), ("B", 700), ("C", 640), ("D", 600))
"""Rate tiers by the credit score on file: the first whose floor the score reaches (policy 5.2)."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def cooled_down(last: str | None) -> bool:
    """Whether a once-a-year action last taken on ``last`` may be taken again today."""
    return last is None or (TODAY - day(last)).days >= COOLDOWN_DAYS


def next_allowed(last: str) -> str:
    """The first date a once-a-year action last taken on ``last`` is allowed again."""
    return days_after(last, COOLDOWN_DAYS)


def tier(credit_score: int) -> str | None:
    """The rate tier of a credit score; None below every tier's floor."""
    return next((name for name, floor in TIERS if credit_score >= floor), None)


def monthly_payment(amount: float, apr: float, months: int) -> float:
    """The level monthly payment that repays ``amount`` at ``apr`` percent in ``months``, to the cent."""
    rate = apr / 100 / 12
    if rate == 0:
        return round(amount / months, 2)
    return round(amount * rate / (1 - (1 + rate) ** -months), 2)


def debt_to_income(monthly_debts: float, new_payment: float, monthly_income: float) -> float:
    """The share of gross monthly income that existing debts and the new payment take (policy 5.3)."""
    return (monthly_debts + new_payment) / monthly_income


def payoff_amount(balance: float, apr: float, paid_through: str, good_through: str, fees: float) -> float:
    """Balance, simple daily interest from ``paid_through`` to ``good_through`` (365-day year), and open fees."""
    days = max((day(good_through) - day(paid_through)).days, 0)
    return round(balance + balance * apr / 100 / 365 * days + fees, 2)


def _digest(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


def app_code(borrower_id: str, number: int) -> str:
    """The ``number``-th (from 1) sign-in code the lender's app shows a borrower: six digits, the same everywhere."""
    return f"{int(_digest(borrower_id, 'code', str(number)), 16) % 1_000_000:06d}"


def mandate_reference(borrower_id: str, account_last_four: str) -> str:
    """The reference the borrower's app gives an autopay mandate they approve for an account."""
    return "MD-" + _digest(borrower_id, "mandate", account_last_four)[:8].upper()


def consent_reference(borrower_id: str) -> str:
    """The reference the borrower's app gives their consent to a credit check."""
    return "CC-" + _digest(borrower_id, "consent")[:8].upper()


def money(value: float) -> str:
    """A dollar amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
