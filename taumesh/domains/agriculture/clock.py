"""The farm desk's fixed clock and the arithmetic its rules use, shared by the tools, the worlds and the solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and a task's
expected figures are the ones the tools compute.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, time, timedelta

TODAY = date(2025, 7, 14)
"""The desk's clock: Monday 14 July 2025. Bookings, windows and re-entry intervals are counted from it."""
NOW = datetime.combine(TODAY, time(8, 0))
"""08:00 on the desk's day: the hour today's probe readings (taken at 06:00) are already on the probes."""
READING_HOUR = time(6, 0)
"""Soil probes take one reading a day, at 06:00."""
CREW_START = time(7, 0)
"""Field crews start at 07:00: an entry permit for a day needs the re-entry interval over by then (policy 7.2)."""
FORECAST_DAYS = 10
"""The forecast covers today and the nine days after it."""
MAX_RAIN_MM = 2.0
"""A day forecast to bring this much rain or more is not a spraying day (policy 4.3)."""
LATE_NOTICE_DAYS = 2
"""A spray job cancelled for tomorrow or the day after pays the late-notice fee (policy 5.2)."""
FEE_PER_HECTARE = 3.5
"""The contractor's late-notice fee, per hectare of the field (policy 5.2)."""
CUBIC_METRES_PER_MM_HECTARE = 10
"""One millimetre of water over one hectare is ten cubic metres."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def moment(text: str) -> datetime:
    """A time of the data, ``YYYY-MM-DDTHH:MM``."""
    return datetime.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def stamp(when: datetime) -> str:
    """A time as the data writes it: ``2025-07-14T06:00``."""
    return when.isoformat(timespec="minutes")


def reading_time(on: date) -> str:
    """When a probe's reading of day ``on`` is taken."""
    return stamp(datetime.combine(on, READING_HOUR))


def reentry_from(completed_at: str, rei_hours: int) -> str:
    """The first moment people may walk into a field sprayed at ``completed_at`` with a product of ``rei_hours``."""
    return stamp(moment(completed_at) + timedelta(hours=rei_hours))


def first_entry_day(reentry: str | None) -> str:
    """The first day whose 07:00 crew start is at or after ``reentry`` (today when the field is open)."""
    if reentry is None:
        return TODAY.isoformat()
    opens = moment(reentry)
    first = opens.date() if opens.time() <= CREW_START else opens.date() + timedelta(days=1)
    return max(first, TODAY).isoformat()


def late_notice_fee(job_date: str, area_ha: float) -> float:
    """The fee for cancelling a job dated ``job_date``: per hectare within the late-notice days, else nothing."""
    ahead = (day(job_date) - TODAY).days
    return round(area_ha * FEE_PER_HECTARE, 2) if 1 <= ahead <= LATE_NOTICE_DAYS else 0.0


def water_volume(depth_mm: float, area_ha: float) -> float:
    """Cubic metres a ``depth_mm`` irrigation of ``area_ha`` takes."""
    return round(depth_mm * area_ha * CUBIC_METRES_PER_MM_HECTARE, 1)


def yield_per_hectare(tonnes: float, area_ha: float) -> float:
    """Tonnes per hectare, to two decimals, as yield records state it."""
    return round(tonnes / area_ha, 2)


def log_reference(job_id: str) -> str:
    """The reference the grower's field app gives a spray log they confirm: the same everywhere, for every replay."""
    return "SL-" + hashlib.sha256(f"{job_id}:spray-log".encode()).hexdigest()[:8].upper()


def figure(value: float) -> str:
    """A number as an output holds it: ``218.4``, ``10325``, ``6.62``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
