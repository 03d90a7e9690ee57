"""The box office's fixed clock and the arithmetic of its rules (windows, refunds, charges, deposits, codes).

Tools and reference solvers both compute against :data:`NOW`, never the machine's clock, so a task means the same on
every machine and every day; one-time codes are digests of ids, not random draws.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

NOW = datetime(2026, 5, 18, 10, 0)
"""Monday 18 May 2026, 10:00, the box office's local time."""
NO_CHANGES_WINDOW = timedelta(hours=24)
"""Within this of the start, no refund, class change or accessibility request is taken."""
TRANSFER_WINDOW = timedelta(hours=48)
"""Within this of the start, no ticket is transferred, no offer reissued and no session moved."""
FULL_REFUND_BEFORE = timedelta(days=7)
"""A refundable ticket is refunded in full when the event is further away than this, else by half."""
LATE_REFUND_SHARE = 0.5
CLASS_CHANGE_FEE = 12.0
"""Per ticket, on top of the price difference of an upgrade."""
REFUND_APPROVAL_ABOVE = 600.0
"""A refund larger than this needs a supervisor: the agent transfers instead of refunding."""
DEPOSIT_SHARE = 0.25
"""A venue hold's deposit, as a share of the venue's day rate."""
OFFER_LIFETIME = timedelta(hours=72)
MAX_WORKSHOPS = 2
"""Workshop sessions one order may be registered for."""
ACCESS_NOTICE = {
    "sign_language": timedelta(days=14),
    "captioning": timedelta(days=3),
    "wheelchair_space": NO_CHANGES_WINDOW,
    "step_free_route": NO_CHANGES_WINDOW,
}
"""How long before the start each accessibility need must be asked for."""
STEP_FREE_NEEDS = frozenset({"wheelchair_space", "step_free_route"})
"""Needs only a step-free venue can meet."""


def at(text: str) -> datetime:
    """A timestamp of the data (``2026-05-20T19:00``)."""
    return datetime.fromisoformat(text)


def until(start: str) -> timedelta:
    """How long from now until ``start``."""
    return at(start) - NOW


def money(value: float) -> float:
    """An amount rounded to the cent."""
    return round(value + 1e-9, 2)


def refund_due(paid: float, start: str, refundable: bool, event_status: str) -> float:
    """What the policy refunds for an order that cost ``paid`` (0 when it refunds nothing)."""
    if event_status in ("cancelled", "postponed"):
        return money(paid)
    if not refundable or until(start) <= NO_CHANGES_WINDOW:
        return 0.0
    return money(paid if until(start) > FULL_REFUND_BEFORE else paid * LATE_REFUND_SHARE)


def upgrade_charge(old_price: float, new_price: float, quantity: int) -> float:
    """What moving ``quantity`` tickets to a dearer class costs: the difference and the fee, per ticket."""
    return money((new_price - old_price + CLASS_CHANGE_FEE) * quantity)


def deposit(day_rate: float) -> float:
    """A venue hold's deposit."""
    return money(day_rate * DEPOSIT_SHARE)


def overlaps(start_one: str, end_one: str, start_two: str, end_two: str) -> bool:
    """Whether two time ranges share any minute."""
    return at(start_one) < at(end_two) and at(start_two) < at(end_one)


def _digits(*parts: str) -> str:
    digest = hashlib.sha256(":".join(parts).encode()).hexdigest()
    return f"{int(digest, 16) % 1_000_000:06d}"


def sign_in_code(attendee_id: str) -> str:
    """The six-digit sign-in code the attendee's app shows today."""
    return _digits("sign-in", attendee_id, NOW.date().isoformat())


def release_code(transfer_id: str) -> str:
    """The six-digit code that releases a transfer, shown only in the sender's app."""
    return _digits("release", transfer_id)
