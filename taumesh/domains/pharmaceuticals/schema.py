"""Small builders of the tools' JSON schemas, so every tool states its arguments in one line each."""

from __future__ import annotations

from typing import Any


def arguments(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema whose listed arguments are all required and nothing else is accepted."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def string(description: str, allowed: list[str] | None = None) -> dict[str, Any]:
    """A string argument, one of ``allowed`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if allowed is not None:
        schema["enum"] = allowed
    return schema


def euros(description: str) -> dict[str, Any]:
    """An amount in euros, cents allowed."""
    return {"type": "number", "description": description}
