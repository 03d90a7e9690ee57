"""The desk's worlds: one company's books a seed, with its staff, suppliers, orders, invoices, budgets and periods.

Every id but the shared chart of accounts and tax codes carries the world's tag. :data:`INVARIANTS` states what a
set of books keeps true (tax is the rate of its code, a paid invoice was paid in the past, credits never exceed an
invoice, closed periods come before open ones) and :func:`worlds` checks it on each world it builds.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from taumesh.domains.accounting.clock import TODAY, cents, days_after, tax_on
from taumesh.domains.accounting.vocabulary import (
    ACCOUNTS,
    COMPANIES,
    COST_CENTERS,
    FIRST,
    GOODS,
    LAST,
    SUPPLIERS,
    TAX_CODES,
)
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 44_401, "w2": 44_402, "w3": 44_403}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
SHARED = ("accounts", "tax_codes")
"""Reference tables every world holds alike; no tool writes them."""
LAST_CLOSED = "2025-08"
"""Every company has closed its books through August; September onwards is open (policy 9.2)."""
SUPPLIER_COUNT = 16
ROLES = ["ap_clerk"] * 5 + ["accountant"] * 5 + ["budget_holder"] * 6
POSTING_LIMITS = (5_000.0, 10_000.0, 25_000.0)

Record = dict[str, Any]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the shared tables' carries ``tag``."""
    rng = random.Random(seed)
    company_id = f"co-{tag}"
    tables: World = {
        "companies": {company_id: {"company_id": company_id, "name": COMPANIES[tag], "currency": "GBP"}},
        "staff": {},
        "suppliers": {},
        "purchase_orders": {},
        "invoices": {},
        "credit_notes": {},
        "periods": {},
        "accounts": copy.deepcopy(ACCOUNTS),
        "tax_codes": copy.deepcopy(TAX_CODES),
        "budgets": {},
        "journal_entries": {},
        "reconciliations": {},
        "verifications": {},
        "handoffs": {},
        "portals": {},
    }
    for month in range(1, 13):
        name = f"2025-{month:02d}"
        period_id = f"per-{tag}-{name}"
        status = "closed" if name <= LAST_CLOSED else "open"
        tables["periods"][period_id] = {
            "period_id": period_id,
            "company_id": company_id,
            "month": name,
            "status": status,
        }
    people = rng.sample([(f, last) for f in FIRST for last in LAST], len(ROLES) + SUPPLIER_COUNT)
    holders = iter(rng.sample(sorted(COST_CENTERS), sum(r == "budget_holder" for r in ROLES)))
    for number, (role, (first, last)) in enumerate(zip(ROLES, people, strict=False), 1):
        staff = _staff(rng, tag, number, role, first, last, next(holders) if role == "budget_holder" else None)
        tables["staff"][staff["staff_id"]] = staff
        tables["portals"][staff["staff_id"]] = _portal(rng, staff["staff_id"], first)
    for number, (name, (first, last)) in enumerate(
        zip(rng.sample(SUPPLIERS, SUPPLIER_COUNT), people[len(ROLES) :], strict=True), 1
    ):
        supplier = _supplier(rng, tag, number, name, first, last)
        tables["suppliers"][supplier["supplier_id"]] = supplier
        tables["portals"][supplier["supplier_id"]] = _portal(rng, supplier["supplier_id"], first)
        for _ in range(rng.choice([3, 3, 4, 4, 5])):
            _order_and_invoice(rng, tables, tag, supplier)
        _issued_credit_note(rng, tables, supplier)
    for code in sorted(COST_CENTERS):
        for quarter in ("2025-Q3", "2025-Q4"):
            _budget(rng, tables, tag, company_id, code, quarter)
    accountants = [s for s in tables["staff"].values() if s["role"] == "accountant"]
    for number in range(1, 13):
        _journal(rng, tables, tag, number, rng.choice(accountants))
    return tables


def _staff(rng: random.Random, tag: str, number: int, role: str, first: str, last: str, center: str | None) -> Record:
    domain = COMPANIES[tag].split()[0].lower()
    return {
        "company_id": f"co-{tag}",
        "staff_id": f"stf-{tag}-{number:02d}",
        "first_name": first,
        "last_name": last,
        "email": f"{first.lower()}.{last.lower()}@{domain}.example",
        "employee_number": f"E{rng.randint(10000, 99999)}",
        "role": role,
        "cost_center": center,
        "posting_limit": rng.choice(POSTING_LIMITS) if role == "accountant" else 0.0,
    }


def _portal(rng: random.Random, caller_id: str, first: str) -> Record:
    return {
        "caller_id": caller_id,
        "username": f"{first.lower()}{rng.randint(10, 99)}",
        "pin": f"{rng.randint(0, 999999):06d}",
        "signed_in": False,
        "inbox": [],
        "credit_notes": [],
        "approvals": [],
    }


def _account_number(rng: random.Random) -> tuple[str, str]:
    sort_code = f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}"
    return sort_code, f"{rng.randint(10_000_000, 99_999_999)}"


