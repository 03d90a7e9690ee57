"""What every tool of the desk does alike: fetch a record or refuse, answer in JSON, number a new record."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.logistics.clock import day


def dump(value: Any) -> str:
    """A tool's answer: the value as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``, or a refusal naming what was not found."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def valid_date(value: str) -> str:
    """``value`` when it is a ``YYYY-MM-DD`` date, else a refusal."""
    try:
        day(value)
    except ValueError:
        raise Refusal(f"{value!r} is not a date (YYYY-MM-DD)") from None
    return value


def new_id(data: Data, table: str, prefix: str) -> str:
    """The next id of a table the desk adds to during a conversation (claims, incidents, hand-offs)."""
    return f"{prefix}-{len(data[table]) + 1:04d}"
