"""How tools find records, number new ones and answer, in one place so that every tool refuses alike."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """A tool's observation: the value as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key} not found")
    return data[table][key]


def tag_of(record_id: str) -> str:
    """The world an id belongs to (``mat-w1-004``: ``w1``); a new record takes the world of what it is about."""
    return record_id.split("-")[1]


def next_id(data: Any, table: str, prefix: str, tag: str) -> str:
    """The next free id of ``table`` in world ``tag`` (``doc-w2-061``), from the records there now."""
    start = f"{prefix}-{tag}-"
    return f"{start}{sum(1 for key in data[table] if key.startswith(start)) + 1:03d}"


def one_of(value: str, choices: tuple[str, ...], what: str) -> str:
    """``value`` when it is one of ``choices``, else a refusal listing them."""
    if value not in choices:
        raise Refusal(f"{what} must be one of {', '.join(choices)}, not {value!r}")
    return value
