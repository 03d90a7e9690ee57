"""The JSON schemas of the tools' parameters, built from a few small parts."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose every property is required and which takes no other."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A string property, restricted to ``enum`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = enum
    return schema


def integer(description: str) -> dict[str, Any]:
    """A whole-number property (days, months, dollars)."""
    return {"type": "integer", "description": description}


def decimal(description: str) -> dict[str, Any]:
    """A number property (amounts, rates)."""
    return {"type": "number", "description": description}
