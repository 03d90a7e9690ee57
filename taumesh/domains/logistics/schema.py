"""Small builders of the tools' JSON parameter schemas."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema: every property required, no other allowed."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A string property, one of ``enum`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = enum
    return schema


def whole(description: str) -> dict[str, Any]:
    """An integer property (units counted)."""
    return {"type": "integer", "description": description}


def number(description: str) -> dict[str, Any]:
    """A number property (dollars)."""
    return {"type": "number", "description": description}
