"""Due dates: a loan falls due on its due day each month, and a deferral moves that date by whole months."""

from __future__ import annotations

import calendar
from datetime import date


def on_day(year: int, month: int, due_day: int) -> date:
    """The due day in a month, the month's last day when it is shorter."""
    return date(year, month, min(due_day, calendar.monthrange(year, month)[1]))


def months_later(start: date, months: int, due_day: int) -> date:
    """The due date ``months`` after the month of ``start``, on ``due_day``."""
    index = start.year * 12 + start.month - 1 + months
    return on_day(index // 12, index % 12 + 1, due_day)


def first_on_or_after(start: date, due_day: int) -> date:
    """The first date on ``due_day`` that is not before ``start``."""
    same = on_day(start.year, start.month, due_day)
    return same if same >= start else months_later(start, 1, due_day)
