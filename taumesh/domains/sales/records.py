"""How tools find records, name new ones and answer: one place, so every tool refuses and numbers alike."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.sales.clock import day


def dump(value: Any) -> str:
    """A tool's observation: the value as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key} not found")
    return data[table][key]


def world_tag(record_id: str) -> str:
    """The world an id belongs to (``acc-w1-004``: ``w1``); new records of an entity keep its world."""
    return record_id.split("-")[1]


def next_id(data: Data, table: str, prefix: str, tag: str, width: int = 3) -> str:
    """The next free id of ``table`` in world ``tag`` (``qt-w1-012``), from the records there now."""
    start = f"{prefix}-{tag}-"
    return f"{start}{sum(1 for key in data[table] if key.startswith(start)) + 1:0{width}d}"


def valid_day(text: str, what: str) -> str:
    """``text`` when it is a ``YYYY-MM-DD`` date, else a refusal."""
    try:
        parsed = day(text).isoformat()
    except ValueError:
        parsed = None
    if parsed != text:
        raise Refusal(f"{what} must be a date written YYYY-MM-DD, not {text!r}")
    return parsed
