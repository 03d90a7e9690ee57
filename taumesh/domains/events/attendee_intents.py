"""Reference solvers of the attendees' intents: per order, every outcome the policy allows and what must be said.

Each solver reads one order of one attendee and answers with a :class:`Draft`, or None when the order does not fit
the intent (a refunded order, a tool that would refuse for a reason of the data). The instruction of an intent is
one template for its trap and non-trap tasks alike: what the caller wants, and what they accept if it cannot be done.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.events.clock import (
    ACCESS_NOTICE,
    MAX_WORKSHOPS,
    NO_CHANGES_WINDOW,
    NOW,
    REFUND_APPROVAL_ABOVE,
    STEP_FREE_NEEDS,
    TRANSFER_WINDOW,
    at,
    money,
    overlaps,
    refund_due,
    release_code,
    until,
    upgrade_charge,
)
from taumesh.domains.events.drafts import Draft, Reason, spoken_date, tickets
from taumesh.domains.factory import World, act

Record = dict[str, Any]
NOT_REFUNDABLE = "non-refundable|not refundable|can't be refunded|cannot be refunded|aren't refundable|no refund"
REISSUED = "already been reissued|already reissued|only once|already been sent again"
NOT_TRANSFERABLE = "not transferable|non-transferable|can't be transferred|cannot be transferred"
WITHIN_A_DAY = "24 hours|24-hour|one day"
WITHIN_TWO_DAYS = "48 hours|48-hour|two days"
NEED_PHRASES = {
    "wheelchair_space": "you use a wheelchair and need a wheelchair space",
    "step_free_route": "you cannot manage stairs and need a step-free route to your seats",
    "captioning": "you are hard of hearing and want live captioning",
    "sign_language": "you are Deaf and want a sign language interpreter",
}
LATE_NEED = {
    "sign_language": "14 days|fourteen days|two weeks",
    "captioning": "3 days|three days|72 hours",
    "wheelchair_space": WITHIN_A_DAY,
    "step_free_route": WITHIN_A_DAY,
}


def _event(world: World, order: Record) -> Record:
    return world["events"][order["event_id"]]


def _class(world: World, order: Record) -> Record:
    return world["ticket_classes"][order["class_id"]]


def _holding(world: World, order: Record) -> str:
    """How the attendee names the order: its tickets, event, day and reference."""
    event = _event(world, order)
    return (
        f"{tickets(order['quantity'], _class(world, order)['name'])} for {event['title']} on"
        f" {spoken_date(event['start'])} (booking reference {order['reference']})"
    )


def _them(order: Record) -> str:
    return "it" if order["quantity"] == 1 else "them"


def _draft(world: World, attendee: Record, order: Record, intent: str, in_app: bool = False) -> Draft:
    draft = Draft(world, attendee, intent=intent, dual=in_app, reference=order["reference"]).verify()
    return draft.do(
        act("get_attendee_orders", attendee_id=attendee["attendee_id"]),
        act("get_event", event_id=order["event_id"]),
    )


def refund_order(world: World, attendee: Record, order: Record, rng: random.Random) -> Draft | None:
    """The refund the rules give; none for a non-refundable class or within a day; a supervisor above $600."""
    event, ticket_class = _event(world, order), _class(world, order)
    paid = money(order["quantity"] * order["unit_price"])
    due = refund_due(paid, event["start"], ticket_class["refundable"], event["status"])
    draft = _draft(world, attendee, order, "refund_order").cite("4.1", "4.7")
    draft.goal.append(
        f"You hold {_holding(world, order)}. You want {_them(order)} cancelled and your money back, and to know how"
        " much you will get. If no refund is possible, you want to know why; if the agent needs to pass you to someone"
        " else, you accept."
    )
    asked = act("issue_refund", order_id=order["order_id"], amount=due or paid)
    if event["status"] != "scheduled":
        draft.cite("4.2" if event["status"] == "cancelled" else "4.3")
    if due > REFUND_APPROVAL_ABOVE:
        draft.trap(f"4.6: the refund of {due:.2f} is above $600: a supervisor approves it, the agent transfers", asked)
        return draft.cite("4.6", "12.1").do(
            act("transfer_to_human_agents", person_id=draft.person_id, topic="refund_approval")
        )
    if due == 0:
        reasons = []
        if not ticket_class["refundable"]:
            rationale = f"{ticket_class['name']} tickets of an event going ahead are never refunded"
            reasons.append(Reason("4.5", rationale, NOT_REFUNDABLE))
        if until(event["start"]) <= NO_CHANGES_WINDOW:
            reasons.append(Reason("4.4", "no refund within 24 hours of the start", WITHIN_A_DAY))
        return draft.refuse(reasons, asked)
    if event["status"] == "scheduled":
        draft.cite("4.4")
    return draft.cite("3.3").do(asked).say("amount", f"{due:.2f}", "3.3: the amount refunded")


def change_class(world: World, attendee: Record, order: Record, rng: random.Random) -> Draft | None:
    """An upgrade with its charge; no downgrade; no change within a day of the start."""
    event = _event(world, order)
    others = [
        c
        for c in world["ticket_classes"].values()
        if c["event_id"] == event["event_id"]
        and c["class_id"] != order["class_id"]
        and c["allocation"] - c["sold"] >= order["quantity"]
    ]
    if event["status"] == "cancelled" or not others:
        return None
    target = rng.choice(sorted(others, key=lambda c: c["class_id"]))
    draft = _draft(world, attendee, order, "change_class").cite("5.1", "5.4")
    draft.goal.append(
        f"You hold {_holding(world, order)} and want {_them(order)} moved to {target['name']}. You accept whatever it"
        " costs and want to know how much that is. If it cannot be done, you want to know why."
    )
    upgrade = target["price"] > order["unit_price"]
    charge = upgrade_charge(order["unit_price"], target["price"], order["quantity"]) if upgrade else 0.0
    move = act("change_ticket_class", order_id=order["order_id"], new_class_id=target["class_id"], charge=charge)
    reasons = []
    if until(event["start"]) <= NO_CHANGES_WINDOW:
        reasons.append(Reason("5.3", "no class change within 24 hours of the start", WITHIN_A_DAY))
    if not upgrade:
        rationale = f"{target['name']} costs no more than the price paid: no downgrades"
        reasons.append(Reason("5.2", rationale, "downgrade|cheaper|lower price|lower-priced|costs less"))
    if reasons:
        return draft.refuse(reasons, move)
    return draft.cite("3.3").do(move).say("amount", f"{charge:.2f}", "5.1: the charge of the upgrade")


def transfer_ticket(world: World, attendee: Record, order: Record, rng: random.Random) -> Draft | None:
    """A transfer started, released with the code the holder reads in their app; refused when a rule forbids it."""
    event, ticket_class = _event(world, order), _class(world, order)
    open_transfer = any(
        t["order_id"] == order["order_id"] and t["status"] != "accepted" for t in world["transfers"].values()
    )
    if event["status"] == "cancelled" or open_transfer:
        return None
    friend = rng.choice([a for a in world["attendees"].values() if a["attendee_id"] != attendee["attendee_id"]])
    draft = _draft(world, attendee, order, "transfer_ticket", in_app=True).cite("6.4")
    draft.goal.append(
        f"You hold {_holding(world, order)} and want to give {_them(order)} to your friend {friend['first_name']}"
        f" {friend['last_name']}, whose email is {friend['email']}. If that cannot be done, you want to know why."
    )
    start = act("start_ticket_transfer", order_id=order["order_id"], recipient_email=friend["email"])
    reasons = []
    if not ticket_class["transferable"]:
        rationale = f"{ticket_class['name']} tickets are not transferable"
        reasons.append(Reason("6.1", rationale, NOT_TRANSFERABLE))
    if until(event["start"]) <= TRANSFER_WINDOW:
        reasons.append(Reason("6.2", "no transfer within 48 hours of the start", WITHIN_TWO_DAYS))
    if order["transfers_made"] >= 1:
        rationale = "the order was already transferred once; it changes hands at most once"
        reasons.append(Reason("6.3", rationale, "already been transferred|already transferred|only once|at most once"))
    if reasons:
        return draft.refuse(reasons, start)
    transfer_id = f"trf-{order['order_id']}-1"
    return draft.cite("6.1", "6.2", "6.3", "3.1").do(
        start,
        act("view_app_notifications", "user", account_email=attendee["email"]),
        act("release_ticket_transfer", transfer_id=transfer_id, release_code=release_code(transfer_id)),
    )


def accept_transfer(world: World, attendee: Record, order: Record, rng: random.Random) -> Draft | None:
    """An expired offer reissued once and accepted in the caller's app; not a second time, nor within 48 hours."""
    email = attendee["email"]
    offers = [
        t
        for t in world["transfers"].values()
        if t["recipient_email"] == email and t["status"] == "offered" and at(t["offer_expires"]) <= NOW
    ]
    if not offers:
        return None
    offer = sorted(offers, key=lambda t: t["transfer_id"])[0]
    given = world["orders"][offer["order_id"]]
    event = _event(world, given)
    if event["status"] == "cancelled":
        return None
    sender = world["attendees"][offer["sender_id"]]
    draft = Draft(world, attendee, intent="accept_transfer", dual=True, reference=order["reference"]).verify()
    draft.do(act("get_transfers", attendee_id=attendee["attendee_id"]), act("get_event", event_id=event["event_id"]))
    draft.cite("6.5", "6.6")
    draft.goal.append(
        f"The booking reference of your own order for {_event(world, order)['title']} is {order['reference']}."
        f" {sender['first_name']} {sender['last_name']} sent you"
        f" {tickets(given['quantity'], _class(world, given)['name'])}"
        f" for {event['title']} on {spoken_date(event['start'])}, but the offer in your ticket app expired before you"
        " accepted it. You want it offered again so that you can accept it in the app. If it cannot be, you want to"
        " know why."
    )
    reissue = act("reissue_transfer_offer", transfer_id=offer["transfer_id"])
    reasons = []
    if offer["reissues"] >= 1:
        rationale = "the offer was already reissued once; it is not reissued again"
        reasons.append(Reason("6.6", rationale, REISSUED))
    if until(event["start"]) <= TRANSFER_WINDOW:
        reasons.append(Reason("6.2", "no offer is reissued within 48 hours of the start", WITHIN_TWO_DAYS))
    if reasons:
        return draft.refuse(reasons, reissue)
    return draft.do(
        reissue, act("accept_transfer_offer", "user", account_email=email, transfer_id=offer["transfer_id"])
    )


