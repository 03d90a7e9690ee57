"""The service desk's fixed clock and the numbers its rules turn on, shared by the tools, the worlds and the solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and the figures
a task expects are the ones the tools compute. An owner's grant code is a digest of the data set and the person it
admits, so a replay finds the same code again.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2026, 9, 14)
"""The desk's clock: Monday 14 September 2026 (UTC). Training expiries and grant dates are read against it."""
DROP_LIMIT = 0.10
"""Rows with a missing value may be dropped only while they are at most this share of the data set (policy 4.2)."""
MIN_GROUP_ROWS = 8
"""A group comparison needs at least this many usable rows in each group (policy 6.2)."""
MAX_PIE_SLICES = 5
"""A pie chart shows at most this many categories (policy 7.3)."""
GRANT_DAYS = 90
"""How long a new access grant lasts (policy 3.4)."""
CHANNELS = ("web", "store")
REGIONS = ("north", "south", "east", "west", "central", "coastal")
NUMERIC_COLUMNS = ("spend", "visits", "tenure_months")
CATEGORY_COLUMNS = ("channel", "region")


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    return (start + timedelta(days=days)).isoformat()


def grant_code(dataset_id: str, requester_id: str) -> str:
    """The code a data owner's approval app shows for admitting ``requester_id`` to ``dataset_id``."""
    return "DO-" + hashlib.sha256(f"{dataset_id}|{requester_id}|admit".encode()).hexdigest()[:6].upper()


def figure(value: float) -> str:
    """A figure as an output holds it, to two decimals without trailing zeros: ``41.5``, ``3.07``, ``12``."""
    return f"{round(value + 1e-9, 2):.2f}".rstrip("0").rstrip(".")
