"""Builders of the tools' JSON schemas, so that each tool states its parameters in one line."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose every property is required and nothing else is allowed."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string property, limited to ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def integer(description: str) -> dict[str, Any]:
    """An integer property (whole dollars)."""
    return {"type": "integer", "description": description}


def number(description: str) -> dict[str, Any]:
    """A number property (dollars and cents)."""
    return {"type": "number", "description": description}
