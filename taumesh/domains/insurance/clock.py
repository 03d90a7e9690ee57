"""The desk's fixed clock and the arithmetic of its rules (windows, fees, premiums, refunds, codes).

Tools and the task generator both compute from here, so a rule the policy states has one implementation. Nothing
reads the real time or draws a random number while a tool runs: a replay of the same calls gives the same state.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2025, 6, 16)
"""The claims desk's date: Monday 16 June 2025. Every window and refund is computed against it."""
REPORTING_WINDOW_DAYS = 60
"""A loss must be reported within this many days of the incident."""
REVIEW_DAYS = 30
"""A claim under review is decided within this many days of being reported."""
APPEAL_WINDOW_DAYS = 60
"""A denial may be appealed within this many days of the decision."""
APPEAL_DECISION_DAYS = 45
GRACE_DAYS = 30
"""A lapsed policy may be reinstated within this many days of its lapse date."""
REINSTATEMENT_FEE = 35.0
CANCELLATION_FEE = 40.0
DEDUCTIBLE_FACTORS = {100.0: 1.22, 250.0: 1.12, 500.0: 1.0, 1000.0: 0.9, 2500.0: 0.78, 5000.0: 0.7}
"""The yearly premium is the policy's base rate times the factor of its deductible."""
OPEN_CLAIM_STATUSES = frozenset({"awaiting_documents", "under_review", "approved"})
"""Statuses of a claim not yet closed (an approved claim is open until it is paid)."""


def day(text: str) -> date:
    """A date of the data (``YYYY-MM-DD``)."""
    return date.fromisoformat(text)


def iso(value: date) -> str:
    """A date as the data writes it (``YYYY-MM-DD``)."""
    return value.isoformat()


def plus_days(text: str, days: int) -> str:
    """``text`` moved by ``days`` days, as ISO."""
    return iso(day(text) + timedelta(days=days))


def days_since(text: str) -> int:
    """Whole days from ``text`` to today."""
    return (TODAY - day(text)).days


def premium(base_rate: float, deductible: float) -> float:
    """The yearly premium for ``deductible`` (the product's factor applied to the base rate)."""
    return round(base_rate * DEDUCTIBLE_FACTORS[deductible], 2)


def cancellation_refund(annual_premium: float, effective: str, end: str) -> float:
    """Unused premium from ``effective`` to ``end``, pro rata over 365 days, less the fee; never negative."""
    unused = annual_premium * max((day(end) - day(effective)).days, 0) / 365
    return round(max(unused - CANCELLATION_FEE, 0.0), 2)


def security_code(policyholder_id: str, number: int) -> str:
    """The ``number``-th code (from 1) texted to a policyholder: six digits, the same on every machine."""
    digest = hashlib.sha256(f"insurance:{policyholder_id}:{number}".encode()).hexdigest()
    return f"{int(digest[:12], 16) % 1_000_000:06d}"


def money(value: float) -> str:
    """Dollars as an output holds them: ``1180``, ``1180.5``, ``87.25`` (no thousands separator)."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
