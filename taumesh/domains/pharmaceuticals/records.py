"""What the desk's tools share: JSON answers, look-ups that refuse unknown ids, dates, ids for new records."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from taumesh.domains import Data, Refusal


def answer(value: Any) -> str:
    """A tool's observation: ``value`` as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """Record ``key`` of ``table``, or a refusal saying which ``what`` is unknown."""
    found = data[table].get(key.strip()) if isinstance(key, str) else None
    if found is None:
        raise Refusal(f"no {what} {key!r}")
    return found


def matching(data: Data, table: str, **fields: Any) -> list[Any]:
    """The records of ``table`` whose fields equal ``fields``, in id order."""
    rows = data[table]
    return [rows[k] for k in sorted(rows) if all(rows[k][f] == v for f, v in fields.items())]


def calendar_day(value: str, what: str) -> str:
    """``value`` as ``YYYY-MM-DD``, or a refusal."""
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except (ValueError, AttributeError):
        raise Refusal(f"{what} must be written YYYY-MM-DD, not {value!r}") from None


def next_id(data: Data, table: str, prefix: str) -> str:
    """The id of a record the desk creates in a session (``-new-`` keeps it apart from the generated ids)."""
    return f"{prefix}-new-{len(data[table]) + 1:03d}"


def choice(value: str, allowed: list[str], what: str) -> str:
    """``value`` if it is one of ``allowed``, else a refusal listing them."""
    if value not in allowed:
        raise Refusal(f"{what} must be one of: {', '.join(allowed)}")
    return value
