"""What a solver reads from a world, as the agent would find it with the tools."""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.accounting.clock import PRICE_TOLERANCE, cents
from taumesh.domains.accounting.world import LAST_CLOSED
from taumesh.domains.factory import World

Record = dict[str, Any]


def by_id(table: dict[str, Record]) -> list[Record]:
    """A table's records in id order, so that a seed always meets them in the same order."""
    return [table[key] for key in sorted(table)]


def staff_in(world: World, role: str, rng: random.Random) -> Record:
    """One staff member of ``role``, drawn from ``rng``."""
    return rng.choice([s for s in by_id(world["staff"]) if s["role"] == role])


def supplier_of(world: World, invoice: Record) -> Record:
    """The supplier who sent ``invoice``."""
    supplier: Record = world["suppliers"][invoice["supplier_id"]]
    return supplier


def match_failure(world: World, invoice: Record) -> str | None:
    """Which test of the three-way match an invoice fails (policy 4.2), or None when it matches."""
    order = world["purchase_orders"][invoice["po_id"]]
    short = invoice["quantity"] > order["received_quantity"]
    dear = invoice["unit_price"] > cents(order["unit_price"] * (1 + PRICE_TOLERANCE))
    if short and dear:
        return "both"
    return "quantity_not_received" if short else "price_over_tolerance" if dear else None


def open_amount(world: World, invoice: Record) -> float:
    """What an invoice still owes: gross less its credit notes' gross."""
    credits = sum(n["gross"] for n in world["credit_notes"].values() if n["invoice_id"] == invoice["invoice_id"])
    return cents(invoice["gross"] - credits)


def ledger_balance(world: World, supplier_id: str) -> float:
    """The open amounts of a supplier's unpaid invoices (policy 11.1)."""
    mine = [i for i in world["invoices"].values() if i["supplier_id"] == supplier_id and i["status"] != "paid"]
    return cents(sum(open_amount(world, i) for i in mine))


def closed(month: str) -> bool:
    """Whether a period (``YYYY-MM``) is closed (policy 9.2)."""
    return month <= LAST_CLOSED


def spare(budget: Record) -> float:
    """What a budget line can spare: amount less spent less committed (policy 10.3)."""
    return cents(budget["amount"] - budget["spent"] - budget["committed"])
