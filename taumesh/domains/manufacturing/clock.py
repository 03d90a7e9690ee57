"""The plant's fixed clock and the arithmetic of its rules, shared by the tools, the worlds and the solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and a task's
expected figures (fees, scrap cost, OEE, dates) are the ones the tools and the policy compute. The references an
operator's handheld shows (a lot label's scan, a lock-out tag) are digests of ids, so a replay finds them again.
"""

from __future__ import annotations

import hashlib
import math
from datetime import date, timedelta

TODAY = date(2026, 3, 11)
"""The plant's clock: Wednesday 11 March 2026. Every due date, certificate and window is read against it."""
RUSH_SLOTS = 2
"""Open rush work orders a line carries at most (policy 6.2)."""
EXPEDITE_RATE = 0.12
"""The expedite fee's share of the order value (policy 6.3)."""
EXPEDITE_MINIMUM = 450.0
"""The expedite fee is never less than this (policy 6.3)."""
CANCELLATION_RATE = 0.18
"""The fee for cancelling an order already in production, as a share of its value (policy 7.2)."""
QUANTITY_BAND = 0.25
"""A quantity change moves an order by at most this share of its current quantity (policies 5.2 and 5.3)."""
SEVERITY = {"cosmetic": "minor", "dimensional": "major", "assembly": "major", "material": "critical"}
"""The severity an NCR takes from its defect class (policy 3.3)."""
WINDOW_HORIZON_DAYS = 45
"""A preventive window is booked at most this many days ahead (policy 9.1)."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def is_weekday(text: str) -> bool:
    """Monday to Friday: the days maintenance crews are on site (policy 9.2)."""
    return day(text).weekday() < 5


def next_weekday(text: str) -> str:
    """``text`` itself when it is a weekday, else the Monday after."""
    found = day(text)
    while found.weekday() >= 5:
        found += timedelta(days=1)
    return found.isoformat()


def cents(value: float) -> float:
    """An amount rounded to the cent."""
    return round(value + 1e-9, 2)


def expedite_fee(order_value: float) -> float:
    """The fee for rushing an order: 12 % of its value, never under the minimum (policy 6.3)."""
    return cents(max(order_value * EXPEDITE_RATE, EXPEDITE_MINIMUM))


def cancellation_fee(order_value: float) -> float:
    """The fee for cancelling an order in production: 18 % of its value (policy 7.2)."""
    return cents(order_value * CANCELLATION_RATE)


def quantity_limits(current: int) -> tuple[int, int]:
    """The smallest and largest quantity an order of ``current`` units may be changed to (policies 5.2 and 5.3)."""
    return math.ceil(current * (1 - QUANTITY_BAND)), math.floor(current * (1 + QUANTITY_BAND))


def oee_percent(planned: int, downtime: int, ideal_per_minute: float, made: int, good: int) -> float:
    """Availability times performance times quality, as a percentage to one decimal (policy 10.2)."""
    running = planned - downtime
    if running <= 0 or made <= 0:
        return 0.0
    availability = running / planned
    performance = made / (ideal_per_minute * running)
    quality = good / made
    return round(availability * performance * quality * 100 + 1e-9, 1)


def _digest(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


def scan_reference(lot_id: str) -> str:
    """What an operator's handheld shows on scanning a lot's label: the proof the lot is physically at hand."""
    return "SC-" + _digest(lot_id, "label")[:6].upper()


def lockout_tag(machine_id: str) -> str:
    """The tag number a handheld gives a lock-out an operator confirms on a machine."""
    return "LT-" + _digest(machine_id, "lockout")[:6].upper()


def money(value: float) -> str:
    """An amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
