"""The reference solvers of what reps ask the desk for: discounts, quotes, follow-ups, meetings, deals and accounts.

Each reads the world as the agent would find it and returns every outcome the policy allows, the statements the agent
must make and, for a trap, the write the rep asks for that the policy forbids (with the clause). Each intent has one
instruction template for its trap and non-trap tasks alike.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.sales.clock import (
    ACTIVITY_LOG_DAYS,
    DISCOUNT_AUTHORITY,
    QUARTER_END,
    TODAY,
    day,
    latest_close_date,
    money,
    quote_total,
    unit_price,
    weekday_on_or_after,
)
from taumesh.domains.sales.drafts import Draft
from taumesh.domains.sales.lookups import (
    Record,
    full_name,
    is_open,
    of_account,
    of_opportunity,
    seller,
    sellers_in,
)
from taumesh.domains.sales.records import next_id
from taumesh.domains.sales.vocabulary import QUANTITIES

LOST_WORDS = {
    "price": "the client found it too expensive",
    "competitor": "they signed with a competitor",
    "no_budget": "their budget for it was cut",
    "no_decision": "they stopped the evaluation without choosing anyone",
    "timing": "they will not buy anything this year",
}
ASKED_PERCENTS = (4, 6, 7, 9, 10, 12, 14, 15, 18, 20, 22, 25)
EXCEPTIONAL_PERCENTS = (40, 45, 50)
"""Beyond the deal desk's 35 percent: an exception for a human (6.4)."""


def _owned_open(world: World, opportunity: Record) -> tuple[Record, Record] | None:
    """The opportunity's active seller and account, when it is open and owned by one."""
    rep = seller(world, opportunity["owner_rep_id"])
    if rep is None or not is_open(opportunity):
        return None
    return rep, world["accounts"][opportunity["account_id"]]


def _find_account(draft: Draft, account: Record, *more: str) -> Draft:
    """The agent finds the account by name, then lists what ``more`` names (contacts, opportunities)."""
    reads = {"contacts": "list_account_contacts", "opportunities": "list_opportunities"}
    return draft.do(
        act("search_accounts", name=account["name"]),
        *[act(reads[what], account_id=account["account_id"]) for what in more],
    )


def apply_discount(world: World, quote: Record, rng: random.Random, persona: str) -> Draft | None:
    """The discount within the rep's authority (new total said), a request beyond it, a transfer beyond 35 %."""
    opportunity = world["opportunities"][quote["opportunity_id"]]
    owned = _owned_open(world, opportunity)
    if owned is None or quote["status"] not in ("draft", "approved") or day(quote["valid_until"]) < TODAY:
        return None
    rep, account = owned
    limit = DISCOUNT_AUTHORITY[rep["role"]]
    draw = rng.random()
    trap, exceptional = draw < 0.6, draw < 0.2
    choices = [p for p in ASKED_PERCENTS if (p > limit if trap else p <= limit) and p != quote["discount_percent"]]
    percent = rng.choice(EXCEPTIONAL_PERCENTS if exceptional else choices)
    draft = Draft(world, rep, persona, intent="apply_discount").verify_rep().cite("3.1", "4.1", "6.1")
    draft.do(
        act("get_rep", rep_id=rep["rep_id"]),
        act("get_quote", quote_id=quote["quote_id"]),
        act("get_opportunity", opportunity_id=opportunity["opportunity_id"]),
    )
    draft.want(
        f"You want a {percent}% discount on quote {quote['quote_id']} for {account['name']}. If you cannot give that"
        " much yourself, you want it put forward for approval so that the deal can still go ahead."
    )
    set_it = act("set_quote_discount", quote_id=quote["quote_id"], discount_percent=percent)
    request = act("request_discount_approval", quote_id=quote["quote_id"], discount_percent=percent)
    if exceptional:
        draft.trap(
            f"6.4: {percent}% is beyond anyone's authority: neither set nor submitted, an exception", set_it, request
        )
        handoff = act("transfer_to_human_agents", person_id=rep["rep_id"], reason="deal_desk_exception")
        return draft.cite("6.4", "13.1", "13.2").do(handoff)
    if trap:
        draft.trap(f"6.3: {percent}% is beyond the rep's own {limit}%: it goes to their manager as a request", set_it)
        draft.cite("6.3").do(request)
        draft.say("text", "manager", "6.3: the rep's manager has to approve it")
    else:
        draft.cite("6.2", "5.2").do(set_it)
        draft.say("amount", money(quote_total(quote["lines"], percent)), "5.2: the quote's new total")
    return draft


