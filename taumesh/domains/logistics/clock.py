"""The operations desk's fixed clock, its calendar and its money rules, shared by tools, worlds and solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and the
amounts and dates a task expects are the ones the tools compute.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2025, 10, 15)
"""The desk's clock: Wednesday 15 October 2025. Every window and deadline is counted to it."""
MAX_WINDOW_CHANGES = 2
"""A shipment's delivery window may be moved this many times in all (policy 4.3)."""
WINDOW_REACH_DAYS = 7
"""A new delivery date is at most this many days after the carrier's current date (policy 4.2)."""
SAFE_PLACE_VALUE_LIMIT = 250.0
"""A parcel declared above this many dollars is handed over in person, never left (policy 6.2)."""
CLAIM_DAYS = 14
"""A damage claim is filed within this many days of delivery (policy 7.2)."""
PICKUP_REACH_DAYS = 10
"""A pickup is booked for tomorrow at the earliest and this many days ahead at the latest (policy 8.2)."""
REDIRECT_FEE_SHARE = 0.25
"""A depot redirect costs this share of the shipment's price (policy 5.4)."""
LATE_CANCEL_SHARE = 0.2
"""A cancellation the day before pickup or later keeps this share of the price (policy 9.3)."""
REDELIVERY_FEE_SHARE = 0.15
"""A second redelivery costs this share of the price; the first is free (policy 10.3)."""
MAX_ATTEMPTS = 3
"""After this many failed delivery attempts a parcel goes back to its shipper (policy 10.4)."""
COUNT_TOLERANCE = 0.05
"""A stock count this close to the record (as a share of it, at least 2 units) is adjusted at once (policy 11.2)."""
MAJOR_DAMAGE_VALUE = 500.0
"""Damage to a parcel declared at this many dollars or more is a major incident (policy 12.3)."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def is_weekday(text: str) -> bool:
    """Whether a date falls Monday to Friday: the carriers deliver and collect on weekdays only."""
    return day(text).weekday() < 5


def next_weekday(text: str) -> str:
    """``text`` itself when it is a weekday, else the Monday after."""
    found = day(text)
    while found.weekday() >= 5:
        found += timedelta(days=1)
    return found.isoformat()


def carrier_price(base_fee: float, per_kg: float, express_surcharge: float, weight_kg: float, express: bool) -> float:
    """What a carrier charges for a parcel: its base fee, a rate per kilogram, and its express surcharge."""
    return round(base_fee + per_kg * weight_kg + (express_surcharge if express else 0.0), 2)


def share_of(price: float, share: float) -> float:
    """A fee that is a share of a price, to the cent."""
    return round(price * share, 2)


def compensation(declared_value: float, liability_per_kg: float, weight_kg: float) -> float:
    """What a damage claim pays: the declared value, capped by the carrier's liability per kilogram (policy 7.4)."""
    return round(min(declared_value, liability_per_kg * weight_kg), 2)


def count_tolerance(recorded: int) -> int:
    """The largest count difference adjusted without a recount: 5 % of the record, at least 2 units."""
    return max(2, int(recorded * COUNT_TOLERANCE))


def _digest(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


def app_passcode(client_id: str, number: int) -> str:
    """The ``number``-th (from 1) passcode the tracking app shows a client: six digits, the same on every replay."""
    return f"{int(_digest(client_id, 'passcode', str(number)), 16) % 1_000_000:06d}"


def safe_place_reference(shipment_id: str, place: str) -> str:
    """The reference the tracking app gives a safe place the consignee chose for a shipment."""
    return "SP-" + _digest(shipment_id, "safe-place", place)[:6].upper()


def photo_reference(shipment_id: str) -> str:
    """The reference the tracking app gives the damage photos a client uploaded for a shipment."""
    return "PH-" + _digest(shipment_id, "photos")[:6].upper()


def money(value: float) -> str:
    """A dollar amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
