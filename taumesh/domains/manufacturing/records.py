"""What every desk tool does alike: fetch a record or refuse, answer in JSON, number a new record."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.manufacturing.clock import day


def dump(value: Any) -> str:
    """A tool's answer: the record(s) as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def checked_date(value: str) -> str:
    """``value`` when it is a date ``YYYY-MM-DD``; a refusal otherwise."""
    try:
        return day(value.strip()).isoformat()
    except ValueError:
        raise Refusal(f"{value!r} is not a date (YYYY-MM-DD)") from None


def new_id(data: Data, table: str, prefix: str) -> str:
    """The next free id of a record the desk creates (``ncr-new-0003``): never one a world holds."""
    return f"{prefix}-new-{len(data[table]) + 1:04d}"


def choice(value: str, allowed: list[str], what: str) -> str:
    """``value`` when it is one of ``allowed``; a refusal listing them otherwise."""
    if value not in allowed:
        raise Refusal(f"{what} must be one of {allowed}")
    return value
