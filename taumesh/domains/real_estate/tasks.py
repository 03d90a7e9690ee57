"""The reference solvers: per intent, every outcome the policy allows for one client, and what the agent must say.

Each solver reads the client's file and the listing as the agent would, decides what the policy allows, and writes
the steps (both orders where two disclosures are sent, since the order names their signatures), the statements (a
refusal's reason, an amount) and, for a trap, the write the client asks for and the clause forbidding it. An
intent's instruction is one template for trap and non-trap tasks alike: no sentence tells the client a trap is there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.factory import FactoryTask, World, act
from taumesh.domains.real_estate.agent_tools import DISCLOSURES
from taumesh.domains.real_estate.clock import (
    TODAY,
    application_fee,
    covers_for_tour,
    earnest_money,
    monthly_carrying,
    move_in_total,
    notice_met,
    still_valid,
)
from taumesh.domains.real_estate.draft import Draft

Client = dict[str, Any]
Solver = Callable[[World, Client, random.Random], Draft | None]

PRE_APPROVAL = "pre-approval|preapproval|pre-approved|preapproved"
NOT_ACTIVE = "under contract|no longer active|not active|no longer on the market|coming soon|not yet on the market"


def _money(value: float) -> str:
    return f"{value:.2f}"


def _dollars(value: int) -> str:
    return f"${value:,}"


def _of_client(world: World, table: str, client: Client) -> list[dict[str, Any]]:
    return [r for r in world[table].values() if r["client_id"] == client["client_id"]]


def _listings(world: World, kind: str, *statuses: str) -> list[dict[str, Any]]:
    found = [x for x in world["listings"].values() if x["kind"] == kind and x["status"] in statuses]
    return sorted(found, key=lambda x: x["listing_id"])


def _open_slots(world: World, listing_id: str, day: str) -> list[dict[str, Any]]:
    return sorted(
        (
            s
            for s in world["showings"].values()
            if s["listing_id"] == listing_id and s["start"][:10] == day and s["status"] == "open"
        ),
        key=lambda s: s["start"],
    )


def _days(world: World, listing_id: str) -> list[str]:
    return sorted({s["start"][:10] for s in world["showings"].values() if s["listing_id"] == listing_id})


def _letter_on_device(world: World, client: Client) -> bool:
    """Whether the client holds a pre-approval letter they have not uploaded.

    Where the policy refuses for want of a pre-approval it points to an upload (4.4, 6.2): a client holding a letter
    could take that route, an outcome the solver does not list, so such clients get no pre-approval refusal.
    """
    return any(f["kind"] == "pre_approval_letter" for f in world["portals"][client["client_id"]]["files"])


def _valid_pre_approval(client: Client) -> int | None:
    """The amount of the client's verified pre-approval, if it has not expired."""
    letter = client["pre_approval"]
    return int(letter["amount"]) if letter is not None and still_valid(letter["expires"]) else None


def _when(start: str) -> str:
    return start.replace("T", " at ")


def _find(draft: Draft, listing: dict[str, Any]) -> Draft:
    return draft.do(
        act("search_listings", text=listing["address"]), act("get_listing", listing_id=listing["listing_id"])
    )


def _kind(client: Client) -> str:
    return "sale" if client["role"] == "buyer" else "rent"


def _home(listing: dict[str, Any]) -> str:
    return f"the {'home' if listing['kind'] == 'sale' else 'rental'} at {listing['address']}"


def schedule_tour(world: World, client: Client, rng: random.Random) -> Draft | None:
    """The earliest window of a day that gives the notice the home needs, for a buyer pre-approved where required."""
    listing = rng.choice(_listings(world, _kind(client), "active"))
    day = rng.choice(_days(world, listing["listing_id"]))
    slots = _open_slots(world, listing["listing_id"], day)
    allowed = [s for s in slots if notice_met(s["start"], listing["occupied"])]
    if not allowed:
        return None
    draft = Draft(world, client, intent="schedule_tour").verify().cite("4.1", "4.2", "3.1")
    draft.goal.append(
        f"You want to tour {_home(listing)} on {day}, at the earliest time the agency can book for you that day."
        " If it cannot be booked, you want to know why."
    )
    _find(draft, listing)
    needs_letter = listing["pre_approval_required"] and client["role"] == "buyer"
    if needs_letter:
        draft.do(act("get_client_profile", client_id=draft.cid))
    draft.do(act("list_showing_slots", listing_id=listing["listing_id"], date=day))
    book = act("book_tour", client_id=draft.cid, slot_id=allowed[0]["slot_id"])
    amount = _valid_pre_approval(client)
    if needs_letter and (amount is None or not covers_for_tour(amount, listing["price"])):
        if _letter_on_device(world, client):
            return None
        draft.trap("4.4: the listing requires a pre-approval the buyer does not hold: nothing is booked", book)
        draft.cite("4.4").say("text", PRE_APPROVAL, "4.4: a sufficient, unexpired pre-approval is needed first")
        return draft
    if slots[0] is not allowed[0]:
        early = act("book_tour", client_id=draft.cid, slot_id=slots[0]["slot_id"])
        notice = "24 hours (occupied)" if listing["occupied"] else "2 hours"
        draft.trap(f"4.3: the day's first window gives less than {notice} of notice: the next allowed one", early)
        draft.cite("4.3")
    return draft.do(book)


