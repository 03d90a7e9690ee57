"""The firm's fixed clock and the arithmetic its rules use: working days, deadline moves, fees and retainers.

Tools and the task generator share these functions, so the rule a task's gold follows is the rule the tools apply.
Nothing here reads the real time or draws a random number: replaying the same calls gives the same state.
"""

from __future__ import annotations

from datetime import date, timedelta

TODAY = date(2026, 9, 15)
"""The desk's today: Tuesday 15 September 2026."""
COURT_SET = frozenset({"filing", "hearing", "limitation"})
"""Deadline kinds a court or a statute fixes; the desk never moves them."""
INTERNAL = ("internal_review", "client_meeting", "draft_due")
"""Deadline kinds the firm sets for itself; a team member may move them."""
MAX_SLIP_DAYS = 14
"""An internal deadline may end up at most this many days after the date it was first set for."""
RETAINER_HOURS = 10
"""An hourly engagement's retainer: this many hours at the responsible partner's rate."""
FIXED_FEES = {"estates": 2400, "employment": 3600, "property": 1800, "commercial": 5200, "family": 3000}
"""The flat fee per practice area; the retainer of a fixed-fee engagement is half of it."""
NO_CONTINGENCY = frozenset({"family", "criminal"})
"""Practice areas where a fee contingent on the outcome is barred."""
PRACTICE_AREAS = ("commercial", "employment", "estates", "family", "criminal", "property")
FEE_BASES = ("hourly", "fixed", "contingency")
DISPOSITIONS = ("settled", "judgment", "completed", "withdrawn")


def day(text: str) -> date:
    """A ``YYYY-MM-DD`` date of the data or of a tool's argument."""
    return date.fromisoformat(text)


def next_working_day(when: date) -> date:
    """``when``, or the Monday after it when it falls on a weekend (the firm's deadlines fall on working days)."""
    while when.weekday() >= 5:
        when += timedelta(days=1)
    return when


def moved_date(current: str, days: int) -> str:
    """Where a deadline lands when moved ``days`` later: that day, or the next working day."""
    return next_working_day(day(current) + timedelta(days=days)).isoformat()


def latest_slip(original: str) -> str:
    """The latest date an internal deadline first set for ``original`` may be moved to."""
    return (day(original) + timedelta(days=MAX_SLIP_DAYS)).isoformat()


def latest_move(original: str) -> str:
    """The last working day an internal deadline first set for ``original`` may still be moved to."""
    latest = day(latest_slip(original))
    while latest.weekday() >= 5:
        latest -= timedelta(days=1)
    return latest.isoformat()


def retainer(fee_basis: str, practice_area: str, hourly_rate: int) -> int:
    """The deposit an engagement letter asks for: hours at the partner's rate, half a flat fee, none on contingency."""
    if fee_basis == "hourly":
        return RETAINER_HOURS * hourly_rate
    if fee_basis == "fixed":
        return FIXED_FEES[practice_area] // 2
    return 0


def fixed_fee_offered(practice_area: str) -> bool:
    """Whether the firm has a flat fee for the practice area."""
    return practice_area in FIXED_FEES
