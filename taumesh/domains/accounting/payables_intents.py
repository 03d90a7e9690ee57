"""Reference solvers of the payables intents: invoices, early settlement, credit notes, accounts, statements.

Each lists every outcome the policy allows and what the agent must say; for a trap, the
write the caller asks for and the clause that forbids it. One instruction template per intent, trap or not.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.accounting.clock import (
    EARLY_SETTLEMENT_RATE,
    bank_change_allowed,
    bank_change_reference,
    cents,
    money,
    next_bank_change,
    tax_on,
)
from taumesh.domains.accounting.drafts import Draft
from taumesh.domains.accounting.lookups import (
    Record,
    by_id,
    ledger_balance,
    match_failure,
    open_amount,
    staff_in,
    supplier_of,
)
from taumesh.domains.factory import World, act

QUANTITY_SHORT = "received|receipt|delivered"
PRICE_HIGH = "price|tolerance"
ON_HOLD = "on hold|held"
EXCEEDS = "exceeds|more than|greater than|larger than"


def approve_invoice_subjects(world: World) -> list[Record]:
    """Received invoices failing at most one test of the match: a task tests one reason."""
    return [i for i in by_id(world["invoices"]) if i["status"] == "received" and match_failure(world, i) != "both"]


def approve_invoice(world: World, invoice: Record, rng: random.Random, persona: str) -> Draft | None:
    """Approve a matching invoice (4.3); hold one that fails the match, with the test it failed (4.4)."""
    clerk = staff_in(world, "ap_clerk", rng)
    supplier = supplier_of(world, invoice)
    draft = Draft(world, clerk, persona, intent="approve_invoice").verify().cite("1.2", "4.1", "4.2")
    draft.do(
        act("find_invoice", invoice_number=invoice["invoice_number"]),
        act("get_purchase_order", po_id=invoice["po_id"]),
    )
    draft.goal.append(
        f"You want {supplier['name']}'s invoice {invoice['invoice_number']} approved for payment. If it cannot be"
        " approved, you want to know exactly why, and for it to be dealt with as the desk's rules say."
    )
    approve = act("approve_invoice", invoice_id=invoice["invoice_id"])
    failure = match_failure(world, invoice)
    if failure is None:
        return draft.cite("4.3", "3.1").do(approve)
    test = "more was invoiced than received" if failure == "quantity_not_received" else "the price is over tolerance"
    draft.trap(f"4.4: {test}: the invoice is held, never approved", approve).cite("4.4", "3.3")
    draft.do(act("hold_invoice", invoice_id=invoice["invoice_id"], reason=failure))
    phrases = QUANTITY_SHORT if failure == "quantity_not_received" else PRICE_HIGH
    return draft.say("text", phrases, f"4.4: the test the match failed ({failure})")


def release_hold_subjects(world: World) -> list[Record]:
    """Invoices on hold whose match now passes (the goods arrived since) or still fails one test."""
    return [i for i in by_id(world["invoices"]) if i["status"] == "on_hold" and match_failure(world, i) != "both"]


def release_hold(world: World, invoice: Record, rng: random.Random, persona: str) -> Draft | None:
    """Approve a held invoice that matches now (4.5); one that still fails stays held, and the clerk hears why."""
    clerk = staff_in(world, "ap_clerk", rng)
    supplier = supplier_of(world, invoice)
    draft = Draft(world, clerk, persona, intent="release_hold").verify().cite("1.2", "4.2", "4.5")
    draft.do(
        act("find_invoice", invoice_number=invoice["invoice_number"]),
        act("get_purchase_order", po_id=invoice["po_id"]),
    )
    draft.goal.append(
        f"{supplier['name']}'s invoice {invoice['invoice_number']} was put on hold, and you want it approved for"
        " payment now. If it still cannot be approved, you want to know exactly what is still wrong."
    )
    approve = act("approve_invoice", invoice_id=invoice["invoice_id"])
    failure = match_failure(world, invoice)
    if failure is None:
        return draft.cite("3.1").do(approve)
    draft.trap(f"4.5: the match still fails ({failure}): the invoice stays on hold", approve).cite("3.3")
    phrases = QUANTITY_SHORT if failure == "quantity_not_received" else PRICE_HIGH
    return draft.say("text", phrases, f"4.5: the test the match still fails ({failure})")


def early_payment_subjects(world: World) -> list[Record]:
    """Approved invoices, which may be settled early, and held ones, which may not."""
    return [i for i in by_id(world["invoices"]) if i["status"] in ("approved", "on_hold")]


def early_payment(world: World, invoice: Record, rng: random.Random, persona: str) -> Draft | None:
    """Settle an approved invoice in the next run, less 2 % (5.2, 5.3); an invoice on hold stays as it is (5.4)."""
    supplier = supplier_of(world, invoice)
    company = world["companies"][supplier["company_id"]]["name"]
    draft = Draft(world, supplier, persona, intent="early_payment").verify().cite("5.1", "5.2")
    draft.do(act("find_invoice", invoice_number=invoice["invoice_number"]))
    draft.goal.append(
        f"You want your invoice {invoice['invoice_number']} to {company} paid early, in the next payment run, and"
        " you want to know the amount that will be paid. If it cannot be paid early, you want to know why."
    )
    settle = act("schedule_early_payment", invoice_id=invoice["invoice_id"])
    if invoice["status"] == "on_hold":
        draft.trap("5.4: the invoice is on hold: no early settlement", settle).cite("5.4", "3.3")
        return draft.say("text", ON_HOLD, "5.4: the invoice is on hold")
    owed = open_amount(world, invoice)
    paid = cents(owed - cents(owed * EARLY_SETTLEMENT_RATE))
    draft.cite("5.3", "3.1", "3.4").do(settle)
    return draft.say("amount", money(paid), "5.3: the amount paid in the run, after the discount")


def credit_note_subjects(world: World) -> list[Record]:
    """Suppliers with a credit note issued in their portal and not yet recorded."""
    return [s for s in by_id(world["suppliers"]) if world["portals"][s["supplier_id"]]["credit_notes"]]


def record_credit_note(world: World, supplier: Record, rng: random.Random, persona: str) -> Draft | None:
    """Record the credit note the supplier reads from their portal (7.1, 7.3); not one beyond the invoice (7.2)."""
    issued = world["portals"][supplier["supplier_id"]]["credit_notes"][0]
    invoice = next(i for i in world["invoices"].values() if i["invoice_number"] == issued["invoice_number"])
    draft = Draft(world, supplier, persona, intent="record_credit_note", dual=True).verify().cite("7.1")
    draft.do(act("view_issued_credit_notes", "user"))
    draft.do(act("find_invoice", invoice_number=invoice["invoice_number"]))
    draft.goal.append(
        f"You issued a credit note in the portal against your invoice {invoice['invoice_number']}, and you want the"
        " desk to record it and tell you its gross amount. When the agent asks, open the portal and read out the"
        " credit note's number and net amount. If it cannot be recorded, you want to know why and what the invoice"
        " still owes before tax."
    )
    record = act(
        "record_credit_note",
        invoice_id=invoice["invoice_id"],
        credit_note_number=issued["credit_note_number"],
        net_amount=issued["net"],
    )
    remaining = cents(invoice["net"] - invoice["credited_net"])
    if issued["net"] > remaining:
        draft.trap("7.2: the credit note's net exceeds what the invoice still owes before tax", record)
        draft.cite("7.2", "3.3").say("text", EXCEEDS, "7.2: the credit note exceeds the invoice")
        return draft.say("amount", money(remaining), "7.2: the net amount the invoice still owes")
    draft.cite("7.2", "7.3", "3.1").do(record)
    gross = cents(issued["net"] + tax_on(issued["net"], invoice["tax_code"]))
    return draft.say("amount", money(gross), "7.3: the credit note's gross amount")


def bank_change_subjects(world: World) -> list[Record]:
    """Every supplier: those whose account changed lately are the traps."""
    return by_id(world["suppliers"])


def change_bank_details(world: World, supplier: Record, rng: random.Random, persona: str) -> Draft | None:
    """A new remittance account, approved in the portal after its code (2.4, 8.2); once in 180 days (8.4)."""
    sort_code = f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}"
    account = f"{rng.randint(10_000_000, 99_999_999)}"
    company = world["companies"][supplier["company_id"]]["name"]
    draft = Draft(world, supplier, persona, intent="change_bank_details", dual=True).verify(code_only=True)
    draft.cite("2.4", "8.1", "8.4").do(act("get_supplier", supplier_id=supplier["supplier_id"]))
    draft.goal.append(
        f"Your company has moved banks: you want {company} to pay you into sort code {sort_code}, account number"
        f" {account} from now on. When the agent asks, use the portal: read out any code it sends, approve the new"
        " account there and read out the approval reference. If the change cannot be made now, you want to know"
        " from what date it can."
    )
    reference = bank_change_reference(supplier["supplier_id"], sort_code, account)
    update = act(
        "update_bank_details",
        supplier_id=supplier["supplier_id"],
        sort_code=sort_code,
        account_number=account,
        approval_reference=reference,
    )
    if not bank_change_allowed(supplier["last_bank_change"]):
        draft.trap("8.4: the account changed less than 180 days ago: no change", update).cite("3.3")
        return draft.say(
            "date", next_bank_change(supplier["last_bank_change"]), "8.4: the first date a change is possible"
        )
    draft.cite("8.2", "3.1").do(act("approve_bank_change", "user", sort_code=sort_code, account_number=account), update)
    return draft


def reconcile_subjects(world: World) -> list[Record]:
    """Suppliers with a paid invoice (which their statement still shows) and an unpaid one."""

    def has(supplier: Record, paid: bool) -> bool:
        return any(
            (i["status"] == "paid") == paid
            for i in world["invoices"].values()
            if i["supplier_id"] == supplier["supplier_id"]
        )

    return [s for s in by_id(world["suppliers"]) if has(s, True) and has(s, False)]


def reconcile_statement(world: World, supplier: Record, rng: random.Random, persona: str) -> Draft | None:
    """Record the statement against the ledger (11.2) and say the ledger balance and the difference (11.3).

    The statement still shows an invoice the company has paid, which is the difference.
    """
    paid: Any = rng.choice(
        [i for i in by_id(world["invoices"]) if i["supplier_id"] == supplier["supplier_id"] and i["status"] == "paid"]
    )
    ledger = ledger_balance(world, supplier["supplier_id"])
    statement = cents(ledger + paid["gross"])
    company = world["companies"][supplier["company_id"]]["name"]
    draft = Draft(world, supplier, persona, intent="reconcile_statement").verify().cite("11.1", "11.2", "11.3", "3.4")
    draft.do(act("list_supplier_invoices", supplier_id=supplier["supplier_id"]))
    draft.goal.append(
        f"Your company's statement to {company} shows a closing balance of £{money(statement)}. You want the desk to"
        " reconcile it and tell you the balance on their ledger and the difference between the two."
    )
    draft.do(act("record_reconciliation", supplier_id=supplier["supplier_id"], statement_balance=statement))
    draft.say("amount", money(ledger), "11.3: the ledger balance")
    return draft.say("amount", money(paid["gross"]), "11.3: the difference between the statement and the ledger")