def _supplier(rng: random.Random, tag: str, number: int, name: str, first: str, last: str) -> Record:
    slug = name.split()[0].lower()
    sort_code, account = _account_number(rng)
    history = []
    last_change = None
    if rng.random() < 0.6:
        last_change = days_after(TODAY, -rng.choice([12, 37, 64, 95, 150, 171, 200, 260, 340, 420]))
        history.append(
            {"changed_on": last_change, "account_number": account, "reference": f"BKA-{tag.upper()}{number:04d}"}
        )
    return {
        "supplier_id": f"sup-{tag}-{number:02d}",
        "company_id": f"co-{tag}",
        "name": name,
        "contact_name": f"{first} {last}",
        "contact_email": f"{first.lower()}.{last.lower()}@{slug}.example",
        "tax_id": f"GB{rng.randint(100_000_000, 999_999_999)}",
        "bank": {"sort_code": sort_code, "account_number": account},
        "bank_history": history,
        "last_bank_change": last_change,
    }


def _order_and_invoice(rng: random.Random, tables: World, tag: str, supplier: Record) -> None:
    item, low, high = rng.choice(GOODS)
    po_id = f"po-{tag}-{len(tables['purchase_orders']) + 1:03d}"
    quantity = rng.randrange(10, 400, 5)
    price = cents(rng.uniform(low, high))
    received = quantity if rng.random() < 0.72 else quantity - rng.randrange(5, max(quantity // 2, 10), 5)
    order = {"po_id": po_id, "supplier_id": supplier["supplier_id"], "item": item, "quantity": quantity}
    tables["purchase_orders"][po_id] = {**order, "unit_price": price, "received_quantity": max(received, 0)}
    paid = rng.random() < 0.3
    dated = days_after(TODAY, -rng.randint(75, 120) if paid else -rng.randint(3, 24))
    invoiced_price = price if rng.random() < 0.75 else cents(price * rng.choice([1.01, 1.015, 1.04, 1.06, 1.09]))
    tax_code = rng.choice(["S20", "S20", "S20", "R5", "Z0"])
    net = cents(quantity * invoiced_price)
    tax = tax_on(net, tax_code)
    matches = quantity <= received and invoiced_price <= cents(price * 1.02)
    status = (
        "paid" if paid else rng.choice(["received", "received", "approved"] if matches else ["received", "on_hold"])
    )
    hold = None
    if status == "on_hold":
        hold = "quantity_not_received" if quantity > received else "price_over_tolerance"
        if hold == "quantity_not_received" and rng.random() < 0.75:
            tables["purchase_orders"][po_id]["received_quantity"] = quantity  # the rest arrived after the hold (4.5)
    history = {
        "paid": ["received", "approved", "paid"],
        "approved": ["received", "approved"],
        "on_hold": ["received", f"on_hold:{hold}"],
        "received": ["received"],
    }[status]
    due = days_after(dated, 30)
    invoice_id = f"inv-{tag}-{len(tables['invoices']) + 1:03d}"
    tables["invoices"][invoice_id] = {
        "invoice_id": invoice_id,
        "invoice_number": f"SI-{rng.randint(10000, 99999)}",
        "supplier_id": supplier["supplier_id"],
        "po_id": po_id,
        "invoice_date": dated,
        "period": dated[:7],
        "quantity": quantity,
        "unit_price": invoiced_price,
        "net": net,
        "tax_code": tax_code,
        "tax": tax,
        "gross": cents(net + tax),
        "credited_net": 0.0,
        "status": status,
        "hold_reason": hold,
        "due_date": due,
        "payment_date": due if status in ("paid", "approved") else None,
        "early_discount": 0.0,
        "history": history,
    }
    if status != "paid" and rng.random() < 0.2:
        _recorded_credit_note(rng, tables, tag, tables["invoices"][invoice_id])


def _recorded_credit_note(rng: random.Random, tables: World, tag: str, invoice: Record) -> None:
    net = cents(invoice["net"] * rng.choice([0.05, 0.1, 0.15]))
    tax = tax_on(net, invoice["tax_code"])
    note_id = f"cn-{tag}-{len(tables['credit_notes']) + 1:03d}"
    tables["credit_notes"][note_id] = {
        "credit_note_id": note_id,
        "invoice_id": invoice["invoice_id"],
        "credit_note_number": f"CN-{rng.randint(1000, 9999)}",
        "net": net,
        "tax": tax,
        "gross": cents(net + tax),
        "recorded_on": days_after(invoice["invoice_date"], 2),
    }
    invoice["credited_net"] = net


def _issued_credit_note(rng: random.Random, tables: World, supplier: Record) -> None:
    """A credit note issued in the supplier's portal, not yet recorded: most within the invoice, some beyond (7.2)."""
    unpaid = [
        i for i in tables["invoices"].values() if i["supplier_id"] == supplier["supplier_id"] and i["status"] != "paid"
    ]
    if not unpaid:
        return
    invoice = rng.choice(unpaid)
    remaining = cents(invoice["net"] - invoice["credited_net"])
    net = cents(remaining * rng.uniform(0.08, 0.45)) if rng.random() < 0.65 else cents(remaining + rng.uniform(15, 240))
    tables["portals"][supplier["supplier_id"]]["credit_notes"].append(
        {
            "credit_note_number": f"CN-{rng.randint(1000, 9999)}",
            "invoice_number": invoice["invoice_number"],
            "net": net,
            "issued": days_after(TODAY, -rng.randint(1, 6)),
        }
    )


def _budget(rng: random.Random, tables: World, tag: str, company_id: str, code: str, quarter: str) -> None:
    amount = float(rng.randrange(20_000, 120_000, 500))
    spent = cents(amount * rng.uniform(0.3, 0.8) if quarter == "2025-Q3" else 0.0)
    committed = cents((amount - spent) * rng.uniform(0.1, 0.9))
    budget_id = f"bud-{tag}-{code}-{quarter[-2:]}"
    tables["budgets"][budget_id] = {
        "budget_id": budget_id,
        "company_id": company_id,
        "cost_center": code,
        "quarter": quarter,
        "amount": amount,
        "spent": spent,
        "committed": committed,
        "moves": [],
    }


def _journal(rng: random.Random, tables: World, tag: str, number: int, accountant: Record) -> None:
    month = f"2025-{rng.randint(1, 8):02d}"
    debit, credit = rng.choice([("6200", "2300"), ("6300", "2300"), ("1300", "6100"), ("6400", "2300")])
    entry_id = f"je-{tag}-{number:03d}"
    tables["journal_entries"][entry_id] = {
        "entry_id": entry_id,
        "company_id": accountant["company_id"],
        "period_id": f"per-{tag}-{month}",
        "debit_account": debit,
        "credit_account": credit,
        "amount": float(rng.randrange(300, 20_000, 50)),
        "posted_by": accountant["staff_id"],
        "posted_on": f"{month}-{rng.randint(20, 28)}",
    }


def _tax_matches_code(invoice: Record) -> str | None:
    if abs(invoice["tax"] - tax_on(invoice["net"], invoice["tax_code"])) > 0.005:
        return f"tax {invoice['tax']} is not {invoice['tax_code']} on {invoice['net']}"
    if abs(invoice["gross"] - cents(invoice["net"] + invoice["tax"])) > 0.005:
        return "gross is not net plus tax"
    return None


def _paid_in_the_past(invoice: Record) -> str | None:
    if invoice["status"] == "paid":
        return None if invoice["payment_date"] < TODAY.isoformat() else "is paid on a future date"
    return None if invoice["due_date"] > TODAY.isoformat() else "is unpaid past its due date"


def _hold_has_reason(invoice: Record) -> str | None:
    return (
        None if (invoice["status"] == "on_hold") == (invoice["hold_reason"] is not None) else "hold and reason disagree"
    )


def _credits_within_invoices(world: World) -> list[str]:
    problems = []
    for invoice in world["invoices"].values():
        recorded = sum(n["net"] for n in world["credit_notes"].values() if n["invoice_id"] == invoice["invoice_id"])
        if abs(recorded - invoice["credited_net"]) > 0.005 or recorded > invoice["net"]:
            problems.append(f"invoice {invoice['invoice_id']}: credits {recorded} against net {invoice['net']}")
    return problems


def _closed_before_open(world: World) -> list[str]:
    months = sorted((p["month"], p["status"]) for p in world["periods"].values())
    statuses = [status for _, status in months]
    return [] if statuses == sorted(statuses) else ["a closed period follows an open one"]


def _budgets_not_overspent(budget: Record) -> str | None:
    left = budget["amount"] - budget["spent"] - budget["committed"]
    return None if left >= 0 else f"spent and committed exceed the amount by {-left:.2f}"


def _unique_emails(world: World) -> list[str]:
    emails = [s["email"] for s in world["staff"].values()] + [s["contact_email"] for s in world["suppliers"].values()]
    return [] if len(emails) == len(set(emails)) else ["two callers share an email"]


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table not in SHARED
        for key in records
        if key.split("-")[1] not in SEEDS
    ]


INVARIANTS = (
    per_record("invoices", "tax is the rate of the invoice's code; gross is net plus tax", _tax_matches_code),
    per_record("invoices", "paid invoices were paid in the past; open ones fall due ahead", _paid_in_the_past),
    per_record("invoices", "an invoice is on hold exactly when it has a hold reason", _hold_has_reason),
    per_record("budgets", "no budget line has spent and committed more than it holds", _budgets_not_overspent),
    Invariant("credit notes add up to an invoice's credited net and never exceed it", _credits_within_invoices),
    Invariant("closed periods all come before open ones", _closed_before_open),
    Invariant("every caller has an email of their own", _unique_emails),
    Invariant("every id but the shared tables' carries its world's tag", _tagged),
)
