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
    """The next free id of a record the desk creates (``ext-new-0004``): never one a world holds."""
    return f"{prefix}-new-{len(data[table]) + 1:04d}"


def student(data: Data, student_id: str) -> Any:
    """The person ``student_id``, refused unless a student."""
    person = fetch(data, "people", student_id, "student")
    if person["role"] != "student":
        raise Refusal(f"{student_id} is not a student")
    return person


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema of ``properties``, all required, no others."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | tuple[str, ...] | None = None) -> dict[str, Any]:
    """A string, one of ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = list(choices)
    return schema


def whole(description: str) -> dict[str, Any]:
    """An integer (days)."""
    return {"type": "integer", "description": description}
