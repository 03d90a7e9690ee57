"""The project desk's fixed clock and the arithmetic its rules need (working days, fees, retention, minimums).

Nothing here reads the real time or draws at random, so a tool answers the same on every machine and every replay;
the policy's figures live here once, and the policy text, the tools and the task solvers all read them.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

NOW = datetime(2026, 5, 11, 7, 30)
"""The desk's clock: Monday 11 May 2026, 07:30."""
TODAY = NOW.date()
HOLIDAYS = frozenset(date.fromisoformat(d) for d in ("2026-05-25", "2026-06-19", "2026-07-03", "2026-09-07"))
"""Days the city's inspectors do not work and the desk counts as no working day."""
INSPECTION_NOTICE_DAYS = 2
"""An inspection is booked at least this many working days ahead, on a working day."""
INSPECTION_SEQUENCES: dict[str, list[str]] = {
    "building": ["footing", "framing", "insulation", "building_final"],
    "electrical": ["rough_in", "service_panel", "electrical_final"],
    "plumbing": ["underground_plumbing", "rough_plumbing", "plumbing_final"],
}
"""Each permit's inspections, in the order they must pass."""
PERMIT_RULES: dict[str, tuple[list[str], float, float]] = {
    "building": (["site_plan", "structural_drawings", "energy_calculation"], 0.0065, 350.0),
    "electrical": (["single_line_diagram", "load_calculation"], 0.0042, 180.0),
    "plumbing": (["riser_diagram", "fixture_schedule"], 0.0037, 150.0),
    "demolition": (["asbestos_survey", "utility_disconnect_letter"], 0.0031, 260.0),
}
"""Permit kind -> (documents an application needs, fee rate on the declared valuation, minimum fee)."""
HIGH_RISK_TRADES = frozenset({"demolition", "roofing", "steel_erection"})
STANDARD_COVER = 2_000_000
HIGH_RISK_COVER = 5_000_000
"""General liability a certificate must show: the standard minimum, and the minimum for high-risk trades."""
CERTIFICATE_RUNWAY_DAYS = 90
"""A new insurance certificate must run at least this many days past today."""
RETENTION_SHARE = 0.10
"""The share of every progress invoice held back until the project closes."""
CHANGE_ORDER_PRICE_DAYS = 30
"""A change order's price holds this many days from the day it was priced."""


def day(value: str) -> date:
    """A date of the data (``2026-05-18``)."""
    return date.fromisoformat(value[:10])


def is_working_day(when: date) -> bool:
    """Monday to Friday, and not a city holiday."""
    return when.weekday() < 5 and when not in HOLIDAYS


def working_days_after(start: date, end: date) -> int:
    """Working days after ``start`` up to and including ``end`` (0 when ``end`` is not after ``start``)."""
    count, current = 0, start
    while current < end:
        current += timedelta(days=1)
        count += is_working_day(current)
    return count


def earliest_inspection_day() -> date:
    """The first day an inspection may be booked for today: the second working day after today."""
    current, counted = TODAY, 0
    while counted < INSPECTION_NOTICE_DAYS:
        current += timedelta(days=1)
        counted += is_working_day(current)
    return current


def permit_fee(kind: str, valuation: float) -> float:
    """The fee an application of ``kind`` pays: the kind's rate on the valuation, never below its minimum."""
    _, rate, minimum = PERMIT_RULES[kind]
    return round(max(minimum, valuation * rate), 2)


def required_cover(trade: str) -> int:
    """The general liability a subcontractor of ``trade`` must carry."""
    return HIGH_RISK_COVER if trade in HIGH_RISK_TRADES else STANDARD_COVER


def net_payment(invoice_amount: float) -> float:
    """What a progress invoice pays now: the amount less the retention, to the cent."""
    return round(invoice_amount * (1 - RETENTION_SHARE), 2)


def price_lapsed(priced_on: str) -> bool:
    """Whether a change order priced on ``priced_on`` has lost its price today."""
    return (TODAY - day(priced_on)).days > CHANGE_ORDER_PRICE_DAYS
