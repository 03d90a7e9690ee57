"""The reference solvers: per intent, every outcome the policy allows for one policyholder, and what must be said.

Each solver reads the policyholder's records as the agent would (policies, terms, claims, invoices) and answers with
the steps of every allowed outcome, the statements the agent must make (a limit, a new premium, the date a window
closed, the document still missing), and for a trap the write the policyholder asks for with the clause that
forbids it. One instruction template per intent serves its trap and non-trap tasks alike: no sentence cues a trap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import FactoryTask, World, act
from taumesh.domains.insurance.catalog import APPEAL_GROUNDS, DOCUMENTS, LINES, PERILS
from taumesh.domains.insurance.clock import (
    APPEAL_WINDOW_DAYS,
    GRACE_DAYS,
    OPEN_CLAIM_STATUSES,
    REINSTATEMENT_FEE,
    REPORTING_WINDOW_DAYS,
    TODAY,
    cancellation_refund,
    days_since,
    iso,
    money,
    plus_days,
    premium,
)
from taumesh.domains.insurance.drafting import Draft

Holder = dict[str, Any]
Solver = Callable[[World, Holder, random.Random], Draft | None]

EXCLUDED = "excluded|exclusion|not covered"
OPEN_CLAIM = (
    "open claim|claim is open|claim is still open|claim still open|still-open claim|pending claim|unresolved claim"
)
INJURY = ", and the other driver was taken to hospital with a neck injury"
"""What a policyholder adds when someone was hurt (13.1): said inside the incident's own sentence."""
CANCEL_REASONS = {
    "auto": "you sold the car",
    "home": "you sold the house",
    "renters": "you moved out",
    "pet": "your pet went to live with your sister abroad",
}


def _policies(world: World, holder: Holder, status: str = "active") -> list[dict[str, Any]]:
    return sorted(
        (
            p
            for p in world["policies"].values()
            if p["policyholder_id"] == holder["policyholder_id"] and p["status"] == status
        ),
        key=lambda p: p["policy_id"],
    )


def _claims(world: World, holder: Holder, *statuses: str) -> list[dict[str, Any]]:
    return sorted(
        (
            c
            for c in world["claims"].values()
            if c["policyholder_id"] == holder["policyholder_id"] and c["status"] in statuses
        ),
        key=lambda c: c["claim_id"],
    )


def _line(world: World, policy: dict[str, Any]) -> str:
    return str(world["products"][policy["product_id"]]["line"])


def _read_policy(draft: Draft, policy: dict[str, Any]) -> Draft:
    return draft.do(
        act("get_policyholder", policyholder_id=draft.holder_id),
        act("get_policy", policy_id=policy["policy_id"]),
        act("get_product_terms", product_id=policy["product_id"]),
    )


def _covered_from(world: World, policy: dict[str, Any], peril: str) -> str:
    """The first day ``peril`` is covered under ``policy`` (its start plus the waiting period: 4.2)."""
    waiting = world["products"][policy["product_id"]]["waiting_days"].get(peril, 0)
    return plus_days(policy["start_date"], waiting)


def _payment_method(world: World, claim: dict[str, Any]) -> str:
    """Direct deposit where there is an account to deposit to, else a check (7.3)."""
    holder = world["policyholders"][claim["policyholder_id"]]
    return "direct_deposit" if claim["payout_account"] or holder["bank_account"] else "check"


