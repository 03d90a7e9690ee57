"""The operations desk's fixed clock and the arithmetic of its rules, shared by the tools, the worlds and the solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and a task's
expected figures (a booking's cost, a cancellation charge, an imaging overage) are the ones the tools compute. The
two-person approval codes an operator's console shows are digests of the record they approve, so a replay finds the
same code again.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2026, 5, 19)
"""The desk's clock: Tuesday 19 May 2026 (UTC). Every pass, burn and tasking date is read against it."""
MIN_PASS_ELEVATION = 15.0
"""A pass whose highest elevation is below this many degrees is not bookable (policy 3.2)."""
CANCELLATION_SHARE = 0.4
"""The share of a booking's cost charged when it is cancelled one or two days ahead (policy 4.2)."""
FREE_CANCELLATION_DAYS = 3
"""A booking cancelled this many days ahead or more costs nothing (policy 4.3)."""
TASKING_LEAD_DAYS = 2
"""An imaging request is for a date at least this many days after today (policy 5.2)."""
MANEUVER_THRESHOLD = 1e-4
"""The collision probability at or above which an avoidance burn may be approved (policy 7.1)."""
PAYLOAD_COMMANDS = ("payload_power_on", "payload_power_off", "start_imaging_sequence")
"""Commands that drive the payload; a spacecraft in safe mode takes none of them (policy 8.3)."""
BUS_COMMANDS = ("dump_housekeeping", "reset_reaction_wheel", "switch_to_redundant_transmitter")
"""Commands that look after the bus; allowed in safe mode too."""
COMMANDS = PAYLOAD_COMMANDS + BUS_COMMANDS


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def days_ahead(text: str) -> int:
    """Whole days from today to the date ``text`` (0: today)."""
    return (day(text) - TODAY).days


def cents(value: float) -> float:
    """An amount rounded to the cent."""
    return round(value + 1e-9, 2)


def booking_cost(duration_min: int, rate_per_min: float) -> float:
    """What a pass costs to book: its minutes at the ground station's rate (policy 3.3)."""
    return cents(duration_min * rate_per_min)


def cancellation_charge(cost: float, date_text: str) -> float:
    """The charge for cancelling a booking of ``cost`` on ``date_text``: 40 % one or two days ahead, else none."""
    return 0.0 if days_ahead(date_text) >= FREE_CANCELLATION_DAYS else cents(cost * CANCELLATION_SHARE)


def overage(used_km2: float, quota_km2: float, area_km2: float, rate_per_km2: float) -> float:
    """The charge for imaging ``area_km2`` beyond what the month's quota still covers (policy 5.3)."""
    beyond = max(0.0, used_km2 + area_km2 - max(quota_km2, used_km2))
    return cents(beyond * rate_per_km2)


def approval_code(subject_id: str) -> str:
    """The two-person approval code an operator's console shows for a manoeuvre, a pass or a spacecraft."""
    return "TP-" + hashlib.sha256(f"{subject_id}:two-person".encode()).hexdigest()[:6].upper()


def money(value: float) -> str:
    """An amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