def reschedule_tour(world: World, client: Client, rng: random.Random) -> Draft | None:
    """Move a tour to a day's earliest allowed window; a listing no longer active: cancel it instead."""
    tours = [t for t in _of_client(world, "tours", client) if t["status"] == "scheduled"]
    if not tours:
        return None
    tour = rng.choice(tours)
    listing = world["listings"][tour["listing_id"]]
    days = [d for d in _days(world, listing["listing_id"]) if d != tour["start"][:10]]
    candidates = [
        (d, [s for s in _open_slots(world, listing["listing_id"], d) if notice_met(s["start"], listing["occupied"])])
        for d in days
    ]
    candidates = [(d, allowed) for d, allowed in candidates if allowed]
    if not candidates:
        return None
    day, allowed = rng.choice(candidates)
    draft = Draft(world, client, intent="reschedule_tour").verify().cite("5.1", "3.1")
    draft.goal.append(
        f"Your tour of {listing['address']} on {_when(tour['start'])} no longer suits you; you want it moved to"
        f" {day}, at the earliest time the agency can book that day. If it cannot be moved, you want it cancelled"
        " and to know why."
    )
    draft.do(act("get_client_tours", client_id=draft.cid), act("get_listing", listing_id=listing["listing_id"]))
    move = act("reschedule_tour", tour_id=tour["tour_id"], new_slot_id=allowed[0]["slot_id"])
    if listing["status"] != "active":
        draft.trap(f"5.2: the listing is {listing['status'].replace('_', ' ')}: the tour is cancelled", move)
        draft.cite("5.2", "4.1").say("text", NOT_ACTIVE, "5.2: why the tour cannot be moved")
        return draft.do(act("cancel_tour", tour_id=tour["tour_id"]))
    slots = _open_slots(world, listing["listing_id"], day)
    draft.do(act("list_showing_slots", listing_id=listing["listing_id"], date=day))
    if slots[0] is not allowed[0]:
        early = act("reschedule_tour", tour_id=tour["tour_id"], new_slot_id=slots[0]["slot_id"])
        draft.trap("5.1: the day's first window gives too little notice (4.3): the next allowed one", early)
        draft.cite("4.3")
    return draft.do(move)


def listing_costs(world: World, client: Client, rng: random.Random) -> Draft | None:
    """The amount due at lease signing, or a home's monthly carrying cost, said to the cent; the summary emailed."""
    listings = [
        x
        for x in _listings(world, _kind(client), "active", "coming_soon")
        if x["pets_allowed"] or not client["has_pets"]
    ]
    listing = rng.choice(sorted(listings, key=lambda x: x["listing_id"]))
    draft = Draft(world, client, intent="listing_costs").verify().cite("12.1", "12.2", "3.1")
    if listing["kind"] == "rent":
        total = move_in_total(listing["price"], client["has_pets"])
        question = "the total you would pay at lease signing"
        draft.say("amount", _money(total), "12.2: first month, deposit and any pet deposit")
    else:
        total = monthly_carrying(listing["hoa_monthly"], listing["property_tax_annual"])
        question = "its monthly carrying cost besides the mortgage (HOA dues and property tax)"
        draft.say("amount", _money(total), "12.2: HOA dues plus a twelfth of the property tax")
    draft.goal.append(
        f"You are interested in {_home(listing)}. You want to know {question}, in dollars, and you want the"
        " listing's summary sheet emailed to you."
    )
    _find(draft, listing)
    if listing["kind"] == "rent":
        draft.do(act("get_client_profile", client_id=draft.cid))
    return draft.do(act("send_listing_summary", client_id=draft.cid, listing_id=listing["listing_id"]))


def _unsigned(world: World, client: Client, listing: dict[str, Any]) -> list[str]:
    """The listing's disclosures the client has not been sent for signature, by id."""
    sent = {s["document_id"] for s in _of_client(world, "signatures", client)}
    return sorted(
        d["document_id"]
        for d in world["documents"].values()
        if d["listing_id"] == listing["listing_id"] and d["kind"] in DISCLOSURES and d["document_id"] not in sent
    )


