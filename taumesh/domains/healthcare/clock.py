"""The domain's fixed clock and the arithmetic of its rules (windows, fees, costs, codes), shared by tools and tasks."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

NOW = datetime(2025, 3, 10, 11, 0)
"""The clinic's clock: Monday 10 March 2025, 11:00. Every rule is computed against it."""
LATE_WINDOW = timedelta(hours=24)
LATE_FEES = {"primary": 25.0, "telehealth": 25.0, "lab": 25.0, "specialist": 50.0, "imaging": 50.0}
"""Cancelling within 24 hours of the start costs this much, by visit type."""
EARLY_REFILL_SHARE = 0.75
"""A refill may be requested once this share of the last fill's days of supply has passed."""
DISPUTE_WINDOW_DAYS = 180
PAYMENT_PLAN_MONTHS = (3, 6, 12)
MIN_MONTHLY_PAYMENT = 25.0
URGENT_SYSTOLIC = 180
URGENT_DIASTOLIC = 120
URGENT_GLUCOSE_LOW = 70
URGENT_GLUCOSE_HIGH = 300


def at(text: str) -> datetime:
    """A timestamp or date of the data (``2025-03-11T09:00`` or ``2025-03-11``)."""
    return datetime.fromisoformat(text)


def within_late_window(start: str) -> bool:
    """Whether an appointment starting at ``start`` is less than 24 hours away."""
    return at(start) - NOW < LATE_WINDOW


def late_fee(start: str, visit_type: str) -> float:
    """What cancelling an appointment costs now."""
    return LATE_FEES[visit_type] if within_late_window(start) else 0.0


def refill_due(last_fill: str, days_supply: int) -> bool:
    """Whether enough of the last fill has been used for a refill (75 % of its days)."""
    return (NOW - at(last_fill)).days >= EARLY_REFILL_SHARE * days_supply


def one_time_code(patient_id: str, number: int) -> str:
    """The ``number``-th code (from 1) texted to a patient: six digits, the same on every machine."""
    digest = hashlib.sha256(f"{patient_id}:{number}".encode()).hexdigest()
    return f"{int(digest, 16) % 1_000_000:06d}"


def money(value: float) -> str:
    """A dollar amount as the policy says it and a required output holds it: ``130``, ``130.5``, ``87.25``."""
    text = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return text


def visit_cost(plan: dict[str, Any], patient: dict[str, Any], visit_type: str) -> float:
    """The patient's share of one in-network visit of ``visit_type``, by the plan's numbers (the policy's rule)."""
    room = max(float(plan["out_of_pocket_max"]) - float(patient["out_of_pocket_spent"]), 0.0)
    copay = plan["copays"].get(visit_type)
    if copay is not None:
        return round(min(float(copay), room), 2)
    allowed = plan["allowed_amounts"][visit_type]
    deductible_left = max(plan["deductible"] - patient["deductible_met"], 0.0)
    from_deductible = min(allowed, deductible_left)
    share = from_deductible + plan["coinsurance"] * (allowed - from_deductible)
    return round(min(float(share), room), 2)


def urgent_reading(reading: dict[str, Any]) -> bool:
    """Whether a home reading needs a nurse now (the policy's thresholds)."""
    if reading["kind"] == "blood_pressure":
        return int(reading["systolic"]) >= URGENT_SYSTOLIC or int(reading["diastolic"]) >= URGENT_DIASTOLIC
    value = int(reading["glucose"])
    return value < URGENT_GLUCOSE_LOW or value > URGENT_GLUCOSE_HIGH
