"""Small helpers every tool module uses: a record by id or a refusal, dates checked, the next id of a table."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.agriculture.clock import day


def dump(value: Any) -> str:
    """A tool's observation: the value as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``, or a refusal naming ``what`` was not found."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def calendar_day(text: str) -> date:
    """``text`` as a date, or a refusal saying the format."""
    try:
        return day(text)
    except ValueError:
        raise Refusal(f"{text!r} is not a date (YYYY-MM-DD)") from None


def next_id(data: Data, table: str, prefix: str) -> str:
    """An id for a new record of ``table``: the prefix and the table's next number."""
    return f"{prefix}-{len(data[table]) + 1:04d}"
