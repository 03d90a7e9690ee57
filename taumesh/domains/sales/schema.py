"""Builders of the tools' JSON schemas, so that each tool declares its parameters in one readable line."""

from __future__ import annotations

from typing import Any


def params(required: list[str] | None = None, **properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema over ``properties``; every property is required unless ``required`` says otherwise."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def string(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string parameter, limited to ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def integer(description: str) -> dict[str, Any]:
    """A whole-number parameter."""
    return {"type": "integer", "description": description}
