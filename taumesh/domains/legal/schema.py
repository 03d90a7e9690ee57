"""Builders of the tools' JSON schemas, so that each tool declares its parameters in one readable line."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema over ``properties``, every one required, nothing else accepted."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A string parameter, limited to ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = list(choices)
    return schema


def whole(description: str) -> dict[str, Any]:
    """A whole-number parameter."""
    return {"type": "integer", "description": description}
