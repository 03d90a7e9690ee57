"""How tools find records, name new ones, declare parameters and answer: one place, so every tool does it alike."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """A tool's observation: the value as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key} not found")
    return data[table][key]


def world_tag(record_id: str) -> str:
    """The world an id belongs to (``cmp-w1-004``: ``w1``); new records of an entity keep its world."""
    return record_id.split("-")[1]


def next_id(data: Data, table: str, prefix: str, tag: str) -> str:
    """The next free id of ``table`` in world ``tag`` (``exp-w1-012``), from the records there now."""
    start = f"{prefix}-{tag}-"
    return f"{start}{sum(1 for key in data[table] if key.startswith(start)) + 1:03d}"


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema over ``properties``, every one required."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string parameter, limited to ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def number(description: str) -> dict[str, Any]:
    """A numeric parameter (dollars)."""
    return {"type": "number", "description": description}


def integer(description: str) -> dict[str, Any]:
    """A whole-number parameter."""
    return {"type": "integer", "description": description}
