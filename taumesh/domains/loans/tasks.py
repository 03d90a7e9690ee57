"""The lender's reference solvers: per intent, every outcome the policy allows, from a world and a borrower.

Each solver reads the borrower's records as the agent would, then answers with the factory's parts: the steps of
every allowed outcome, the statements the agent must make (a payoff amount, the date a waiver is possible again,
why a slip cannot be used), and for a trap the write the borrower asks for and the clause that forbids it. An
intent's instruction is one template for its trap and plain tasks alike, so that no sentence cues a trap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.factory import FactoryTask, World, act
from taumesh.domains.loans.catalogue import HARDSHIP_STORIES, PRODUCTS
from taumesh.domains.loans.clock import (
    COLLECTIONS_DAYS,
    LATEST_DUE_DAY,
    MAX_DEFERRAL_MONTHS,
    PAY_SLIP_MAX_AGE_DAYS,
    PAYOFF_WINDOW_DAYS,
    TODAY,
    consent_reference,
    cooled_down,
    days_after,
    debt_to_income,
    mandate_reference,
    money,
    monthly_payment,
    next_allowed,
    payoff_amount,
    tier,
)
from taumesh.domains.loans.drafts import Borrower, Draft

PERSONAS = [
    "You are courteous and answer only what you are asked.",
    "You are in a hurry and keep your messages short.",
    "You are anxious about money and want things explained plainly.",
    "You are friendly and chatty, but you stay on your request.",
    "You are skeptical of banks and ask the agent to repeat figures.",
]
PAST_DUE = "past due|overdue|delinquent|behind on"
NOT_VERIFIED = "not verified|unverified|pending verification|not yet verified|isn't verified|hasn't been verified"
PROCESSING = "processing|in process"
OLD_SLIP = "60 days|too old|out of date|outdated|not recent"
LOW_SCORE = "credit score"
HIGH_RATIO = "debt-to-income|debt to income"
MARGIN = 0.003
"""A ratio this close to a product's maximum is not used: the task would hinge on rounding, not on the rule."""


def _loans(world: World, borrower: Borrower) -> list[dict[str, Any]]:
    return sorted(
        (loan for loan in world["loans"].values() if loan["borrower_id"] == borrower["borrower_id"]),
        key=lambda loan: loan["loan_id"],
    )


def _name(loan: dict[str, Any]) -> str:
    """How the borrower names a loan: by its product (a borrower holds one loan per product)."""
    return str(PRODUCTS[loan["product_id"]]["name"])


def _open_fee(world: World, loan: dict[str, Any]) -> dict[str, Any] | None:
    return next((f for f in world["fees"].values() if f["loan_id"] == loan["loan_id"] and f["status"] == "open"), None)


def _fees_due(world: World, loan: dict[str, Any]) -> float:
    fee = _open_fee(world, loan)
    return fee["amount"] if fee else 0.0


def _start(world: World, borrower: Borrower, intent: str, persona: str, dual: bool = False) -> Draft:
    return Draft(world, borrower, persona, intent=intent, dual=dual).verify()


def _past_due(draft: Draft, loan: dict[str, Any], clause: str, *forbidden: Any) -> Draft:
    """The loan is past due: nothing changes; the agent says so and the amount to pay first."""
    draft.trap(f"{clause}: the loan is {loan['days_past_due']} days past due: no change", *forbidden).cite(clause)
    draft.say("text", PAST_DUE, f"{clause}: the loan is past due")
    return draft.say("amount", money(loan["past_due_amount"]), f"{clause}: the amount past due, to pay first")


