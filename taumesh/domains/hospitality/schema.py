"""Small builders of the tools' JSON schemas, so that each tool states its parameters in one line."""

from __future__ import annotations

from typing import Any


def obj(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema over ``properties``, every one required and no other allowed."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def text(description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A string property, limited to ``enum`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = enum
    return schema


def number(description: str, kind: str = "number") -> dict[str, Any]:
    """A number (or ``integer``) property."""
    return {"type": kind, "description": description}


def strings(description: str, enum: list[str]) -> dict[str, Any]:
    """A list of strings, each one of ``enum``."""
    return {"type": "array", "description": description, "items": {"type": "string", "enum": enum}}