def _send_and_sign(draft: Draft, documents: list[str]) -> Draft:
    """Send each disclosure (in either order: the order names the signatures), then the client signs them (9.3)."""
    orders = [documents, list(reversed(documents))] if len(documents) > 1 else [documents]
    draft.step(
        "send every disclosure for signature, in any order (9.3, 9.4)",
        *[[act("send_for_signature", client_id=draft.cid, document_id=d) for d in order] for order in orders],
    )
    draft.sign_in()
    return draft.do(*[act("sign_document", "user", document_id=d) for d in documents])


def submit_offer(world: World, client: Client, rng: random.Random) -> Draft | None:
    """An offer with the minimum earnest money, once the pre-approval covers it and the disclosures are signed."""
    if client["role"] != "buyer":
        return None
    offered = {o["listing_id"] for o in _of_client(world, "offers", client)}
    homes = [x for x in _listings(world, "sale", "active") if x["listing_id"] not in offered]
    listing = rng.choice(sorted(homes, key=lambda x: x["listing_id"]))
    amount = int(round(listing["price"] * rng.uniform(0.93, 1.0), -3))
    draft = Draft(world, client, intent="submit_offer", portal=True).verify().cite("6.1", "6.4", "6.5", "3.1")
    draft.goal.append(
        f"You want to make an offer of {_dollars(amount)} on {_home(listing)}, with the smallest earnest money"
        " deposit the agency accepts. If the offer cannot be made, you want to know why."
    )
    _find(draft, listing)
    draft.do(
        act("get_client_profile", client_id=draft.cid), act("list_listing_documents", listing_id=listing["listing_id"])
    )
    offer = act(
        "submit_offer", client_id=draft.cid, listing_id=listing["listing_id"], amount=amount,
        earnest_money=earnest_money(amount),
    )  # fmt: skip
    letter = _valid_pre_approval(client)
    if letter is None or letter < amount:
        if _letter_on_device(world, client):
            return None
        draft.trap("6.2: the buyer's pre-approval is missing, expired or under the offer: nothing is submitted", offer)
        return draft.cite("6.2").say("text", PRE_APPROVAL, "6.2: the pre-approval does not support the offer")
    draft.do(act("list_client_documents", client_id=draft.cid))
    unsigned = _unsigned(world, client, listing)
    if unsigned:
        _send_and_sign(draft.cite("6.3", "9.3", "9.4"), unsigned)
    return draft.do(offer)


def counter_offer(world: World, client: Client, rng: random.Random) -> Draft | None:
    """Accept a standing counter the pre-approval covers; an expired one: a new offer at its price where allowed."""
    countered = [o for o in _of_client(world, "offers", client) if o["status"] == "countered"]
    if not countered:
        return None
    offer = rng.choice(countered)
    listing = world["listings"][offer["listing_id"]]
    counter = int(offer["counter_amount"])
    draft = Draft(world, client, intent="counter_offer").verify().cite("7.1", "3.1")
    draft.goal.append(
        f"The seller countered your offer on {listing['address']}. You want to accept the counter. If it can no"
        " longer be accepted, you want a new offer made at the counter's price with the smallest earnest money"
        " deposit the agency accepts, and to know why."
    )
    draft.do(act("get_client_offers", client_id=draft.cid), act("get_client_profile", client_id=draft.cid))
    accept = act("accept_counter_offer", offer_id=offer["offer_id"])
    letter = _valid_pre_approval(client)
    covered = letter is not None and letter >= counter
    if not covered and _letter_on_device(world, client):
        return None
    if still_valid(offer["counter_expires"]):
        if not covered:
            draft.trap("7.3: the buyer's pre-approval does not cover the counter: it is not accepted", accept)
            return draft.cite("7.3").say("text", PRE_APPROVAL, "7.3: the pre-approval does not cover the counter")
        return draft.do(accept)
    draft.trap(f"7.2: the counter expired on {offer['counter_expires']}: it cannot be accepted", accept)
    draft.cite("7.2").say("text", "expired|has passed|no longer valid|lapsed", "7.2: the counter has expired")
    if not covered:
        return draft.cite("6.2").say("text", PRE_APPROVAL, "6.2: no new offer: the pre-approval does not cover it")
    new = act(
        "submit_offer", client_id=draft.cid, listing_id=listing["listing_id"], amount=counter,
        earnest_money=earnest_money(counter),
    )  # fmt: skip
    return draft.cite("6.2", "6.4").do(new)


