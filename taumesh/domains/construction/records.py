"""Helpers the desk's tools share: JSON answers, record look-ups that refuse unknown ids, dates, new ids."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """A tool's answer: the value as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``, or a refusal naming ``what`` was not found."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def where(data: Data, table: str, **fields: str) -> list[Any]:
    """The records of ``table`` whose fields equal ``fields``, in id order."""
    return [data[table][k] for k in sorted(data[table]) if all(data[table][k][f] == v for f, v in fields.items())]


def iso_day(value: str, what: str) -> str:
    """``value`` as a ``YYYY-MM-DD`` date, or a refusal."""
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise Refusal(f"{what} must be a date YYYY-MM-DD, not {value!r}") from None


def new_id(data: Data, table: str, prefix: str) -> str:
    """The id of a record the desk creates (``new`` keeps it apart from the generated records' ids)."""
    return f"{prefix}-new-{len(data[table]) + 1:04d}"


def one_of(value: str, choices: list[str], what: str) -> str:
    """``value`` when it is one of ``choices``, else a refusal listing them."""
    if value not in choices:
        raise Refusal(f"{what} must be one of {', '.join(choices)}")
    return value