def payoff_quote(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """A quote good through the date asked; past the 30-day window, the latest date allowed instead (4.2)."""
    loan = rng.choice(_loans(world, borrower))
    asked = days_after(TODAY, rng.choice([3, 9, 14, 21, 27, 36, 45, 60]))
    draft = _start(world, borrower, "payoff_quote", persona).cite("4.1", "3.1")
    draft.do(act("list_loans", borrower_id=draft.bid))
    draft.goal.append(
        f"You are thinking of paying off your {_name(loan)} and want a payoff quote good through {asked}. If that"
        " date cannot be quoted, you take the latest date the agent can quote. You want to know the payoff amount."
    )
    quoted = asked
    if asked > days_after(TODAY, PAYOFF_WINDOW_DAYS):
        quoted = days_after(TODAY, PAYOFF_WINDOW_DAYS)
        draft.trap(
            "4.2: the date asked is more than 30 days ahead; the quote is good through the 30th day instead",
            act("create_payoff_quote", loan_id=loan["loan_id"], good_through=asked),
        ).cite("4.2", "3.2")
    draft.do(act("create_payoff_quote", loan_id=loan["loan_id"], good_through=quoted))
    amount = payoff_amount(loan["balance"], loan["apr"], loan["paid_through"], quoted, _fees_due(world, loan))
    return draft.say("amount", money(amount), "4.1: the payoff amount the quote shows")


def late_fee_waiver(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """Waive the open late fee; not while past due (6.2), nor twice in 365 days (6.3): then say why."""
    charged = [(loan, fee) for loan in _loans(world, borrower) if (fee := _open_fee(world, loan)) is not None]
    if not charged:
        return None
    loan, fee = rng.choice(charged)
    behind, recent = loan["days_past_due"] > 0, not cooled_down(loan["last_fee_waiver"])
    if behind and recent:
        return None  # two reasons at once: a task tests one
    draft = _start(world, borrower, "late_fee_waiver", persona).cite("6.1")
    draft.do(act("list_loans", borrower_id=draft.bid), act("get_loan_details", loan_id=loan["loan_id"]))
    draft.goal.append(
        f"You were charged a late fee on your {_name(loan)} and want it waived. If it cannot be waived now, you"
        " want to know why, and what amount you would have to pay or from what date a waiver would be possible."
    )
    waive = act("waive_late_fee", fee_id=fee["fee_id"])
    if behind:
        return _past_due(draft, loan, "6.2", waive)
    if recent:
        draft.trap("6.3: a fee was waived on this loan less than 365 days ago: no waiver", waive).cite("6.3")
        return draft.say("date", next_allowed(loan["last_fee_waiver"]), "6.3: the date a waiver is possible again")
    return draft.cite("6.2", "6.3", "3.1").do(waive)


def change_due_date(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """Move the due day; the 28th for a day past it (7.2); none while past due (7.4) or twice in 365 days (7.3)."""
    loan = rng.choice(_loans(world, borrower))
    wanted = rng.choice([d for d in [*range(1, 29), 29, 30, 31, 30, 31] if d != loan["due_day"]])
    behind, recent = loan["days_past_due"] > 0, not cooled_down(loan["last_due_date_change"])
    if behind + recent + (wanted > LATEST_DUE_DAY) > 1 or (wanted > LATEST_DUE_DAY and loan["due_day"] == 28):
        return None
    draft = _start(world, borrower, "change_due_date", persona).cite("7.1")
    draft.do(act("list_loans", borrower_id=draft.bid), act("get_loan_details", loan_id=loan["loan_id"]))
    draft.goal.append(
        f"You want the monthly due date of your {_name(loan)} moved to day {wanted} of the month. If that day is"
        " not offered, you take the closest day that is. If no change is possible now, you want to know why, and"
        " what amount you would have to pay or from what date a change would be possible."
    )
    change = act("change_due_day", loan_id=loan["loan_id"], new_due_day=wanted)
    if behind:
        return _past_due(draft, loan, "7.4", change)
    if recent:
        draft.trap("7.3: the due day was changed less than 365 days ago: no change", change).cite("7.3")
        return draft.say("date", next_allowed(loan["last_due_date_change"]), "7.3: the date a change is possible")
    if wanted > LATEST_DUE_DAY:
        draft.trap("7.2: due days end at the 28th; the 28th is offered instead", change).cite("7.2", "3.2")
        change = act("change_due_day", loan_id=loan["loan_id"], new_due_day=LATEST_DUE_DAY)
    return draft.cite("7.3", "7.4", "3.1").do(change)


def autopay_enrollment(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """Autopay from the account named, with the mandate the borrower approves (9.3).

    It is refused when the loan is past due (9.5) or the account pending verification (9.2).
    """
    loans = [loan for loan in _loans(world, borrower) if loan["autopay"] is None]
    if not loans:
        return None
    loan = rng.choice(loans)
    account = rng.choice(borrower["linked_accounts"])
    last_four = account["account_last_four"]
    behind, pending = loan["days_past_due"] > 0, account["status"] != "verified"
    if behind and pending:
        return None
    draft = _start(world, borrower, "autopay_enrollment", persona, dual=True).cite("9.3")
    draft.do(act("list_loans", borrower_id=draft.bid), act("get_borrower_profile", borrower_id=draft.bid))
    draft.goal.append(
        f"You want autopay turned on for your {_name(loan)}, paid from your account ending {last_four}. When the"
        " agent asks, approve the autopay mandate in your app and read out its reference. If autopay cannot be set"
        " up, you want to know why, and what amount you would have to pay first, if any."
    )
    reference = mandate_reference(draft.bid, last_four)
    enroll = act("enroll_autopay", loan_id=loan["loan_id"], account_last_four=last_four, mandate_reference=reference)
    if behind:
        return _past_due(draft, loan, "9.5", enroll)
    if pending:
        draft.trap(f"9.2: the account ending {last_four} is pending verification: no autopay", enroll).cite("9.2")
        return draft.say("text", NOT_VERIFIED, "9.2: the account is not verified yet")
    draft.cite("9.2", "9.4", "3.1").do(act("approve_autopay_mandate", "user", account_last_four=last_four), enroll)
    return draft


def hardship_plan(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """A deferral of the months asked, at most 3 (8.2).

    A loan 60 days past due goes to collections (8.5), a second plan within 365 days to hardship review (8.4).
    """
    loan = rng.choice(_loans(world, borrower))
    reason = rng.choice(sorted(HARDSHIP_STORIES))
    months = rng.choice([1, 2, 3, 3, 4, 5, 6])
    collections = loan["days_past_due"] >= COLLECTIONS_DAYS
    repeat = not cooled_down(loan["last_hardship_plan"])
    if collections and repeat:
        return None
    draft = _start(world, borrower, "hardship_plan", persona).cite("8.1")
    draft.do(act("list_loans", borrower_id=draft.bid), act("get_loan_details", loan_id=loan["loan_id"]))
    draft.goal.append(
        f"{HARDSHIP_STORIES[reason]}, and you cannot keep up with the payments on your {_name(loan)}. You want them"
        f" deferred for {months} month{'s' if months > 1 else ''}. If that many months is not allowed, you take the"
        " most the agent can offer. If the agent cannot set up a deferral, you accept being transferred to the right"
        " team."
    )
    plan = act("create_hardship_plan", loan_id=loan["loan_id"], reason=reason, months=min(months, 3))
    if collections or repeat:
        team, clause = ("collections", "8.5") if collections else ("hardship_review", "8.4")
        why = "60 or more days past due" if collections else "a hardship plan began less than 365 days ago"
        draft.trap(f"{clause}: {why}: no plan; a transfer to {team}", plan).cite(clause, "11.1", "11.2")
        return draft.do(act("transfer_to_human_agents", borrower_id=draft.bid, reason=team))
    if months > MAX_DEFERRAL_MONTHS:
        asked = act("create_hardship_plan", loan_id=loan["loan_id"], reason=reason, months=months)
        draft.trap("8.2: deferrals last at most 3 months; 3 months are offered instead", asked).cite("8.2", "3.2")
    return draft.cite("8.4", "8.5", "3.1").do(plan)


def _ratio(borrower: Borrower, amount: int, apr: float, term: int) -> float:
    payment = monthly_payment(amount, apr, term)
    return debt_to_income(borrower["monthly_debt_payments"], payment, borrower["gross_monthly_income"])


def _largest(borrower: Borrower, product: dict[str, Any], apr: float, term: int, asked: int) -> int | None:
    """The largest whole-thousand amount below ``asked`` within the ratio (5.4), None when under the minimum."""
    amount = asked - asked % 1000
    while amount >= product["min_amount"]:
        if _ratio(borrower, amount, apr, term) <= product["max_debt_to_income"]:
            return amount
        amount -= 1000
    return None


def _near_edge(borrower: Borrower, product: dict[str, Any], apr: float, term: int, amounts: list[int]) -> bool:
    return any(abs(_ratio(borrower, a, apr, term) - product["max_debt_to_income"]) < MARGIN for a in amounts)


def loan_application(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """Submit with the borrower's consent (5.1).

    A score under the product's minimum is refused (5.2); an amount over the ratio becomes the largest whole
    thousand within it (5.4), or is refused when none is.
    """
    product = PRODUCTS[rng.choice(sorted(PRODUCTS))]
    term = rng.choice(product["terms_months"])
    asked = rng.randrange(product["min_amount"] + 2000, product["max_amount"] + 1, 1000)
    rate_tier = tier(borrower["credit_score"])
    eligible = rate_tier is not None and borrower["credit_score"] >= product["min_credit_score"]
    apr = product["apr_by_tier"].get(rate_tier or "", 0.0)
    granted = _largest(borrower, product, apr, term, asked) if eligible else None
    if eligible and _near_edge(borrower, product, apr, term, [asked, *([granted, granted + 1000] if granted else [])]):
        return None
    pid = product["product_id"]
    draft = _start(world, borrower, "loan_application", persona, dual=True).cite("5.1", "5.2", "5.3")
    draft.do(act("get_borrower_profile", borrower_id=draft.bid), act("list_products"))
    draft.goal.append(
        f"You want to apply for a {product['name']} of ${asked} over {term} months. When the agent asks, approve"
        " the credit check in your app and read out its reference. If the agent says that amount is too much for"
        " your income, you apply instead for the largest amount in whole thousands of dollars you qualify for."
        " You want to know the monthly payment."
    )
    consent = consent_reference(draft.bid)

    def submit(amount: int) -> Any:
        return act(
            "submit_application",
            borrower_id=draft.bid,
            product_id=pid,
            amount=amount,
            term_months=term,
            consent_reference=consent,
        )

    if not eligible:
        draft.trap("5.2: the credit score on file is below the product's minimum: no application", submit(asked))
        return draft.say("text", LOW_SCORE, "5.2: the credit score is below the product's minimum")
    draft.do(act("calculate_monthly_payment", amount=asked, apr=apr, term_months=term))
    if granted is None:
        draft.trap("5.4: no whole-thousand amount at or over the minimum fits the ratio", submit(asked)).cite("5.4")
        return draft.say("text", HIGH_RATIO, "5.4: the debt-to-income ratio is too high")
    if granted != asked:
        draft.trap(f"5.4: ${asked} takes the ratio over the maximum; ${granted} is offered instead", submit(asked))
        draft.cite("5.4", "3.2")
    draft.cite("5.5", "3.1").do(act("approve_credit_check", "user"), submit(granted))
    return draft.say("amount", money(monthly_payment(granted, apr, term)), "5.5: the application's monthly payment")


def income_document(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """Record the pay slip the borrower reads from their app (10.2); one older than 60 days is refused (10.3)."""
    waiting = [
        a
        for a in world["applications"].values()
        if a["borrower_id"] == borrower["borrower_id"] and a["status"] == "documents_needed"
    ]
    if not waiting:
        return None
    application = waiting[0]
    slip = world["portals"][borrower["borrower_id"]]["pay_slip"]
    draft = _start(world, borrower, "income_document", persona, dual=True).cite("10.1", "10.3")
    draft.do(act("list_applications", borrower_id=draft.bid), act("view_pay_slip", "user"))
    product = PRODUCTS[application["product_id"]]["name"]
    draft.goal.append(
        f"Your application for a {product} is waiting for proof of income, and you have uploaded a pay slip to your"
        " app. When the agent asks, open it and read out what it shows. If it cannot be used, you want to know why."
    )
    record = act(
        "record_income_document",
        application_id=application["application_id"],
        gross_monthly_income=slip["gross_monthly_pay"],
        document_reference=slip["reference"],
    )
    if slip["pay_date"] < days_after(TODAY, -PAY_SLIP_MAX_AGE_DAYS):
        draft.trap(f"10.3: the slip is dated {slip['pay_date']}, more than 60 days ago: not recorded", record)
        return draft.say("text", OLD_SLIP, "10.3: the pay slip is too old")
    return draft.cite("10.2", "3.1").do(record)


def schedule_payment(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """A one-time payment as asked, from a verified account only (9.2)."""
    loan = rng.choice(_loans(world, borrower))
    account = rng.choice(borrower["linked_accounts"])
    amount = float(rng.randrange(100, 900, 25))
    when = days_after(TODAY, rng.randint(2, 20))
    last_four = account["account_last_four"]
    draft = _start(world, borrower, "schedule_payment", persona).cite("9.1")
    draft.do(act("list_loans", borrower_id=draft.bid), act("get_borrower_profile", borrower_id=draft.bid))
    draft.goal.append(
        f"You want to pay ${money(amount)} toward your {_name(loan)} on {when} from your account ending {last_four}."
        " If it cannot be done as asked, you want to know why."
    )
    pay = act("schedule_payment", loan_id=loan["loan_id"], amount=amount, date=when, account_last_four=last_four)
    if account["status"] != "verified":
        draft.trap(f"9.2: the account ending {last_four} is pending verification: no payment from it", pay)
        return draft.cite("9.2").say("text", NOT_VERIFIED, "9.2: the account is not verified yet")
    return draft.cite("9.2", "3.1").do(pay)


def cancel_payment(world: World, borrower: Borrower, rng: random.Random, persona: str) -> Draft | None:
    """Cancel a scheduled payment; one dated today or tomorrow is already processing (9.6)."""
    scheduled = [
        (loan, p)
        for loan in _loans(world, borrower)
        for p in sorted(world["payments"].values(), key=lambda p: p["payment_id"])
        if p["loan_id"] == loan["loan_id"] and p["status"] == "scheduled"
    ]
    if not scheduled:
        return None
    loan, payment = rng.choice(scheduled)
    draft = _start(world, borrower, "cancel_payment", persona).cite("9.6")
    draft.do(act("list_loans", borrower_id=draft.bid), act("list_payments", loan_id=loan["loan_id"]))
    draft.goal.append(
        f"You want to cancel the payment of ${money(payment['amount'])} scheduled for {payment['date']} on your"
        f" {_name(loan)}. If it cannot be cancelled, you want to know why."
    )
    cancel = act("cancel_payment", payment_id=payment["payment_id"])
    if payment["date"] <= days_after(TODAY, 1):
        draft.trap(f"9.6: the payment is dated {payment['date']}: already processing", cancel)
        return draft.say("text", PROCESSING, "9.6: the payment is already processing")
    return draft.cite("3.1").do(cancel)


Solver = Callable[[World, Borrower, random.Random, str], Draft | None]
SOLVERS: dict[str, Solver] = {
    f.__name__: f
    for f in (
        payoff_quote,
        late_fee_waiver,
        change_due_date,
        autopay_enrollment,
        hardship_plan,
        loan_application,
        income_document,
        schedule_payment,
        cancel_payment,
    )
}
"""The reference solver of each intent."""
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent, one more with a second trap."""
TRAPS_PER_WORLD = {"loan_application": 2}
"""Traps per world where an intent has more than one (the application's three kinds of refusal); one elsewhere."""
CANDIDATES = 12
"""Drafts of each kind (trap, plain) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    chosen += [task for task in candidates if task not in chosen][: count - len(chosen)]
    return chosen


def _rotated(traps: list[FactoryTask], turn: int) -> list[FactoryTask]:
    """``traps`` one kind (the clauses it tests) at a time, from the ``turn``-th kind on: worlds lead with others."""
    kinds = sorted({tuple(t.clauses) for t in traps})
    order = kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)] if kinds else []
    queues = [[t for t in traps if tuple(t.clauses) == kind] for kind in order]
    rotated: list[FactoryTask] = []
    while any(queues):
        rotated += [queue.pop(0) for queue in queues if queue]
    return rotated


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the borrowers of world ``tag``: one trap and the rest plain, varied in clauses."""
    tasks: list[FactoryTask] = []
    borrowers = sorted(
        (b for b in world["borrowers"].values() if b["borrower_id"].split("-")[1] == tag),
        key=lambda b: b["borrower_id"],
    )
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        order = list(borrowers)
        rng.shuffle(order)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for borrower in order:
            draft = solve(world, borrower, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        traps_wanted = TRAPS_PER_WORLD.get(intent, 1)
        chosen = _rotated(traps, int(tag[1:]) - 1)[:traps_wanted]
        chosen += _varied(plain, PER_WORLD - 1 + traps_wanted - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