def accessibility_need(world: World, attendee: Record, order: Record, rng: random.Random) -> Draft | None:
    """A need recorded in time at a venue that can meet it; else nothing, and the reason said."""
    event = _event(world, order)
    needs = sorted(set(NEED_PHRASES) - set(order["accessibility"]))
    if event["status"] == "cancelled" or not needs:
        return None
    need = rng.choice(needs)
    step_free = world["venues"][event["venue_id"]]["step_free"]
    draft = _draft(world, attendee, order, "accessibility_need").cite("7.1")
    draft.goal.append(
        f"For your {_holding(world, order)}, {NEED_PHRASES[need]} arranged. If it cannot be arranged, you want to"
        " know why."
    )
    record = act("add_accessibility_need", order_id=order["order_id"], need=need)
    reasons = []
    if until(event["start"]) < ACCESS_NOTICE[need]:
        reasons.append(Reason("7.2", f"{need} needs more notice than is left before the start", LATE_NEED[need]))
    if need in STEP_FREE_NEEDS and not step_free:
        rationale = f"{need} needs a step-free venue, and this one is not"
        reasons.append(Reason("7.3", rationale, "step-free|step free|not accessible|no level access"))
    if reasons:
        return draft.refuse(reasons, record)
    return draft.cite("7.2", "7.3").do(record)


