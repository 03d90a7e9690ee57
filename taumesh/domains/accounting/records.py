"""Small helpers every tool module shares: look a record up, name a new one, total what an invoice still owes."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal
from taumesh.domains.accounting.clock import cents

OPEN_STATUSES = ("received", "approved", "on_hold")
"""Invoices the company still owes (policy 11.1)."""


def dump(value: Any) -> str:
    """What a tool answers: ``value`` written as JSON."""
    return json.dumps(value)


def get(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``, or a refusal naming what was not found."""
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def new_id(data: Data, table: str, prefix: str) -> str:
    """An id for a record a tool adds; base records carry a world tag instead, so the two never clash."""
    return f"{prefix}-{len(data[table]) + 1:04d}"


def credits_of(data: Data, invoice_id: str) -> list[Any]:
    """The credit notes recorded against an invoice, oldest first."""
    return sorted(
        (note for note in data["credit_notes"].values() if note["invoice_id"] == invoice_id),
        key=lambda note: note["credit_note_id"],
    )


def open_amount(data: Data, invoice: Any) -> float:
    """What an invoice still owes: its gross less the gross of its credit notes."""
    return cents(invoice["gross"] - sum(note["gross"] for note in credits_of(data, invoice["invoice_id"])))


def ledger_balance(data: Data, supplier_id: str) -> float:
    """What the company owes a supplier: the open amount of every invoice not yet paid (policy 11.1)."""
    invoices = [
        i for i in data["invoices"].values() if i["supplier_id"] == supplier_id and i["status"] in OPEN_STATUSES
    ]
    return cents(sum(open_amount(data, invoice) for invoice in invoices))