def _line_words(world: World, product_id: str, quantity: int) -> str:
    product = world["products"][product_id]
    unit = product["unit"] if quantity == 1 else f"{product['unit']}s"
    return f"{quantity} {unit} of {product['name']}"


def create_quote(world: World, opportunity: Record, rng: random.Random, persona: str) -> Draft | None:
    """A new quote of one or two lines and its total; none for an account on credit hold (5.3)."""
    owned = _owned_open(world, opportunity)
    if owned is None or opportunity["stage"] == "negotiation":
        return None
    rep, account = owned
    products = sorted(rng.sample(sorted(world["products"]), rng.choice([1, 2])))
    lines = [(p, rng.choice(QUANTITIES[world["products"][p]["unit"]])) for p in products]
    draft = Draft(world, rep, persona, intent="create_quote").verify_rep().cite("3.1", "4.1", "5.3")
    draft.do(
        act("get_opportunity", opportunity_id=opportunity["opportunity_id"]),
        act("get_account", account_id=account["account_id"]),
    )
    wanted = " and ".join(_line_words(world, p, q) for p, q in lines)
    draft.want(
        f"You want a new quote on your {opportunity['name']} opportunity with {account['name']}: {wanted}. You want"
        " to know what it comes to."
    )
    first = act(
        "create_quote", opportunity_id=opportunity["opportunity_id"], product_id=lines[0][0], quantity=lines[0][1]
    )
    if account["credit_hold"]:
        draft.trap("5.3: the account is on credit hold: no new quote", first)
        draft.say("text", "credit hold|credit-hold", "5.3: the account is on credit hold")
        return draft
    quote_id = next_id(world, "quotes", "qt", opportunity["opportunity_id"].split("-")[1])
    more = [act("add_quote_line", quote_id=quote_id, product_id=p, quantity=q) for p, q in lines[1:]]
    draft.cite("5.1", "5.2").do(act("get_price_book"), first, *more)
    priced = [{"quantity": q, "unit_price": unit_price(world["products"][p], q)} for p, q in lines]
    return draft.say("amount", money(quote_total(priced, 0)), "5.2: the new quote's total")


def _blocked(contact: Record, channel: str) -> bool:
    return bool(contact["do_not_email"] if channel == "email" else contact["do_not_call"])


def schedule_follow_up(world: World, contact: Record, rng: random.Random, persona: str) -> Draft | None:
    """The follow-up asked for on a working day; by the other channel when the contact blocks it; none if both."""
    account = world["accounts"][contact["account_id"]]
    opportunities = [o for o in of_account(world, "opportunities", account["account_id"]) if _owned_open(world, o)]
    if not opportunities:
        return None
    opportunity = rng.choice(opportunities)
    rep = world["reps"][opportunity["owner_rep_id"]]
    asked = rng.choice(["email", "call"])
    other = "call" if asked == "email" else "email"
    wanted = TODAY + timedelta(days=rng.randint(2, 20))
    due = weekday_on_or_after(wanted).isoformat()
    draft = Draft(world, rep, persona, intent="schedule_follow_up").verify_rep().cite("3.1", "4.1", "11.2", "11.3")
    _find_account(draft, account, "contacts", "opportunities")
    draft.want(
        f"You want a follow-up {asked} with {full_name(contact)} of {account['name']} on {wanted.isoformat()}, for your"
        f" {opportunity['name']} opportunity. If that way of reaching them is not allowed, you want the other way."
    )

    def follow_up(channel: str) -> Any:
        return act(
            "schedule_follow_up",
            opportunity_id=opportunity["opportunity_id"],
            contact_id=contact["contact_id"],
            channel=channel,
            due_date=due,
        )

    if not _blocked(contact, asked):
        return draft.do(follow_up(asked))
    if not _blocked(contact, other):
        draft.trap(f"11.3: the contact is marked do_not_{asked}: the follow-up goes by {other}", follow_up(asked))
        return draft.do(follow_up(other))
    draft.trap("11.3: the contact blocks both email and calls: no follow-up", follow_up(asked))
    return draft.say("text", "opted out|opted-out|opt out|opt-out", "11.3: the contact has opted out of both")


