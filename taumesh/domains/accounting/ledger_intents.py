"""Reference solvers of the ledger intents: tax-code corrections, journals and budget transfers.

As for payables, each lists every outcome the policy allows and what the agent must say, and one instruction
template serves an intent's trap and plain tasks alike.
"""

from __future__ import annotations

import random
from datetime import date

from taumesh.domains import Action
from taumesh.domains.accounting.clock import CURRENT_QUARTER, cents, money, tax_on
from taumesh.domains.accounting.drafts import Draft
from taumesh.domains.accounting.lookups import Record, by_id, closed, spare, staff_in, supplier_of
from taumesh.domains.accounting.vocabulary import ACCOUNTS, ACCRUALS, COST_CENTERS, TAX_CODES
from taumesh.domains.factory import World, act

PERIOD_CLOSED = "closed"
FIRST_OPEN = "2025-09"
"""The earliest open period of every company (policy 9.2)."""


def tax_code_subjects(world: World) -> list[Record]:
    """Unpaid invoices: an accountant may ask to correct any of them."""
    return [i for i in by_id(world["invoices"]) if i["status"] != "paid"]


def correct_tax_code(world: World, invoice: Record, rng: random.Random, persona: str) -> Draft | None:
    """Recompute an invoice at the code asked while its period is open (6.2); a closed period keeps it (6.3)."""
    code = rng.choice([c for c in sorted(TAX_CODES) if c != invoice["tax_code"]])
    accountant = staff_in(world, "accountant", rng)
    supplier = supplier_of(world, invoice)
    draft = Draft(world, accountant, persona, intent="correct_tax_code").verify().cite("1.2", "6.1", "6.2")
    draft.do(
        act("find_invoice", invoice_number=invoice["invoice_number"]),
        act("list_periods", company_id=accountant["company_id"]),
    )
    draft.goal.append(
        f"Invoice {invoice['invoice_number']} from {supplier['name']} was entered with the wrong tax code: it should"
        f" be {code}, the {TAX_CODES[code]['description']}. You want it corrected and to know the invoice's new gross"
        " amount. If it cannot be corrected, you want to know why."
    )
    change = act("set_invoice_tax_code", invoice_id=invoice["invoice_id"], tax_code=code)
    if closed(invoice["period"]):
        draft.trap(f"6.3: the invoice's period {invoice['period']} is closed: the code stays", change)
        return draft.cite("6.3", "3.3").say("text", PERIOD_CLOSED, "6.3: the invoice's period is closed")
    draft.cite("3.1", "3.4").do(change)
    gross = cents(invoice["net"] + tax_on(invoice["net"], code))
    return draft.say("amount", money(gross), "6.2: the invoice's new gross amount")


def journal_subjects(world: World) -> list[tuple[Record, int]]:
    """Each accountant with each kind of accrual they might ask to post."""
    accountants = [s for s in by_id(world["staff"]) if s["role"] == "accountant"]
    return [(staff, n) for staff in accountants for n in range(len(ACCRUALS))]


def post_journal(world: World, subject: tuple[Record, int], rng: random.Random, persona: str) -> Draft | None:
    """Post as asked in an open month; a closed month moves to September (9.2); over the limit, the controller (9.3)."""
    accountant, which = subject
    what, debit, credit = ACCRUALS[which]
    month = rng.choice(["2025-06", "2025-07", "2025-08", "2025-09", "2025-09", "2025-10"])
    amount = float(rng.randrange(400, 30_000, 25))
    over = amount > accountant["posting_limit"]
    if closed(month) and over:
        return None  # two reasons at once: a task tests one
    tag = accountant["company_id"].split("-")[1]
    draft = Draft(world, accountant, persona, intent="post_journal").verify().cite("1.2", "9.1", "9.4")
    draft.do(
        act("get_staff", staff_id=accountant["staff_id"]),
        act("list_periods", company_id=accountant["company_id"]),
        act("list_accounts"),
    )
    month_name = date.fromisoformat(f"{month}-01").strftime("%B %Y")
    draft.goal.append(
        f"You want a journal posted for {what}: £{money(amount)}, debiting {ACCOUNTS[debit]['name']} and crediting"
        f" {ACCOUNTS[credit]['name']}, in the {month_name} period. If that period cannot take it, you accept the"
        " earliest period that can. If the desk cannot post it at all, you accept being passed to the person who can."
    )

    def post(period: str) -> Action:
        return act(
            "post_journal_entry",
            staff_id=accountant["staff_id"],
            period_id=f"per-{tag}-{period}",
            debit_account=debit,
            credit_account=credit,
            amount=amount,
        )

    if over:
        draft.trap("9.3: the amount exceeds the accountant's posting limit: the controller's", post(month))
        draft.cite("9.3", "12.1")  # the hand-off ends the call, so what the agent says before it is not graded
        return draft.do(act("transfer_to_human_agents", caller_id=accountant["staff_id"], reason="controller_approval"))
    if closed(month):
        draft.trap(f"9.2: {month} is closed; the earliest open period, {FIRST_OPEN}, is offered", post(month))
        draft.cite("9.2", "3.2").say("text", PERIOD_CLOSED, "9.2: the month asked for is closed")
        return draft.do(post(FIRST_OPEN))
    return draft.cite("9.2", "9.3", "3.1").do(post(month))


def budget_subjects(world: World) -> list[tuple[Record, str]]:
    """Each budget holder with each other cost center they might move budget to."""
    holders = [s for s in by_id(world["staff"]) if s["role"] == "budget_holder"]
    return [(s, code) for s in holders for code in sorted(COST_CENTERS) if code != s["cost_center"]]


def transfer_budget(world: World, subject: tuple[Record, str], rng: random.Random, persona: str) -> Draft | None:
    """Move the amount asked from the holder's own line (10.1); no more than it can spare (10.4)."""
    holder, target = subject
    tag = holder["company_id"].split("-")[1]
    source = world["budgets"][f"bud-{tag}-{holder['cost_center']}-{CURRENT_QUARTER[-2:]}"]
    available = spare(source)
    if available < 1_000:
        return None
    asked = float(rng.randrange(500, int(available * 1.6), 100))
    draft = Draft(world, holder, persona, intent="transfer_budget").verify().cite("1.2", "10.1", "10.2", "10.3")
    draft.do(act("get_staff", staff_id=holder["staff_id"]), act("list_budgets", company_id=holder["company_id"]))
    draft.goal.append(
        f"You want to move £{money(asked)} of this quarter's budget from your cost center,"
        f" {COST_CENTERS[holder['cost_center']]}, to {COST_CENTERS[target]}. If your line cannot spare all of it,"
        " you move as much as it can and want to know that figure."
    )
    to_id = f"bud-{tag}-{target}-{CURRENT_QUARTER[-2:]}"

    def move(amount: float) -> Action:
        return act("transfer_budget", from_budget_id=source["budget_id"], to_budget_id=to_id, amount=amount)

    if asked > available:
        draft.trap("10.4: the line cannot spare the amount asked; only what it can spare moves", move(asked))
        draft.cite("10.4", "3.2").do(move(available))
        return draft.say("amount", money(available), "10.4: what the line can spare")
    return draft.cite("10.4", "3.1").do(move(asked))
