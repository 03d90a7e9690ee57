"""The desk's fixed clock and the arithmetic its rules use: dates, quote prices, discount authority, one-time codes.

Tools and the task generator share these functions, so a rule computed for a task's gold is the rule the tools apply.
Nothing here reads the real time or draws a random number: a replay of the same calls gives the same state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

TODAY = date(2026, 5, 14)
"""The desk's today: Thursday 14 May 2026. Every window and validity is computed against it."""
QUARTER_END = date(2026, 6, 30)
"""The last day of the current fiscal quarter."""
QUOTE_VALID_DAYS = 30
"""A new quote is valid for this many days."""
MAX_CLOSE_DATE_PUSH_DAYS = 90
"""A close date moves at most this many days later than the current one in one change."""
ACTIVITY_LOG_DAYS = 14
"""A meeting or call is logged at most this many days after it took place."""
DISCOUNT_AUTHORITY = {"account_executive": 10, "senior_account_executive": 15, "sales_manager": 25}
"""The largest discount (percent) each role may give on its own quotes, or approve for its team (managers)."""
DEAL_DESK_LIMIT = 35
"""Requests above a manager's authority, up to this percent, go to the deal desk; above it none are made."""


def day(text: str) -> date:
    """A ``YYYY-MM-DD`` date of the data or of a tool's argument."""
    return date.fromisoformat(text)


def weekday_on_or_after(when: date) -> date:
    """``when``, or the Monday after it when it falls on a weekend (follow-ups are due on working days)."""
    while when.weekday() >= 5:
        when += timedelta(days=1)
    return when


def latest_close_date(current: str) -> str:
    """The latest close date one change may set: the current one plus 90 days."""
    return (day(current) + timedelta(days=MAX_CLOSE_DATE_PUSH_DAYS)).isoformat()


def cents(value: float) -> float:
    """``value`` rounded to the cent."""
    return round(value + 1e-9, 2)


def unit_price(product: Mapping[str, Any], quantity: int) -> float:
    """The product's unit price at ``quantity``: its list price less the deepest volume break the quantity reaches."""
    off = max((b["percent_off"] for b in product["volume_breaks"] if quantity >= b["min_quantity"]), default=0)
    return cents(product["list_price"] * (100 - off) / 100)


def quote_total(lines: Sequence[Mapping[str, Any]], discount_percent: int) -> float:
    """What a quote costs: the sum of its lines, less the quote's discount."""
    subtotal = sum(line["quantity"] * line["unit_price"] for line in lines)
    return cents(subtotal * (100 - discount_percent) / 100)


def one_time_code(person_id: str, number: int) -> str:
    """The ``number``-th code (from 1) emailed to a person: six digits, the same on every machine."""
    digest = hashlib.sha256(f"sales:{person_id}:{number}".encode()).hexdigest()
    return f"{int(digest, 16) % 1_000_000:06d}"


def money(value: float) -> str:
    """An amount as an output holds it: always two decimals, no thousands separator (``12450.00``)."""
    return f"{cents(value):.2f}"
