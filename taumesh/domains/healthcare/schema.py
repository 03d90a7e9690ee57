"""Small builders of the tools' JSON schemas."""

from __future__ import annotations

from typing import Any


def obj(required: list[str] | None = None, **properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema over ``properties``; ``required`` defaults to all of them."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def text(description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A string property."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = enum
    return schema


def number(description: str, kind: str = "number") -> dict[str, Any]:
    """A number (or ``integer``) property."""
    return {"type": kind, "description": description}