def log_meeting(world: World, calendar: Record, rng: random.Random, persona: str) -> Draft | None:
    """A past meeting from the rep's calendar is logged within 14 days; an older one is not (11.1)."""
    rep = seller(world, calendar["rep_id"])
    contacts = {c["email"]: c for c in world["contacts"].values()}
    events = []
    for event in calendar["events"]:
        contact = contacts[event["contact_email"]]
        opportunities = [
            o
            for o in of_account(world, "opportunities", contact["account_id"])
            if is_open(o) and o["owner_rep_id"] == calendar["rep_id"]
        ]
        if day(event["date"]) <= TODAY and opportunities:
            events.append((event, contact, rng.choice(opportunities)))
    if rep is None or not events:
        return None
    event, contact, opportunity = rng.choice(events)
    account = world["accounts"][contact["account_id"]]
    draft = Draft(world, rep, persona, intent="log_meeting", dual=True).verify_rep().cite("3.1", "4.1", "11.1")
    draft.do(act("open_calendar", "user", email=rep["email"]))
    _find_account(draft, account, "contacts", "opportunities")
    draft.want(
        f"You had a {event['kind']} with {full_name(contact)} of {account['name']} about your {opportunity['name']}"
        " opportunity and want it logged. Its date is in your calendar: open it when the agent asks."
    )
    log = act(
        "log_activity",
        opportunity_id=opportunity["opportunity_id"],
        contact_id=contact["contact_id"],
        kind=event["kind"],
        date=event["date"],
    )
    if (TODAY - day(event["date"])).days > ACTIVITY_LOG_DAYS:
        draft.trap("11.1: it took place more than 14 days ago: it is not logged", log)
        return draft.say("text", "14 days|fourteen days|two weeks", "11.1: it is more than 14 days old")
    return draft.do(log)


def close_lost(world: World, opportunity: Record, rng: random.Random, persona: str) -> Draft | None:
    """Closed lost with its open follow-ups cancelled; not when its quote is signed, nor for another rep's deal."""
    owned = _owned_open(world, opportunity)
    if owned is None:
        return None
    owner, account = owned
    colleagues = [r for r in sellers_in(world, owner["territory"]) if r["rep_id"] != owner["rep_id"]]
    quotes = of_opportunity(world, "quotes", opportunity["opportunity_id"])
    signed = any(q["status"] == "signed" for q in quotes)
    not_theirs = not signed and bool(colleagues) and rng.random() < 0.3
    caller = rng.choice(colleagues) if not_theirs else owner
    reason = rng.choice(sorted(LOST_WORDS))
    draft = Draft(world, caller, persona, intent="close_lost").verify_rep().cite("3.1", "4.1", "9.1")
    _find_account(draft, account, "opportunities")
    draft.want(
        f"The {opportunity['name']} opportunity with {account['name']}, which you have been working, is lost:"
        f" {LOST_WORDS[reason]}. You want it closed as lost, with nothing left open on it."
    )
    lost = act("mark_opportunity_lost", opportunity_id=opportunity["opportunity_id"], reason=reason)
    if not_theirs:
        draft.trap("4.2: another rep owns the opportunity: nothing changes, the caller hears who", lost).cite("4.2")
        draft.do(act("get_rep", rep_id=owner["rep_id"]))
        return draft.say("text", full_name(owner), "4.2: the owner's full name")
    draft.do(
        act("get_opportunity", opportunity_id=opportunity["opportunity_id"]),
        *[act("get_quote", quote_id=q["quote_id"]) for q in quotes],
    )
    if signed:
        draft.trap("9.2: the client has signed its quote: it is not closed as lost", lost).cite("9.2")
        return draft.say("text", "signed", "9.2: the client has signed its quote")
    follow_ups = [
        f for f in of_opportunity(world, "follow_ups", opportunity["opportunity_id"]) if f["status"] == "open"
    ]
    draft.cite("9.3").do(
        act("list_follow_ups", opportunity_id=opportunity["opportunity_id"]),
        lost,
        *[act("cancel_follow_up", follow_up_id=f["follow_up_id"]) for f in follow_ups],
    )
    return draft


