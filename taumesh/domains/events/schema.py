"""Builders of the tools' JSON parameter schemas, so each tool states its arguments in one line."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose every property is required and nothing else is accepted."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string argument; ``choices`` makes it an enum."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def numeric(description: str, integer: bool = False) -> dict[str, Any]:
    """A number (or integer) argument."""
    return {"type": "integer" if integer else "number", "description": description}
