"""The reference solvers of the deal's last steps: a manager deciding a discount request, a client signing a quote.

A manager decides only their own reps' requests, within 25 percent; beyond it the request goes to the deal desk.
A client contact is verified by an emailed code, then signs in their own e-signature app (dual control), after which
the deal is won; an expired quote or a signer who is not a decision maker stops it, and the agent says why.
"""

from __future__ import annotations

import random

from taumesh.domains.factory import World, act
from taumesh.domains.sales.clock import DISCOUNT_AUTHORITY, TODAY, day, money, quote_total
from taumesh.domains.sales.drafts import Draft
from taumesh.domains.sales.lookups import Record, full_name, is_open, of_account
from taumesh.domains.sales.records import next_id, world_tag

MANAGER_LIMIT = DISCOUNT_AUTHORITY["sales_manager"]


def approve_discount(world: World, approval: Record, rng: random.Random, persona: str) -> Draft | None:
    """The approver approves within 25 % (the new total said); above it escalates; another manager hears whose it is."""
    if approval["status"] != "pending":
        return None
    quote = world["quotes"][approval["quote_id"]]
    account = world["accounts"][world["opportunities"][quote["opportunity_id"]]["account_id"]]
    approver = world["reps"][approval["approver_id"]]
    others = sorted(
        (r for r in world["reps"].values() if r["role"] == "sales_manager" and r["rep_id"] != approver["rep_id"]),
        key=lambda r: r["rep_id"],
    )
    over = approval["discount_percent"] > MANAGER_LIMIT
    not_theirs = not over and rng.random() < 0.35
    caller = rng.choice(others) if not_theirs else approver
    draft = Draft(world, caller, persona, intent="approve_discount").verify_rep().cite("3.1", "7.1")
    draft.do(
        act("get_quote", quote_id=quote["quote_id"]),
        act("list_approvals", quote_id=quote["quote_id"]),
        act("get_rep", rep_id=approval["requested_by"]),
    )
    draft.want(
        f"You manage a sales team and want the pending discount request on quote {quote['quote_id']} for"
        f" {account['name']} approved. If it is beyond what you may approve, you want it passed to whoever decides it."
    )
    approve = act("decide_discount_approval", approval_id=approval["approval_id"], decision="approved")
    escalate = act("escalate_to_deal_desk", approval_id=approval["approval_id"])
    if not_theirs:
        draft.trap(
            "7.3: the caller is not the request's approver: nothing changes, they hear whose it is", approve, escalate
        )
        draft.do(act("get_rep", rep_id=approver["rep_id"]))
        return draft.cite("7.3").say("text", full_name(approver), "7.3: the approver's full name")
    if over:
        draft.trap(f"7.2: {approval['discount_percent']}% is beyond a manager's 25%: the deal desk decides", approve)
        return draft.cite("7.2").do(escalate)
    total = quote_total(quote["lines"], approval["discount_percent"])
    return draft.cite("5.2").do(approve).say("amount", money(total), "5.2: the quote's new total")


def accept_quote(world: World, quote: Record, rng: random.Random, persona: str) -> Draft | None:
    """Sent to a decision maker, signed in their app, the deal won; not when expired or the signer may not sign."""
    opportunity = world["opportunities"][quote["opportunity_id"]]
    if quote["status"] != "approved" or not is_open(opportunity):
        return None
    contacts = of_account(world, "contacts", opportunity["account_id"])
    deciders = [c for c in contacts if c["buying_role"] == "decision_maker"]
    others = [c for c in contacts if c["buying_role"] != "decision_maker"]
    expired = day(quote["valid_until"]) < TODAY
    not_decider = not expired and bool(others) and rng.random() < 0.35
    contact = rng.choice(others if not_decider else deciders)
    draft = Draft(world, contact, persona, intent="accept_quote", dual=True).verify_contact().cite("3.1", "8.1")
    draft.do(
        act("get_quote", quote_id=quote["quote_id"]),
        act("get_opportunity", opportunity_id=opportunity["opportunity_id"]),
        act("list_account_contacts", account_id=opportunity["account_id"]),
    )
    draft.want(
        f"You want to accept quote {quote['quote_id']} that Northpeak sent your company, and sign it today. If it"
        " cannot be signed, you want to know why."
    )
    send = act("send_for_signature", quote_id=quote["quote_id"], contact_id=contact["contact_id"])
    if expired:
        draft.trap("8.2: the quote's validity has passed: it is not sent", send).cite("8.2")
        return draft.say("text", "expired|no longer valid|lapsed", "8.2: the quote has expired")
    if not_decider:
        draft.trap("8.3: the contact is not a decision maker: it is not sent to them", send).cite("8.3")
        return draft.say("text", "decision maker|decision-maker", "8.3: a decision maker has to sign")
    envelope_id = next_id(world, "envelopes", "env", world_tag(quote["quote_id"]))
    return draft.cite("8.4").do(
        send,
        act("open_esign_app", "user", email=contact["email"]),
        act("sign_envelope", "user", envelope_id=envelope_id),
        act("mark_opportunity_won", opportunity_id=opportunity["opportunity_id"], quote_id=quote["quote_id"]),
    )