def push_close_date(world: World, opportunity: Record, rng: random.Random, persona: str) -> Draft | None:
    """The date asked, or the current one plus 90 days at most; a commit deal leaving the quarter becomes best case."""
    owned = _owned_open(world, opportunity)
    if owned is None:
        return None
    rep, account = owned
    asked = (
        day(opportunity["close_date"]) + timedelta(days=rng.choice([21, 34, 47, 62, 83, 104, 121, 147]))
    ).isoformat()
    allowed = min(asked, latest_close_date(opportunity["close_date"]))
    draft = Draft(world, rep, persona, intent="push_close_date").verify_rep().cite("3.1", "4.1", "10.1")
    _find_account(draft, account, "opportunities")
    draft.want(
        f"Your {opportunity['name']} opportunity with {account['name']} is slipping: you want its close date moved to"
        f" {asked}. If that is further than allowed, you want it as late as allowed."
    )
    move = act("update_close_date", opportunity_id=opportunity["opportunity_id"], close_date=allowed)
    if allowed != asked:
        asked_move = act("update_close_date", opportunity_id=opportunity["opportunity_id"], close_date=asked)
        draft.trap(f"10.1: one change moves the close date 90 days at most: to {allowed}", asked_move)
    draft.do(move)
    if opportunity["forecast_category"] == "commit" and day(allowed) > QUARTER_END:
        category = act("set_forecast_category", opportunity_id=opportunity["opportunity_id"], category="best_case")
        draft.cite("10.2").do(category)
    return draft


def claim_account(world: World, account: Record, rng: random.Random, persona: str) -> Draft | None:
    """An unowned or departed rep's account passes, with its open deals, to a rep of its territory; no other."""
    owner = world["reps"].get(account["owner_rep_id"] or "")
    owned_by_active = owner is not None and owner["status"] == "active"
    locals_ = [r for r in sellers_in(world, account["territory"]) if r["rep_id"] != account["owner_rep_id"]]
    strangers = [
        r for r in world["reps"].values() if seller(world, r["rep_id"]) and r["territory"] != account["territory"]
    ]
    away = not owned_by_active and rng.random() < 0.3
    if not (strangers if away else locals_):
        return None
    caller = rng.choice(sorted(strangers, key=lambda r: r["rep_id"]) if away else locals_)
    draft = Draft(world, caller, persona, intent="claim_account").verify_rep().cite("3.1", "12.1")
    draft.do(act("search_accounts", name=account["name"]), act("get_rep", rep_id=caller["rep_id"]))
    if owner is not None:
        draft.do(act("get_rep", rep_id=owner["rep_id"]))
    draft.want(f"You want to take over the {account['name']} account, with everything still open on it.")
    assign = act("assign_account_owner", account_id=account["account_id"], rep_id=caller["rep_id"])
    if owner is not None and owned_by_active:
        draft.trap("12.3: an active rep owns the account: the caller hears who", assign).cite("12.3")
        return draft.say("text", full_name(owner), "12.3: the owner's full name")
    if away:
        draft.trap("12.4: the account is in another territory: it is not assigned", assign).cite("12.4")
        return draft.say("text", "territory", "12.4: the account is in another territory")
    opportunities = [o for o in of_account(world, "opportunities", account["account_id"]) if is_open(o)]
    draft.cite("12.2").do(
        act("list_opportunities", account_id=account["account_id"]),
        assign,
        *[
            act("reassign_opportunity", opportunity_id=o["opportunity_id"], rep_id=caller["rep_id"])
            for o in opportunities
        ],
    )
    return draft
