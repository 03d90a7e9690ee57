"""Lookups and new ids the tools share: a record or a refusal naming what is missing, and ids tagged by world."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.real_estate.clock import tag_of


def dump(value: Any) -> str:
    """A tool's answer: the value as JSON."""
    return json.dumps(value)


def fetch(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a Refusal saying which ``what`` is unknown otherwise."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def owned(data: Data, table: str, client_id: str) -> list[Any]:
    """The records of ``table`` that belong to the client (who must exist)."""
    fetch(data, "clients", client_id, "client")
    return [record for record in data[table].values() if record["client_id"] == client_id]


def new_id(data: Data, table: str, prefix: str, like: str) -> str:
    """The next id of ``table`` in the world of the record ``like`` (its tag), such as ``tour-w1-021``."""
    tag = tag_of(like)
    taken = sum(1 for key in data[table] if key.startswith(f"{prefix}-{tag}-"))
    return f"{prefix}-{tag}-{taken + 1:03d}"


def notify(data: Data, to: str, topic: str, listing_id: str, client_id: str) -> None:
    """Record a notice to a party (a listing agent or the client), as the agency's system sends it."""
    message_id = new_id(data, "messages", "msg", client_id)
    data["messages"][message_id] = {
        "message_id": message_id,
        "to": to,
        "topic": topic,
        "listing_id": listing_id,
        "client_id": client_id,
    }
