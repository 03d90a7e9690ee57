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
    """The next free id of a record the desk creates (``img-new-0003``): never one a world holds."""
    return f"{prefix}-new-{len(data[table]) + 1:04d}"


def latest_readings(data: Data, spacecraft_id: str) -> list[dict[str, Any]]:
    """Each channel of a spacecraft with its limits and its latest reading (and whether that is within them)."""
    found = []
    for channel in sorted(data["channels"].values(), key=lambda c: c["channel_id"]):
        if channel["spacecraft_id"] != spacecraft_id:
            continue
        readings = [r for r in data["readings"].values() if r["channel_id"] == channel["channel_id"]]
        last = max(readings, key=lambda r: r["time_utc"])
        within = channel["low"] <= last["value"] <= channel["high"]
        found.append({**channel, "latest": last, "within_limits": within})
    return found


def params(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema of ``properties``, all required, no others."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def text(description: str, choices: list[str] | None = None) -> dict[str, Any]:
    """A string, one of ``choices`` when given."""
    schema: dict[str, Any] = {"type": "string", "description": description}
    if choices is not None:
        schema["enum"] = choices
    return schema


def number(description: str) -> dict[str, Any]:
    """A number (square kilometres)."""
    return {"type": "number", "description": description}


def one_of(value: str, allowed: list[str] | tuple[str, ...], what: str) -> str:
    """``value`` when it is one of ``allowed``; a refusal listing them otherwise."""
    if value not in allowed:
        raise Refusal(f"{what} must be one of {list(allowed)}")
    return value