def file_claim(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """File a covered, timely loss above the deductible; else say why not (exclusion, late, below the deductible)."""
    policies = _policies(world, holder)
    if not policies:
        return None
    policy = rng.choice(policies)
    product = world["products"][policy["product_id"]]
    case = rng.choice(
        ["covered", "covered", "excluded", "late", "below", *(["injury"] if product["line"] == "auto" else [])]
    )
    perils = product["exclusions"] if case == "excluded" else sorted(product["coverages"])
    peril = "collision" if case == "injury" else rng.choice(perils)
    back = rng.randint(REPORTING_WINDOW_DAYS + 1, 120) if case == "late" else rng.randint(2, 50)
    incident = iso(TODAY - timedelta(days=back))
    if incident < _covered_from(world, policy, peril) or any(
        c["policy_id"] == policy["policy_id"] and c["peril"] == peril and c["incident_date"] == incident
        for c in world["claims"].values()
    ):
        return None
    deductible = int(policy["deductible"])
    limit = int(product["coverages"].get(peril, 20000))
    loss = (
        rng.randint(max(deductible // 3, 40), deductible)
        if case == "below"
        else rng.randint(deductible + 200, min(limit, 18000))
    )
    draft = _read_policy(Draft(world, holder, intent="file_claim").verify(), policy)
    draft.goal.append(
        f"On {incident}, your {policy['insured_item']} had {PERILS[peril]}{INJURY if case == 'injury' else ''}. You"
        f" estimate the loss at ${loss} and want a claim filed on your {LINES[product['line']]} policy. If it cannot"
        " be filed, you want to know why."
    )
    asked = act(
        "file_claim", policy_id=policy["policy_id"], peril=peril, incident_date=incident, estimated_loss=float(loss)
    )
    if case == "excluded":
        draft.trap("5.3: the peril is excluded by the product (4.3): no claim is filed", asked).cite("5.3", "4.3")
        draft.say("text", EXCLUDED, "4.3: the peril is excluded")
    elif case == "late":
        draft.trap("5.2: the incident is more than 60 days old: no claim is filed", asked).cite("5.2")
        draft.say("date", plus_days(incident, REPORTING_WINDOW_DAYS), "5.2: the last day it could have been reported")
    elif case == "injury":
        draft.trap("13.1: someone was hurt: the injury team handles it, by a transfer", asked).cite("13.1", "13.2")
        draft.do(act("transfer_to_human_agents", policyholder_id=draft.holder_id, reason="bodily_injury"))
    elif case == "below":
        draft.trap("5.4: the loss does not exceed the deductible: no claim is filed", asked).cite("5.4")
        draft.say("amount", money(policy["deductible"]), "5.4: the policy's deductible")
    else:
        draft.cite("5.1", "4.1", "5.6", "3.1").do(asked)
        filed = sum(1 for c in world["claims"].values() if c["policy_id"] == policy["policy_id"]) + 1
        link = act("send_upload_link", claim_id=f"clm-{policy['policy_id'].removeprefix('pol-')}-{filed}")
        draft.step("the upload link for the new claim, texted or not (5.6)", [], [link])
    return draft


def upload_documents(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """The policyholder uploads the missing documents from their phone; the claim goes to review only when complete."""
    waiting = _claims(world, holder, "awaiting_documents")
    if not waiting:
        return None
    claim = rng.choice(waiting)
    photos = world["devices"][holder["policyholder_id"]]["photos"]
    missing = [d for d in claim["required_documents"] if d not in claim["documents_received"]]
    on_phone = {p["document_type"]: p["photo_id"] for p in photos}
    absent = [d for d in missing if d not in on_phone]
    draft = Draft(world, holder, intent="upload_documents", dual=True).verify().cite("6.1", "6.2")
    draft.goal.append(
        f"The insurer asked for documents for your claim about {PERILS[claim['peril']]} from {claim['incident_date']}."
        " Photos of your paperwork are on your phone. You want the documents the claim needs uploaded and the claim"
        " sent for review. If that cannot be done, you want to know what is missing."
    )
    cid = claim["claim_id"]
    draft.do(act("list_claims", policyholder_id=draft.holder_id), act("send_upload_link", claim_id=cid))
    uploads = [act("upload_document", "user", claim_id=cid, photo_id=on_phone[d]) for d in missing if d in on_phone]
    draft.do(act("read_text_messages", "user"), act("view_photos", "user"), *uploads)
    draft.do(act("get_claim", claim_id=cid))
    submit = act("submit_claim_for_review", claim_id=cid)
    if absent:
        name = DOCUMENTS[absent[0]]
        draft.trap(f"6.4: the {name} is still missing: the claim is not submitted", submit).cite("6.4")
        draft.say("text", name, "6.4: the document still missing")
    else:
        draft.cite("6.3", "3.1").do(submit)
    return draft


def claim_status(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """An approved claim is paid its approved amount; one under review is not, and its due date is said."""
    claims = _claims(world, holder, "approved", "under_review")
    if not claims:
        return None
    claim = rng.choice(claims)
    policy = world["policies"][claim["policy_id"]]
    draft = Draft(world, holder, intent="claim_status").verify().cite("7.1")
    draft.goal.append(
        f"You filed a claim about {PERILS[claim['peril']]} from {claim['incident_date']} on your"
        f" {LINES[_line(world, policy)]} policy. You want to know where it stands, and if it is approved you want it"
        " paid out now. If it cannot be paid yet, you want to know by what date it will be decided."
    )
    cid, method = claim["claim_id"], _payment_method(world, claim)
    draft.do(act("list_claims", policyholder_id=draft.holder_id), act("get_claim", claim_id=cid))
    if claim["status"] == "under_review":
        asked = act("issue_claim_payment", claim_id=cid, amount=claim["estimated_loss"], method=method)
        draft.trap("7.2: the claim is under review: nothing is paid, the review due date is said", asked).cite("7.2")
        draft.say("date", claim["review_due"], "7.2: the review due date")
    else:
        draft.cite("7.3", "3.1").do(
            act("issue_claim_payment", claim_id=cid, amount=claim["approved_amount"], method=method)
        )
        draft.say("amount", money(claim["approved_amount"]), "7.3: the amount paid")
    return draft


def coverage_check(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """A letter and the limit for a covered peril; an exclusion said; a waiting period's first covered day said."""
    policies = _policies(world, holder)
    if not policies:
        return None
    policy = rng.choice(policies)
    product = world["products"][policy["product_id"]]
    waiting = sorted(p for p in product["waiting_days"] if _covered_from(world, policy, p) > iso(TODAY))
    case = "waiting" if waiting and rng.random() < 0.7 else rng.choice(["covered", "covered", "excluded"])
    if case == "waiting":
        peril = rng.choice(waiting)
    elif case == "excluded":
        peril = rng.choice(product["exclusions"])
    else:
        covered = sorted(p for p in product["coverages"] if _covered_from(world, policy, p) <= iso(TODAY))
        if not covered:
            return None
        peril = rng.choice(covered)
    draft = _read_policy(Draft(world, holder, intent="coverage_check").verify(), policy)
    draft.goal.append(
        f"You want to know whether your {LINES[product['line']]} policy for your {policy['insured_item']} covers"
        f" {PERILS[peril]}, and up to what amount. If it does, you want a proof-of-coverage letter for it. If it does"
        " not, you want to know why."
    )
    letter = act("issue_coverage_letter", policy_id=policy["policy_id"], peril=peril)
    if case == "excluded":
        draft.trap("4.3: the peril is excluded: no letter (4.4)", letter).cite("4.3", "4.4")
        draft.say("text", EXCLUDED, "4.3: the peril is excluded")
    elif case == "waiting":
        draft.trap("4.2: the peril is still in its waiting period: no letter (4.4)", letter).cite("4.2", "4.4")
        draft.say("date", _covered_from(world, policy, peril), "4.2: the date coverage begins")
    else:
        draft.cite("4.1", "4.4", "3.1").do(letter)
        draft.say("amount", money(product["coverages"][peril]), "4.4: the coverage limit")
    return draft


def change_deductible(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """A new deductible and its premium; lowering one while a claim on the policy is open is refused (10.2)."""
    policies = _policies(world, holder)
    if not policies:
        return None
    policy = rng.choice(policies)
    product = world["products"][policy["product_id"]]
    choices = [d for d in product["deductible_options"] if d != policy["deductible"]]
    new = rng.choice(choices)
    open_claims = [
        c
        for c in world["claims"].values()
        if c["policy_id"] == policy["policy_id"] and c["status"] in OPEN_CLAIM_STATUSES
    ]
    draft = _read_policy(Draft(world, holder, intent="change_deductible").verify(), policy)
    draft.do(act("list_claims", policyholder_id=draft.holder_id))
    draft.goal.append(
        f"You want the deductible on your {LINES[product['line']]} policy for your {policy['insured_item']} changed to"
        f" ${money(new)}, and to know your new yearly premium. If it cannot be changed, you want to know why."
    )
    change = act("change_deductible", policy_id=policy["policy_id"], deductible=new)
    if open_claims and new < policy["deductible"]:
        draft.trap("10.2: a claim on the policy is open: the deductible is not lowered", change).cite("10.2")
        draft.say("text", OPEN_CLAIM, "10.2: the policy has an open claim")
    else:
        draft.cite("10.1", "3.1", *(("10.2",) if open_claims else ())).do(change)
        draft.say("amount", money(premium(policy["base_rate"], new)), "10.1: the new yearly premium")
    return draft


def reinstate_policy(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """Reinstate within 30 days of the lapse (overdue invoices and the fee charged); after, say the last day."""
    lapsed = _policies(world, holder, "lapsed")
    if not lapsed:
        return None
    policy = rng.choice(lapsed)
    draft = Draft(world, holder, intent="reinstate_policy").verify().cite("11.1")
    draft.do(
        act("get_policyholder", policyholder_id=draft.holder_id),
        act("get_policy", policy_id=policy["policy_id"]),
        act("list_invoices", policy_id=policy["policy_id"]),
    )
    draft.goal.append(
        f"Your {LINES[_line(world, policy)]} policy for your {policy['insured_item']} lapsed after a missed payment."
        " You want it reinstated, paying what is owed with the card on file, and want to know the total charged."
        " If it cannot be reinstated, you want to know the last day it could have been."
    )
    reinstate = act("reinstate_policy", policy_id=policy["policy_id"])
    if days_since(policy["lapse_date"]) > GRACE_DAYS:
        draft.trap("11.3: more than 30 days since the lapse: no reinstatement", reinstate).cite("11.3")
        draft.say("date", plus_days(policy["lapse_date"], GRACE_DAYS), "11.3: the last day it could be reinstated")
    else:
        overdue = [
            i["amount"]
            for i in world["invoices"].values()
            if i["policy_id"] == policy["policy_id"] and i["status"] == "overdue"
        ]
        draft.cite("11.2", "3.1").do(reinstate)
        draft.say("amount", money(sum(overdue) + REINSTATEMENT_FEE), "11.2: the total charged")
    return draft


def appeal_denial(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """Appeal a denial in time on the grounds that answer it; an excluded peril or a closed window: say why not."""
    denied = _claims(world, holder, "denied")
    if not denied:
        return None
    claim = rng.choice(denied)
    reason = claim["denial_reason"]
    draft = Draft(world, holder, intent="appeal_denial").verify().cite("7.5")
    cid = claim["claim_id"]
    draft.do(act("list_claims", policyholder_id=draft.holder_id), act("get_claim", claim_id=cid))
    draft.goal.append(
        f"Your claim about {PERILS[claim['peril']]} from {claim['incident_date']} was denied, and you want to appeal"
        " the decision. If it cannot be appealed, you want to know why."
    )
    asked = act("file_appeal", claim_id=cid, grounds=APPEAL_GROUNDS.get(reason, "valuation_disputed"))
    if reason == "excluded_peril":
        draft.trap("9.2: a denial for an excluded peril cannot be appealed", asked).cite("9.2")
        draft.say("text", EXCLUDED, "9.2: the peril is excluded by the product")
    elif days_since(claim["decision_date"]) > APPEAL_WINDOW_DAYS:
        draft.trap("9.3: more than 60 days since the decision: no appeal", asked).cite("9.3")
        draft.say("date", plus_days(claim["decision_date"], APPEAL_WINDOW_DAYS), "9.3: the last day to appeal")
    else:
        draft.cite("9.1", "3.1").do(asked)
    return draft


def payout_account(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """A new payout account for an approved unpaid claim, after a security code; a paid claim keeps its account."""
    claims = _claims(world, holder, "approved", "paid")
    if not claims:
        return None
    claim = rng.choice(claims)
    routing = f"0{rng.randint(10**7, 10**8 - 1)}"
    account = f"{rng.randint(10**9, 10**10 - 1)}"
    draft = Draft(world, holder, intent="payout_account", dual=True).verify(code_only=True).cite("8.1")
    draft.do(act("list_claims", policyholder_id=draft.holder_id))
    draft.goal.append(
        f"Your claim about {PERILS[claim['peril']]} from {claim['incident_date']} was approved. You want its payout"
        f" deposited to your new bank account: routing number {routing}, account number {account}. If that cannot be"
        " done, you want to know why."
    )
    update = act("update_payout_account", claim_id=claim["claim_id"], routing_number=routing, account_number=account)
    if claim["payout"] is not None:
        draft.trap("8.2: the claim was already paid: its payout account cannot change", update).cite("8.2")
        draft.say("date", claim["payout"]["paid_on"], "8.2: the date the payment was made")
    else:
        draft.cite("3.1").do(update)
    return draft


def cancel_policy(world: World, holder: Holder, rng: random.Random) -> Draft | None:
    """Cancel from the date asked when it is today or later; a past date is never used: today instead (12.1)."""
    policies = _policies(world, holder)
    if not policies:
        return None
    policy = rng.choice(policies)
    past = rng.random() < 0.4
    asked = iso(TODAY - timedelta(days=rng.randint(3, 40))) if past else iso(TODAY + timedelta(days=rng.randint(1, 40)))
    if asked < policy["start_date"] or asked > policy["end_date"]:
        return None
    effective = iso(TODAY) if past else asked
    refund = cancellation_refund(policy["annual_premium"], effective, policy["end_date"])
    if refund <= 0:
        return None
    line = _line(world, policy)
    draft = _read_policy(Draft(world, holder, intent="cancel_policy").verify(), policy).cite("12.1", "12.2", "3.1")
    draft.goal.append(
        f"You want your {LINES[line]} policy for your {policy['insured_item']} cancelled from {asked}"
        f" ({CANCEL_REASONS[line]}), and want to know your refund. If it cannot start from that date, you want it"
        " cancelled from the earliest date allowed."
    )
    cancel = act("cancel_policy", policy_id=policy["policy_id"], effective_date=effective)
    if past:
        draft.trap(
            "12.1: a cancellation is never backdated: it takes effect today",
            act("cancel_policy", policy_id=policy["policy_id"], effective_date=asked),
        )
    draft.do(cancel).say("amount", money(refund), "12.2: the refund")
    return draft


SOLVERS: dict[str, Solver] = {
    f.__name__: f
    for f in (
        file_claim,
        upload_documents,
        claim_status,
        coverage_check,
        change_deductible,
        reinstate_policy,
        appeal_denial,
        payout_account,
        cancel_policy,
    )
}
"""The reference solver of each intent."""
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent."""
TRAPS_PER_WORLD = 1
"""Traps among an intent's tasks of a world, where the world has one."""
MORE = {"file_claim": (4, 2)}
"""Intents with more kinds of trap than worlds take more tasks and traps per world: (tasks, traps)."""
CANDIDATES = 40
"""Drafts of each kind (trap or not) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int, turn: int = 0) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first.

    ``turn`` (the world's position) rotates the kinds of case (their clauses, in a fixed order) by ``count`` per
    world, so that worlds choosing one or two traps each choose different kinds: a waiting period in one, an
    exclusion in the next.
    """
    kinds = sorted({tuple(task.clauses) for task in candidates})
    shift = turn * count % len(kinds) if kinds else 0
    rank = {kind: position for position, kind in enumerate(kinds[shift:] + kinds[:shift])}
    candidates = sorted(candidates, key=lambda task: rank[tuple(task.clauses)])
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    chosen += [task for task in candidates if task not in chosen][: count - len(chosen)]
    return chosen


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the world's policyholders: a trap where the world has one, varied in their clauses."""
    tasks: list[FactoryTask] = []
    holders = sorted(
        (h for h in world["policyholders"].values() if h["policyholder_id"].split("-")[1] == tag),
        key=lambda h: h["policyholder_id"],
    )
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        order = list(holders)
        rng.shuffle(order)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for holder in order:
            draft = solve(world, holder, rng)
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        turn = int(tag.removeprefix("w"))
        count, trap_count = MORE.get(intent, (PER_WORLD, TRAPS_PER_WORLD))
        chosen = _varied(traps, trap_count, turn)
        chosen += _varied(plain, count - len(chosen), turn)
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
