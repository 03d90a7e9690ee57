"""What every desk tool does alike: fetch a record or refuse, answer in JSON, describe its parameters."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """A tool's answer: the record(s) as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def new_id(data: Data, table: str, prefix: str) -> str:
    """The next free id of a record the desk creates (``ex-new-0011``): never one a world holds."""
    return f"{prefix}-new-{len(data[table]) + 1:04d}"


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema of ``properties``, all required, no others."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string, one of ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def integer(description: str) -> dict[str, Any]:
    """A whole number (units, minutes, hours)."""
    return {"type": "integer", "description": description}


def flag(description: str) -> dict[str, Any]:
    """A yes/no switch."""
    return {"type": "boolean", "description": description}


def under(path: str, prefix: str) -> bool:
    """Whether ``path`` lies under the path prefix ``prefix`` (``/catalog/x`` under ``/catalog``)."""
    base = prefix.rstrip("/")
    return path == base or path.startswith(base + "/")


def pages_under(data: Data, site_id: str, prefix: str) -> list[Any]:
    """The pages of a site under a path prefix, in path order."""
    found = [p for p in data["pages"].values() if p["site_id"] == site_id and under(p["path"], prefix)]
    return sorted(found, key=lambda p: p["path"])