def withdraw_offer(world: World, client: Client, rng: random.Random) -> Draft | None:
    """Withdraw and say the refund; an accepted offer past its inspection deadline goes to a person instead."""
    offers = [o for o in _of_client(world, "offers", client) if o["status"] != "withdrawn"]
    if not offers:
        return None
    offer = rng.choice(offers)
    listing = world["listings"][offer["listing_id"]]
    draft = Draft(world, client, intent="withdraw_offer").verify().cite("3.1")
    draft.goal.append(
        f"You want to withdraw your offer on {listing['address']}, and to know how much of your earnest money comes"
        " back to you. If the agent cannot withdraw it, you accept being put through to someone who can help."
    )
    draft.do(act("get_client_offers", client_id=draft.cid))
    withdraw = act("withdraw_offer", offer_id=offer["offer_id"])
    if offer["status"] == "accepted" and offer["inspection_deadline"] < TODAY:
        draft.trap("8.3: the accepted offer's inspection deadline has passed: a person handles it", withdraw)
        return draft.cite("8.3", "13.1").do(
            act("transfer_to_human_agents", client_id=draft.cid, reason="contract_dispute")
        )
    draft.cite("8.2" if offer["status"] == "accepted" else "8.1")
    draft.say("amount", _money(offer["earnest_money"]), "8.1, 8.2: the earnest money refunded in full")
    return draft.do(withdraw)


def rental_application(world: World, client: Client, rng: random.Random) -> Draft | None:
    """The renter uploads a pay stub, the agent verifies it; the application goes in at three times the rent."""
    stubs = [f for f in world["portals"][client["client_id"]]["files"] if f["kind"] == "pay_stub"]
    if client["role"] != "renter" or not stubs or (client["verified_monthly_income"] or 0) > 0:
        return None
    rentals = [x for x in _listings(world, "rent", "active") if x["pets_allowed"] or not client["has_pets"]]
    listing = rng.choice(sorted(rentals, key=lambda x: x["listing_id"]))
    stub = stubs[0]
    draft = Draft(world, client, intent="rental_application", portal=True).verify().cite("11.1", "11.2", "10.1", "10.2")
    draft.goal.append(
        f"You want to apply to rent {listing['address']}. Your latest pay stub is on your device. If your"
        " application cannot go in, you want to know why."
    )
    _find(draft, listing)
    draft.do(act("get_client_profile", client_id=draft.cid))
    draft.sign_in().do(act("upload_file", "user", file_id=stub["file_id"]))
    draft.do(act("list_client_documents", client_id=draft.cid), act("verify_document", document_id=stub["file_id"]))
    fee = application_fee(client["adults"])
    apply = act("submit_rental_application", client_id=draft.cid, listing_id=listing["listing_id"], application_fee=fee)
    if stub["monthly_income"] < 3 * listing["price"]:
        draft.trap("11.2: the verified income is under three times the rent: no application", apply)
        return draft.say(
            "text", "three times|3 times|3x|3×|triple", "11.2: the income requirement is three times the rent"
        )
    return draft.cite("11.3", "3.1").do(apply)


def pre_approval_update(world: World, client: Client, rng: random.Random) -> Draft | None:
    """The buyer uploads a new letter before calling; the agent verifies it, or rejects it once its expiry has passed.

    The upload comes first, as the client would make it before asking: the letter is there to review (and a
    forbidden verification is possible) as soon as the caller is verified.
    """
    letters = [f for f in world["portals"][client["client_id"]]["files"] if f["kind"] == "pre_approval_letter"]
    if not letters:
        return None
    letter = letters[0]
    draft = Draft(world, client, intent="pre_approval_update", portal=True).cite("10.1", "10.2", "3.1")
    draft.goal.append(
        "Before you start the conversation, sign in to your client portal and upload the new mortgage pre-approval"
        " letter on your device. Then you want the agency to put it on file. If it cannot be accepted, you want to"
        " know why."
    )
    draft.sign_in().do(act("upload_file", "user", file_id=letter["file_id"]))
    draft.verify().do(act("list_client_documents", client_id=draft.cid))
    verify = act("verify_document", document_id=letter["file_id"])
    if not still_valid(letter["expires"]):
        draft.trap(f"10.3: the letter expired on {letter['expires']}: it is rejected, not verified", verify)
        draft.cite("10.3").say("text", "expired|out of date|has passed|no longer valid", "10.3: the letter expired")
        return draft.do(act("reject_document", document_id=letter["file_id"], reason="expired"))
    return draft.do(verify)


