"""How tools find records, name new ones, value accounts and answer: one place, so every tool does it alike."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.finance.clock import cents, price


def dump(value: Any) -> str:
    """A tool's observation: the value as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key} not found")
    return data[table][key]


def world_tag(record_id: str) -> str:
    """The world an id belongs to (``ac-w1-004``: ``w1``); new records of an entity keep its world."""
    return record_id.split("-")[1]


def next_id(data: Data, table: str, prefix: str, tag: str) -> str:
    """The next free id of ``table`` in world ``tag`` (``tk-w1-012``), from the records there now."""
    start = f"{prefix}-{tag}-"
    return f"{start}{sum(1 for key in data[table] if key.startswith(start)) + 1:03d}"


def holdings_of(data: Data, account_id: str) -> list[Any]:
    """The account's holdings, by id."""
    return sorted(
        (h for h in data["holdings"].values() if h["account_id"] == account_id), key=lambda h: h["holding_id"]
    )


def holding_value(data: Data, holding: Any, on: str | None = None) -> float:
    """What a holding is worth at the latest price (or on a price date)."""
    security = data["securities"][holding["ticker"]]
    return cents(holding["units"] * (price(security, on) if on else price(security)))


def invested(data: Data, account_id: str) -> float:
    """The value of every holding of the account at the latest prices."""
    return cents(sum(holding_value(data, h) for h in holdings_of(data, account_id)))


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema over ``properties``, every one required."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string parameter, limited to ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def whole(description: str) -> dict[str, Any]:
    """A whole-number parameter."""
    return {"type": "integer", "description": description}


def number(description: str) -> dict[str, Any]:
    """A parameter in pounds or another decimal number."""
    return {"type": "number", "description": description}
