"""The JSON schemas of the tools' parameters: every property required, nothing else accepted."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema of ``properties``, all required, no others."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string, one of ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def whole(description: str) -> dict[str, Any]:
    """A whole number (units, minutes)."""
    return {"type": "integer", "description": description}