def sign_disclosures(world: World, client: Client, rng: random.Random) -> Draft | None:
    """Every disclosure of an active home sent and signed by the buyer; none for a home no longer active."""
    if client["role"] != "buyer":
        return None
    homes = [
        x for x in _listings(world, "sale", "active", "under_contract", "coming_soon") if _unsigned(world, client, x)
    ]
    listing = rng.choice(sorted(homes, key=lambda x: x["listing_id"]))
    unsigned = _unsigned(world, client, listing)
    draft = Draft(world, client, intent="sign_disclosures", portal=True).verify().cite("9.3", "3.1")
    draft.goal.append(
        f"You are thinking of making an offer on {_home(listing)} and want to acknowledge its disclosures now. If"
        " they cannot be sent to you, you want to know why."
    )
    _find(draft, listing)
    draft.do(act("list_listing_documents", listing_id=listing["listing_id"]))
    if listing["status"] != "active":
        send = act("send_for_signature", client_id=draft.cid, document_id=unsigned[0])
        draft.trap(f"9.3: the listing is {listing['status'].replace('_', ' ')}: no disclosure is sent", send)
        return draft.say("text", NOT_ACTIVE, "9.3: why the disclosures cannot be sent")
    return _send_and_sign(draft.cite("9.4"), unsigned)


DOCUMENT_WORDS = {
    "floor_plan": "floor plan",
    "lease_terms": "lease terms",
    "hoa_bylaws": "HOA bylaws",
    "inspection_report": "inspection report",
}


def document_request(world: World, client: Client, rng: random.Random) -> Draft | None:
    """A public document shared; an inspection report only to the buyer whose offer on the home is accepted."""
    accepted = {o["listing_id"] for o in _of_client(world, "offers", client) if o["status"] == "accepted"}
    documents = [
        d
        for d in world["documents"].values()
        if d["kind"] in DOCUMENT_WORDS
        and d["listing_id"] is not None
        and world["listings"][d["listing_id"]]["kind"] == _kind(client)
        and client["client_id"] not in d["shared_with"]
    ]
    reports = [d for d in documents if d["kind"] == "inspection_report"]
    mine = [d for d in reports if d["listing_id"] in accepted]
    pool = mine or (reports if reports and rng.random() < 0.5 else documents)
    document = rng.choice(sorted(pool, key=lambda d: d["document_id"]))
    listing = world["listings"][document["listing_id"]]
    draft = Draft(world, client, intent="document_request").verify().cite("3.1")
    draft.goal.append(
        f"You want the {DOCUMENT_WORDS[document['kind']]} of {_home(listing)} in your client portal. If it cannot be"
        " shared with you, you want to know why."
    )
    draft.do(
        act("search_listings", text=listing["address"]), act("list_listing_documents", listing_id=listing["listing_id"])
    )
    share = act("share_document", client_id=draft.cid, document_id=document["document_id"])
    if document["kind"] != "inspection_report":
        return draft.cite("9.1").do(share)
    draft.cite("9.2").do(act("get_client_offers", client_id=draft.cid))
    if document["listing_id"] in accepted:
        return draft.do(share)
    draft.trap("9.2: the report goes only to a buyer whose offer on the home is accepted", share)
    return draft.say("text", "accepted offer|offer is accepted|offer has been accepted|once an offer", "9.2: why not")


SOLVERS: dict[str, Solver] = {
    f.__name__: f
    for f in (
        schedule_tour,
        reschedule_tour,
        listing_costs,
        submit_offer,
        counter_offer,
        withdraw_offer,
        rental_application,
        pre_approval_update,
        sign_disclosures,
        document_request,
    )
}
"""The reference solver of each intent."""
PER_WORLD = 4
"""Tasks per intent and world: 8 train (w1, w2) and 4 test (w3) per intent."""
TRAPS_PER_WORLD = (2, 1)
"""Of which traps where the world has them: two for every other intent (in :data:`SOLVERS` order), one for the rest;
an intent short of other cases takes more."""
CANDIDATES = 10
"""Drafts of each kind (trap or not) an intent looks at per world, so that it can vary the clauses tested."""


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [t for t in candidates if t not in chosen][: count - len(chosen)]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over ``world``'s clients: traps where the world has them, clauses varied in each kind."""
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        clients = [c for c in world["clients"].values() if c["client_id"].split("-")[1] == tag]
        rng.shuffle(clients)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for client in clients:
            draft = solve(world, client, rng)
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        chosen = _varied(traps, TRAPS_PER_WORLD[index % len(TRAPS_PER_WORLD)])
        chosen += _varied(plain, PER_WORLD - len(chosen))
        chosen += [t for t in traps if t not in chosen][: PER_WORLD - len(chosen)]
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
