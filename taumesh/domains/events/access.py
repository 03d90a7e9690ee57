"""Lookups every tool shares: a record by id or a Refusal naming what is missing, and JSON for observations."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """An observation: ``value`` as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``, or a Refusal saying the ``what`` was not found."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def wallet_of(data: Data, account_email: str) -> Any:
    """The ticket app signed in with ``account_email``."""
    for wallet in data["wallets"].values():
        if wallet["account_email"].lower() == account_email.strip().lower():
            return wallet
    raise Refusal("no ticket app is signed in with that email")


def notify(data: Data, attendee_id: str, kind: str, text: str) -> None:
    """Show a notification in the attendee's app, once (sending the same one again changes nothing)."""
    wallet = data["wallets"].get(attendee_id)
    if wallet is not None and not any(n["kind"] == kind and n["text"] == text for n in wallet["notifications"]):
        wallet["notifications"].append({"kind": kind, "text": text})
