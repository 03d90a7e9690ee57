"""The front desk's fixed clock and the arithmetic of the hotel's rules, shared by the tools, the world and tasks.

Nothing here reads the real time or draws a random number: a tool call gives the same answer on every machine,
and the one-time codes the hotel app receives follow from the guest's id alone.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

NOW = datetime(2026, 6, 15, 18, 0)
"""The desk's clock: Monday 15 June 2026, 18:00. Every window and fee is computed against it."""
TODAY = NOW.date()
CHECK_IN_HOUR = 15
"""Rooms are ready from 15:00 on the arrival day; the cancellation window counts back from then."""
STANDARD_CHECKOUT = "11:00"
FREE_CANCELLATION_HOURS = 48
ADVANCE_MIN_DAYS = 7
"""The advance-purchase rate is sold only this many days or more before arrival."""
ROOM_TYPES = ("standard", "deluxe", "suite")
"""Room categories from lowest to highest: an upgrade is one step along this list."""
TIERS = ("member", "silver", "gold", "platinum")
POINTS_PER_DOLLAR = 10
TIER_MULTIPLIER = {"member": 1.0, "silver": 1.25, "gold": 1.5, "platinum": 2.0}
"""Stay points are the room revenue times ten, times the guest's tier multiplier."""
MISSING_POINTS_DAYS = 90
PREFERENCE_LIMIT = {"member": 2, "silver": 3, "gold": 4, "platinum": 6}
"""Standing preferences a profile keeps, by loyalty tier."""
DESK_REVERSAL_LIMIT = 75.0
DESK_REVERSAL_DAYS = 30
LATE_CHECKOUT_TIMES = ("12:00", "13:00", "14:00", "15:00", "16:00")
EARLY_LATE_CHECKOUT = "14:00"
EARLY_LATE_FEE = 35.0
COMPENSATION_POINTS = {"member": 2500, "silver": 2500, "gold": 5000, "platinum": 5000}
"""Points for a minor complaint, by tier."""


def half_up(value: Decimal, step: str) -> Decimal:
    """``value`` rounded to ``step`` (``"0.01"``, ``"1"``), halves up: the way the policy says amounts are rounded."""
    return value.quantize(Decimal(step), ROUND_HALF_UP)


def _exact(value: float) -> Decimal:
    """A rate or multiplier of the data as the decimal it is written as (``152.15``, not its binary neighbour)."""
    return Decimal(str(value))


def day(text: str) -> date:
    """A date of the data (``2026-06-18``)."""
    return date.fromisoformat(text)


def nights(check_in: str, check_out: str) -> int:
    """Nights a stay from ``check_in`` to ``check_out`` lasts."""
    return (day(check_out) - day(check_in)).days


def hours_to_arrival(check_in: str) -> float:
    """Hours from now until 15:00 on the arrival day."""
    arrival = datetime.combine(day(check_in), datetime.min.time()) + timedelta(hours=CHECK_IN_HOUR)
    return (arrival - NOW).total_seconds() / 3600


def cancellation_fee(rate_plan: str, check_in: str, check_out: str, nightly_rate: float) -> float:
    """What cancelling a stay costs now: all of it at the advance rate; one night within 48 hours; else nothing."""
    if rate_plan == "advance":
        return float(half_up(_exact(nightly_rate) * nights(check_in, check_out), "0.01"))
    return nightly_rate if hours_to_arrival(check_in) < FREE_CANCELLATION_HOURS else 0.0


def late_checkout_fee(time: str, tier: str, nightly_rate: float) -> float:
    """The fee for leaving at ``time`` (up to 16:00) on the departure day, by tier."""
    if time <= EARLY_LATE_CHECKOUT:
        return 0.0 if tier in ("gold", "platinum") else EARLY_LATE_FEE
    return 0.0 if tier == "platinum" else float(half_up(_exact(nightly_rate) / 2, "0.01"))


def stay_points(nightly_rate: float, stay_nights: int, tier: str) -> int:
    """The points a stay earns: room revenue times ten, times the tier's multiplier, rounded half up to a point."""
    revenue = _exact(nightly_rate) * stay_nights * POINTS_PER_DOLLAR
    return int(half_up(revenue * _exact(TIER_MULTIPLIER[tier]), "1"))


def plan_rate(base_rate: float, discount: float) -> float:
    """A rate plan's nightly price: the room type's flexible rate less the plan's discount, to the cent."""
    return float(half_up(_exact(base_rate) * (1 - _exact(discount)), "0.01"))


def days_since(text: str) -> int:
    """Whole days from the date ``text`` to today."""
    return (TODAY - day(text)).days


def app_code(guest_id: str, number: int) -> str:
    """The ``number``-th code (from 1) pushed to a guest's hotel app: six digits, the same on every machine."""
    digest = hashlib.sha256(f"hotel-app:{guest_id}:{number}".encode()).hexdigest()
    return f"{int(digest, 16) % 1_000_000:06d}"


def device_code(guest_id: str) -> str:
    """The code the hotel app shows for the guest's phone: six characters, the same on every machine."""
    digest = hashlib.sha256(f"device:{guest_id}".encode()).hexdigest().upper()
    return digest[:6]


def money(value: float) -> str:
    """An amount as a statement holds it: two decimals (``189.00``)."""
    return f"{value:.2f}"
