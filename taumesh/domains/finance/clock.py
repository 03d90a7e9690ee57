"""The desk's fixed clock and the arithmetic its rules use: prices, dealing charges, limits, ages and allowances.

Tools and the task generator share these functions, so a figure the gold expects is the figure a tool computes.
Nothing here reads the real time or draws a random number: replaying the same calls gives the same state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date
from typing import Any

TODAY = date(2026, 3, 18)
"""The desk's today: Wednesday 18 March 2026. Prices are the close of the day before."""
PRICE_DATES = ("2025-09-30", "2025-10-31", "2025-11-28", "2025-12-31", "2026-01-30", "2026-02-27", "2026-03-17")
"""The dates a price is kept for: month ends, then the latest close (the price every order uses)."""
LATEST = PRICE_DATES[-1]
PROFILE_MAX_RATING = {"cautious": 2, "balanced": 3, "growth": 4, "adventurous": 5}
"""The riskiest security (rating 1 to 5) each risk profile may buy or follow."""
PROFILE_BANDS = ((12, "cautious"), (20, "balanced"), (28, "growth"), (40, "adventurous"))
"""A questionnaire score up to each bound gives that profile (scores run from 0 to 40)."""
PROFILE_VALID_DAYS = 365
"""A risk profile older than this must be re-taken before any new purchase or model change."""
CONCENTRATION_LIMIT = 0.25
"""No single security may be worth more than this share of an account after a purchase."""
CHARGE_RATE, MINIMUM_CHARGE = 0.0025, 7.5
"""The dealing charge: 0.25 % of an order's value, never less than £7.50."""
WITHDRAWAL_LIMIT = 25_000.0
"""The most the desk pays out in one withdrawal; more is arranged by a wealth manager."""
PENSION_ACCESS_AGE = 57
"""No withdrawal from a pension before the holder's 57th birthday."""
ISA_ALLOWANCE = 20_000.0
"""What may be paid into ISAs in one tax year (6 April 2025 to 5 April 2026)."""
DRIFT_TRIGGER = 5.0
"""A model account is rebalanced only when some fund sits more than this many points off its target weight."""
REBALANCE_GAP_DAYS = 90
"""Days that must pass after a rebalance before the next one."""
ALERT_BAND = 0.3
"""A price alert's level lies within 30 % of the latest price, either way."""


def day(text: str) -> date:
    """A ``YYYY-MM-DD`` date of the data or of a tool's argument."""
    return date.fromisoformat(text)


def cents(value: float) -> float:
    """``value`` rounded to the penny."""
    return round(value + 1e-9, 2)


def money(value: float) -> str:
    """An amount as an output holds it: two decimals, no thousands separator (``12450.00``)."""
    return f"{cents(value):.2f}"


def price(security: Mapping[str, Any], on: str = LATEST) -> float:
    """The security's price on one of :data:`PRICE_DATES`."""
    return float(security["prices"][on])


def dealing_charge(value: float) -> float:
    """The charge on an order worth ``value``."""
    return cents(max(MINIMUM_CHARGE, value * CHARGE_RATE))


def profile_for(score: int) -> str:
    """The risk profile a questionnaire score gives."""
    return next(profile for bound, profile in PROFILE_BANDS if score <= bound)


def birthday(born: str, years: int) -> date:
    """The day a person born on ``born`` turns ``years`` (29 February falls on 1 March)."""
    start = day(born)
    try:
        return start.replace(year=start.year + years)
    except ValueError:
        return date(start.year + years, 3, 1)


def profile_is_current(reviewed: str) -> bool:
    """Whether a profile reviewed on ``reviewed`` is still valid today."""
    return (TODAY - day(reviewed)).days <= PROFILE_VALID_DAYS


def whole_units(amount: float, unit_price: float) -> int:
    """The whole units ``amount`` buys at ``unit_price`` (never below 0)."""
    return max(0, math.floor(amount / unit_price + 1e-9))