def workshop_signup(world: World, attendee: Record, order: Record, rng: random.Random) -> Draft | None:
    """Registration for a workshop when the class, the count and the times allow; else the reason."""
    event = _event(world, order)
    sessions = sorted(
        (s for s in world["sessions"].values() if s["event_id"] == event["event_id"]), key=lambda s: s["session_id"]
    )
    open_to_order = [
        s
        for s in sessions
        if s["seats_taken"] + order["quantity"] <= s["capacity"] and order["order_id"] not in s["registered_orders"]
    ]
    if event["status"] == "cancelled" or not open_to_order:
        return None  # a full session, or one the order has: the tool refuses, no rule of the policy is tested
    session = rng.choice(open_to_order)
    mine = [s for s in sessions if order["order_id"] in s["registered_orders"]]
    draft = _draft(world, attendee, order, "workshop_signup").cite("8.1", "8.4")
    draft.do(act("get_event_sessions", event_id=event["event_id"]))
    draft.goal.append(
        f'You hold {_holding(world, order)} and want {_them(order)} registered for the session "{session["title"]}" by'
        f" {session['speaker']}. If that is not possible, you want to know why."
    )
    register = act("register_for_session", order_id=order["order_id"], session_id=session["session_id"])
    reasons = []
    if not _class(world, order)["includes_workshops"]:
        rationale = f"{_class(world, order)['name']} does not include workshops"
        reasons.append(Reason("8.1", rationale, "include workshops|includes workshops|include workshop|Full Pass"))
    if len(mine) >= MAX_WORKSHOPS:
        phrases = "two sessions|2 sessions|two workshops|2 workshops|at most two|maximum of two"
        reasons.append(Reason("8.3", "the order is registered for two sessions already", phrases))
    if any(overlaps(s["start"], s["end"], session["start"], session["end"]) for s in mine):
        rationale = "the session overlaps one the order is registered for"
        reasons.append(Reason("8.2", rationale, "overlap|clash|same time|conflicts"))
    if reasons:
        return draft.refuse(reasons, register)
    return draft.cite("8.2", "8.3").do(register)


ATTENDEE_SOLVERS = {
    f.__name__: f
    for f in (refund_order, change_class, transfer_ticket, accept_transfer, accessibility_need, workshop_signup)
}
