"""The bank's tables as the tools read and write them: ``data[table]["data"][record_id]``, and upstream's IDs.

Queries match every constraint (``field`` or ``field__op``) and list the records in table order, each field as
Python prints its value; records are added only under a new id. IDs are upstream's: the first bytes of the SHA-256
of a seed naming what the record is about, so equal requests give equal records (and hashes).
"""

from __future__ import annotations

import hashlib
import json
import operator
from collections.abc import Callable, Mapping
from typing import Any

from taumesh.domains import Data

TODAY = "11/14/2025"
"""The scenario's fixed date (MM/DD/YYYY)."""
NOW_TEXT = "The current time is 2025-11-14 03:40:00 EST."

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
    "contains": lambda actual, wanted: wanted in actual if actual is not None else False,
    "startswith": lambda actual, wanted: str(actual).startswith(str(wanted)) if actual is not None else False,
    "endswith": lambda actual, wanted: str(actual).endswith(str(wanted)) if actual is not None else False,
    "in": lambda actual, wanted: actual in wanted,
    "nin": lambda actual, wanted: actual not in wanted,
}


def records(data: Data, table: str) -> Any:
    """The records of ``table`` (a private copy inside a write tool)."""
    return data[table]["data"]


def _matches(record: Mapping[str, Any], constraints: Mapping[str, Any]) -> bool:
    for key, wanted in constraints.items():
        field, _, op = key.rpartition("__") if "__" in key else (key, "", "eq")
        compare: Callable[[Any, Any], bool] = _OPERATORS.get(op, operator.eq)
        try:
            if not compare(record.get(field), wanted):
                return False
        except (TypeError, ValueError):
            return False
    return True


def query(data: Data, table: str, **constraints: Any) -> list[tuple[str, Any]]:
    """The ``(id, record)`` pairs of ``table`` matching every constraint, in table order."""
    return [(key, record) for key, record in records(data, table).items() if _matches(record, constraints)]


def query_text(data: Data, table: str, constraints: str = "{}") -> str:
    """Upstream's query tool output for a JSON text of constraints."""
    try:
        try:
            parsed = json.loads(constraints) if constraints else {}
        except json.JSONDecodeError as exc:
            return f"Error: Invalid JSON: {exc}"
        found = query(data, table, **parsed)
        if not found:
            return f"No records found in '{table}'."
        lines = [f"Found {len(found)} record(s) in '{table}':\n"]
        for index, (key, record) in enumerate(found, 1):
            lines.append(f"{index}. Record ID: {key}")
            lines.extend(f"   {field}: {value}" for field, value in record.items())
            lines.append("")
        return "\n".join(lines)
    except Exception as exc:  # noqa: BLE001 - upstream reports any failure of a query as text
        return f"Error querying database: {exc}"


def lookup(data: Data, table: str, field: str, value: str) -> str:
    """A query on one field, its JSON written by substitution as upstream writes it (quotes are not escaped)."""
    return query_text(data, table, f'{{"{field}": "{value}"}}')


def add(data: Data, table: str, key: str, record: dict[str, Any]) -> bool:
    """Add ``record`` under ``key``; False when the key is taken."""
    table_records = records(data, table)
    if key in table_records:
        return False
    table_records[key] = record
    return True


def deterministic_id(seed: str, length: int = 16) -> str:
    """The first ``length`` hex digits of the seed's SHA-256."""
    return hashlib.sha256(seed.encode()).digest()[: length // 2].hex()


def verification_id(user_id: str, time_verified: str) -> str:
    """The id upstream gives a record of this kind."""
    return f"{user_id}_{time_verified.replace(' ', '_').replace(':', '').replace('-', '')}"


def application_id(card_type: str, customer_name: str, annual_income: float, subscription: bool) -> str:
    """The id upstream gives a record of this kind."""
    return deterministic_id(f"credit_card:{card_type}:{customer_name}:{annual_income}:{subscription}")


def referral_id(referrer_id: str, account_type: str) -> str:
    """The id upstream gives a record of this kind."""
    return deterministic_id(f"referral:{referrer_id}:{account_type}")


def transaction_id(user_id: str, card_type: str, merchant: str, amount: float, category: str) -> str:
    """The id upstream gives a record of this kind."""
    return "txn_" + deterministic_id(f"transaction:{user_id}:{card_type}:{merchant}:{amount:.2f}:{category}", 12)


def user_tool_id(tool_name: str) -> str:
    """The id upstream gives a record of this kind."""
    return deterministic_id(f"user_discoverable_tool:{tool_name}")


def user_tool_call_id(tool_name: str, arguments: Mapping[str, Any]) -> str:
    """The id upstream gives a record of this kind."""
    return deterministic_id(f"user_discoverable_tool_call:{tool_name}:{json.dumps(arguments, sort_keys=True)}")


def agent_tool_id(tool_name: str) -> str:
    """The id upstream gives a record of this kind."""
    return deterministic_id(f"agent_discoverable_tool:{tool_name}")
