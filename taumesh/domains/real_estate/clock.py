"""The agency's fixed clock and the arithmetic of its rules, shared by the tools, the world and the solvers.

Nothing here reads the machine's clock or draws a random number: a tool answers the same on every replay.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

NOW = datetime(2025, 9, 15, 10, 0)
"""Monday 15 September 2025, 10:00, the agency's local time."""
TODAY = NOW.date().isoformat()
NOTICE_VACANT = timedelta(hours=2)
"""A showing of an empty home needs this much notice (policy 4.3)."""
NOTICE_OCCUPIED = timedelta(hours=24)
"""A showing of a home someone lives in needs a day's notice (policy 4.3)."""
PRE_APPROVAL_SHARE_FOR_TOURS = 0.9
"""A listing that requires pre-approval is shown to buyers pre-approved for this share of its price (policy 4.4)."""
EARNEST_SHARE = 0.01
EARNEST_STEP = 100
"""Earnest money is at least 1 % of the offer, rounded up to the next $100 (policy 6.4)."""
INCOME_MULTIPLE = 3
"""A renter's verified monthly income is at least three times the rent (policy 11.2)."""
FEE_PER_ADULT = 45.0
PET_DEPOSIT = 400.0
"""Rental money rules (policy 11.3, 12.2)."""


def at(text: str) -> datetime:
    """A timestamp of the data (``2025-09-16T10:30``)."""
    return datetime.fromisoformat(text)


def notice_met(start: str, occupied: bool) -> bool:
    """Whether a showing at ``start`` gives the notice its home needs."""
    return at(start) - NOW >= (NOTICE_OCCUPIED if occupied else NOTICE_VACANT)


def still_valid(expires: str | None) -> bool:
    """Whether a letter or a counter-offer expiring on ``expires`` (a date) is still good today."""
    return expires is not None and date.fromisoformat(expires[:10]) >= NOW.date()


def earnest_money(offer: int) -> int:
    """The smallest earnest money deposit the agency takes with an offer of ``offer`` dollars."""
    return math.ceil(offer * EARNEST_SHARE / EARNEST_STEP) * EARNEST_STEP


def covers_for_tour(pre_approval_amount: int, price: int) -> bool:
    """Whether a pre-approval of ``pre_approval_amount`` lets a buyer tour a home asking ``price``."""
    return pre_approval_amount >= PRE_APPROVAL_SHARE_FOR_TOURS * price


def application_fee(adults: int) -> float:
    """A rental application's fee: one screening per adult."""
    return FEE_PER_ADULT * adults


def move_in_total(rent: int, has_pets: bool) -> float:
    """What a renter pays at lease signing: first month, a month's security deposit, the pet deposit if any."""
    return 2.0 * rent + (PET_DEPOSIT if has_pets else 0.0)


def monthly_carrying(hoa_monthly: float, property_tax_annual: float) -> float:
    """A home's monthly costs besides the mortgage: HOA dues and a twelfth of the annual property tax."""
    return round(hoa_monthly + property_tax_annual / 12, 2)


def tag_of(record_id: str) -> str:
    """The world a record belongs to: the tag every id carries second (``cli-w1-004`` is w1's)."""
    return record_id.split("-")[1]
