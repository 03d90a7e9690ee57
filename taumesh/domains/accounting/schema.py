"""JSON schemas of the tools' parameters, built from three small parts."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose every property is required and which takes no other."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A string property, limited to ``enum`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = enum
    return schema


def number(description: str) -> dict[str, Any]:
    """An amount, in the company's currency."""
    return {"type": "number", "description": description}
