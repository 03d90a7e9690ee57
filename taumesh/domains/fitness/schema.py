"""Builders of the tools' JSON schemas: every tool declares its arguments, each with a description."""

from __future__ import annotations

from typing import Any


def arguments(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose every property is required and nothing else is accepted."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, enum: list[str] | None = None) -> dict[str, Any]:
    """A string argument, limited to ``enum`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if enum is not None:
        schema["enum"] = enum
    return schema


def integer(description: str) -> dict[str, Any]:
    """A whole-number argument."""
    return {"type": "integer", "description": description}


def number(description: str) -> dict[str, Any]:
    """A number argument (an amount in dollars)."""
    return {"type": "number", "description": description}


def boolean(description: str) -> dict[str, Any]:
    """A true/false argument."""
    return {"type": "boolean", "description": description}
