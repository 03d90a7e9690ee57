"""One-line builders of the tools' JSON schemas, so each tool states its arguments plainly."""

from __future__ import annotations

from typing import Any


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema: every listed argument required, no other argument accepted."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string argument, restricted to ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def money(description: str) -> dict[str, Any]:
    """A dollar amount, cents allowed."""
    return {"type": "number", "description": description}
