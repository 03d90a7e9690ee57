"""What every desk tool does alike: fetch a record or refuse, answer in JSON, describe its parameters."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """A tool's answer: the record(s) as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def new_id(data: Data, table: str, prefix: str) -> str:
    """The id of a record the desk creates (``inc-new-0001`` first): counted among the desk's own, so replays agree."""
    made = sum(1 for key in data[table] if key.startswith(f"{prefix}-new-"))
    return f"{prefix}-new-{made + 1:04d}"


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema of ``properties``, all required, no others."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | tuple[str, ...] | None = None) -> dict[str, Any]:
    """A string, one of ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = list(choices)
    return schema


def one_of(value: str, allowed: list[str] | tuple[str, ...], what: str) -> str:
    """``value`` when it is one of ``allowed``; a refusal listing them otherwise."""
    if value not in allowed:
        raise Refusal(f"{what} must be one of {list(allowed)}")
    return value
