"""Builders of the tools' JSON schemas, so each tool declares its parameters in one line per argument."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose every property is required and nothing else is allowed."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string argument, optionally one of ``choices``."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def integer(description: str) -> dict[str, Any]:
    """An integer argument (days, dollars)."""
    return {"type": "integer", "description": description}
