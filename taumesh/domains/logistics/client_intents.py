"""The reference solvers of what shippers and consignees ask: per intent, every outcome the policy allows.

Each solver picks one of the client's shipments, reads it as the agent would, and answers with the factory's parts:
the steps of every allowed outcome, what the agent must say (a fee, a refund, a deadline, why not), and for a trap the
write the client asks for with the clause that forbids it. A solver returns None when two rules would refuse at once:
a task tests one reason. Each intent's instruction is one template for its traps and plain tasks alike.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.logistics.clock import (
    CLAIM_DAYS,
    LATE_CANCEL_SHARE,
    MAX_ATTEMPTS,
    MAX_WINDOW_CHANGES,
    REDELIVERY_FEE_SHARE,
    REDIRECT_FEE_SHARE,
    SAFE_PLACE_VALUE_LIMIT,
    TODAY,
    carrier_price,
    compensation,
    days_after,
    is_weekday,
    money,
    next_weekday,
    photo_reference,
    safe_place_reference,
    share_of,
)
from taumesh.domains.logistics.drafts import Draft, Party
from taumesh.domains.logistics.world import eligible

OUT_FOR_DELIVERY = "out for delivery|on the van|already on its way to you today"
MOVED_TWICE = "twice|two changes|2 changes|two times|already been moved|already been changed"
OTHER_REGION = "region|different area|another area"
TOO_HEAVY = "heavier|too heavy|weight limit|weighs more"
SIGNATURE = "signature"
HIGH_VALUE = "declared value|declared at|worth more than|value is over|value above"
HAZARDOUS = "hazardous|dangerous goods"
CLAIMED = "already|claim exists|on file"
ONLY_SHIPPER = "only the shipper|only the sender|shipper may|sender may|not the shipper|not the sender"
COLLECTED = "collected|picked up|in transit|already left|already on its way"
RETURNED = (
    "returned to the shipper|return to the shipper|back to the shipper|returned to its shipper|back to its shipper"
    "|returned to the sender|back to the sender"
)
PLACES = {
    "front_porch": "on your front porch",
    "back_door": "by your back door",
    "garage": "in your garage",
    "porch_box": "in the parcel box by your porch",
    "building_reception": "with your building's reception",
}
REASONS = {
    "order_cancelled": "your customer cancelled the order",
    "wrong_details": "the address details on it are wrong",
    "duplicate_booking": "you booked it twice by mistake",
}
DAY_FALLBACK = "If that day cannot be given, you take the nearest later day that can."


def _mine(world: World, client: Party, role: str, statuses: tuple[str, ...]) -> list[dict[str, Any]]:
    return sorted(
        (s for s in world["shipments"].values() if s[f"{role}_id"] == client["client_id"] and s["status"] in statuses),
        key=lambda s: s["shipment_id"],
    )


def _start(world: World, client: Party, intent: str, persona: str, shipment_id: str, dual: bool = False) -> Draft:
    draft = Draft(world, client, persona, intent=intent, dual=dual).verify()
    return draft.do(act("get_shipment", shipment_id=shipment_id))


def _one_reason(*reasons: bool) -> bool:
    return sum(reasons) <= 1


def change_delivery_window(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """Move the window (4.1-4.4): not out for delivery, not a third time; a weekend date becomes the Monday."""
    found = _mine(world, client, "consignee", ("in_transit", "at_depot", "out_for_delivery"))
    if not found:
        return None
    shipment = rng.choice(found)
    sid = shipment["shipment_id"]
    asked = days_after(shipment["delivery"]["date"], rng.randint(1, 5))
    slot = rng.choice(["morning", "afternoon"])
    fixed = shipment["status"] == "out_for_delivery"
    used = len(shipment["window_history"]) >= MAX_WINDOW_CHANGES
    weekend = not is_weekday(asked)
    if not _one_reason(fixed, used, weekend):
        return None
    draft = _start(world, client, "change_delivery_window", persona, sid).cite("3.1", "4.1")
    draft.goal.append(
        f"The parcel with tracking number {sid} is coming to you, and you want it delivered on {asked} in the"
        f" {slot} instead. {DAY_FALLBACK} If the delivery cannot be moved at all, you want to know why."
    )
    move = act("change_delivery_window", shipment_id=sid, delivery_date=asked, slot=slot)
    if fixed:
        draft.trap("4.1: the parcel is out for delivery: its window cannot move", move)
        return draft.say("text", OUT_FOR_DELIVERY, "4.1: the parcel is out for delivery")
    if used:
        draft.trap("4.3: the window was moved twice already: no third move", move).cite("4.3")
        return draft.say("text", MOVED_TWICE, "4.3: the window has been moved twice already")
    if weekend:
        draft.trap(f"4.2: {asked} is a weekend day; the Monday after is offered instead", move).cite("4.2", "1.5")
        move = act("change_delivery_window", shipment_id=sid, delivery_date=next_weekday(asked), slot=slot)
    return draft.cite("4.2", "4.3", "4.4", "1.4").do(move)


def redirect_to_depot(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """Hold at a depot for collection (5.1-5.4): same region, a depot that stores the weight, not out for delivery."""
    found = _mine(world, client, "consignee", ("in_transit", "at_depot", "out_for_delivery"))
    if not found:
        return None
    shipment = rng.choice(found)
    sid = shipment["shipment_id"]
    home = world["depots"][shipment["destination_depot"]]
    others = sorted(
        (d for d in world["depots"].values() if d["depot_id"] != home["depot_id"]), key=lambda d: d["depot_id"]
    )
    near = [d for d in others if d["region"] == home["region"]]
    depot = rng.choice(near if rng.random() < 0.6 else others)
    fixed = shipment["status"] == "out_for_delivery"
    away = depot["region"] != home["region"]
    heavy = shipment["weight_kg"] > depot["max_parcel_kg"]
    if not _one_reason(fixed, away, heavy):
        return None
    draft = _start(world, client, "redirect_to_depot", persona, sid).cite("3.1", "5.1")
    draft.do(act("list_depots"))
    draft.goal.append(
        f"The parcel {sid} is on its way to you, but you would rather collect it yourself from the {depot['name']}."
        " You want it held there for you. If that cannot be done, you want to know why. You want to know what it"
        " costs."
    )
    redirect = act("redirect_to_depot", shipment_id=sid, depot_id=depot["depot_id"])
    if fixed:
        draft.trap("5.1: the parcel is out for delivery: no redirect", redirect)
        return draft.say("text", OUT_FOR_DELIVERY, "5.1: the parcel is out for delivery")
    if away:
        draft.trap(f"5.2: the {depot['name']} is in the {depot['region']} region, not the destination's", redirect)
        return draft.cite("5.2").say("text", OTHER_REGION, "5.2: the depot is in another region")
    if heavy:
        draft.trap(f"5.3: the {depot['name']} stores parcels up to {depot['max_parcel_kg']} kg", redirect).cite("5.3")
        return draft.say("text", TOO_HEAVY, "5.3: the parcel is heavier than the depot stores")
    draft.cite("5.2", "5.3", "5.4", "1.4").do(redirect)
    fee = share_of(shipment["price"], REDIRECT_FEE_SHARE)
    return draft.say("amount", money(fee), "5.4: the redirect fee")


def safe_place(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """Record the safe place the consignee chooses in their app (6.1); never for a signature, value or hazard (6.2)."""
    found = _mine(world, client, "consignee", ("in_transit", "at_depot", "out_for_delivery"))
    if not found:
        return None
    shipment = rng.choice(found)
    sid = shipment["shipment_id"]
    place = rng.choice(sorted(PLACES))
    signed = shipment["signature_required"]
    valuable = shipment["declared_value"] > SAFE_PLACE_VALUE_LIMIT
    hazardous = shipment["hazardous"]
    if not _one_reason(signed, valuable, hazardous):
        return None
    draft = _start(world, client, "safe_place", persona, sid, dual=True).cite("3.1", "6.1", "6.2")
    draft.goal.append(
        f"The parcel {sid} is due while you are out, and you would like the driver to leave it {PLACES[place]}."
        " When the agent asks, choose that place for it in your tracking app and read out the reference the app"
        " shows. If it cannot be left, you want to know why."
    )
    record = act("set_safe_place", shipment_id=sid, place=place, authorisation=safe_place_reference(sid, place))
    reason = (
        ("a signature is required", SIGNATURE)
        if signed
        else ("it is declared above 250 dollars", HIGH_VALUE)
        if valuable
        else ("it holds hazardous goods", HAZARDOUS)
        if hazardous
        else None
    )
    if reason is not None:
        draft.trap(f"6.2: the parcel is never left unattended: {reason[0]}", record)
        return draft.say("text", reason[1], f"6.2: {reason[0]}")
    draft.cite("6.3", "1.4").do(act("choose_safe_place", "user", shipment_id=sid, place=place), record)
    return draft


def damage_claim(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """File the claim (7.1, 7.4) within 14 days (7.2), once (7.3); above $1,000 to claims review (7.5)."""
    found = _mine(world, client, "consignee", ("delivered",))
    if not found:
        return None
    shipment = rng.choice(found)
    sid = shipment["shipment_id"]
    carrier = world["carriers"][shipment["carrier_id"]]
    amount = compensation(shipment["declared_value"], carrier["liability_per_kg"], shipment["weight_kg"])
    deadline = days_after(shipment["delivery"]["date"], CLAIM_DAYS)
    late = deadline < TODAY.isoformat()
    claimed = any(c["shipment_id"] == sid for c in world["claims"].values())
    large = amount > 1000
    if not _one_reason(late, claimed, large):
        return None
    draft = _start(world, client, "damage_claim", persona, sid, dual=True).cite("3.1", "7.1")
    draft.do(act("list_carriers"))
    draft.goal.append(
        f"The parcel {sid} reached you damaged, and you want compensation for it. When the agent asks, upload the"
        " photos you took of it in your tracking app and read out the reference the app shows. If the desk cannot"
        " file the claim, you want to know why, and you accept being passed to another team if the agent says that"
        " is the way. You want to know how much you will be paid."
    )
    upload = act("upload_damage_photos", "user", shipment_id=sid)
    claim = act("file_damage_claim", shipment_id=sid, amount=amount, photo_reference=photo_reference(sid))
    if late:
        draft.trap(f"7.2: delivered {shipment['delivery']['date']}; the last day to claim was {deadline}", claim)
        return draft.cite("7.2").say("date", deadline, "7.2: the last day a claim could be filed")
    if claimed:
        draft.trap("7.3: a claim is already on file for this parcel", claim).cite("7.3")
        return draft.say("text", CLAIMED, "7.3: a claim already exists")
    if large:
        draft.trap(f"7.5: the compensation {money(amount)} exceeds 1,000 dollars: claims review", claim)
        return draft.cite("7.4", "7.5", "13.1").do(
            act("transfer_to_human_agents", party_id=draft.pid, team="claims_review")
        )
    draft.cite("7.2", "7.3", "7.4", "1.4").do(upload, claim)
    return draft.say("amount", money(amount), "7.4: the compensation")


def _tariff(carrier: dict[str, Any], shipment: dict[str, Any]) -> float:
    express = shipment["service"] == "express"
    return carrier_price(
        carrier["base_fee"], carrier["per_kg"], carrier["express_surcharge"], shipment["weight_kg"], express
    )


def book_pickup(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """Book the named carrier when it may collect (8.3, 8.4), else the cheapest that may; a weekday date (8.2)."""
    found = [s for s in _mine(world, client, "shipper", ("awaiting_pickup",)) if s["carrier_id"] is None]
    if not found:
        return None
    shipment = rng.choice(found)
    sid = shipment["shipment_id"]
    region = world["depots"][shipment["origin_depot"]]["region"]
    carriers = sorted(world["carriers"].values(), key=lambda c: c["carrier_id"])
    named = rng.choice(carriers)
    asked = days_after(TODAY, rng.randint(1, 9))
    allowed = [c for c in carriers if eligible(c, shipment["weight_kg"], shipment["hazardous"], region)]
    barred = named not in allowed
    weekend = not is_weekday(asked)
    if not allowed or not _one_reason(barred, weekend):
        return None
    draft = _start(world, client, "book_pickup", persona, sid).cite("3.2", "8.1", "8.3")
    draft.do(act("list_carriers"), act("list_depots"))
    draft.goal.append(
        f"You are sending the parcel {sid} and want {named['name']} to collect it on {asked}. If that carrier cannot"
        f" take it, you take the cheapest one that can. {DAY_FALLBACK} You want to know the price."
    )

    def book(carrier_id: str, date: str) -> Any:
        return act("book_pickup", shipment_id=sid, carrier_id=carrier_id, pickup_date=date)

    if weekend:
        draft.trap(f"8.2: {asked} is a weekend day; the Monday after is offered", book(named["carrier_id"], asked))
        draft.cite("8.2", "1.5").do(book(named["carrier_id"], next_weekday(asked)))
        return draft.say("amount", money(_tariff(named, shipment)), "8.5: the price of the booking")
    if barred:
        lowest = min(_tariff(c, shipment) for c in allowed)
        cheapest = [c for c in allowed if _tariff(c, shipment) == lowest]
        draft.trap(
            f"8.3: {named['name']} may not collect this parcel; the cheapest carrier that may is offered",
            book(named["carrier_id"], asked),
        ).cite("8.4", "1.5")
        draft.step(
            "the cheapest carrier that may collect it, any of a tie (8.4)",
            *[[book(c["carrier_id"], asked)] for c in cheapest],
        )
        return draft.say("amount", money(lowest), "8.5: the price of the booking")
    draft.cite("8.2", "8.4", "8.5", "1.4").do(book(named["carrier_id"], asked))
    return draft.say("amount", money(_tariff(named, shipment)), "8.5: the price of the booking")


def cancel_shipment(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """Cancel for the shipper (9.1) before pickup (9.2), refunding the price less a late share (9.3)."""
    found = [
        s
        for role in ("shipper", "consignee")
        for s in _mine(world, client, role, ("awaiting_pickup", "in_transit"))
        if s["price"] is not None
    ]
    if not found:
        return None
    shipment = rng.choice(sorted(found, key=lambda s: s["shipment_id"]))
    sid = shipment["shipment_id"]
    reason = rng.choice(sorted(REASONS))
    consignee = shipment["consignee_id"] == client["client_id"]
    moving = shipment["status"] != "awaiting_pickup"
    if not _one_reason(consignee, moving):
        return None
    draft = _start(world, client, "cancel_shipment", persona, sid).cite("9.1", "9.2")
    draft.goal.append(
        f"You want the shipment {sid} cancelled because {REASONS[reason]}. If it cannot be cancelled, you want to"
        " know why. You want to know how much will be refunded."
    )
    cancel = act("cancel_shipment", shipment_id=sid, reason=reason)
    if consignee:
        draft.trap("9.1: the caller is the consignee; only the shipper may cancel", cancel).cite("3.4")
        return draft.say("text", ONLY_SHIPPER, "9.1, 3.4: only the shipper may cancel")
    if moving:
        draft.trap("9.2: the parcel has been collected: it can no longer be cancelled", cancel)
        return draft.say("text", COLLECTED, "9.2: the carrier has collected it")
    late = shipment["pickup_date"] <= days_after(TODAY, 1)
    refund = round(shipment["price"] - (share_of(shipment["price"], LATE_CANCEL_SHARE) if late else 0.0), 2)
    draft.cite("9.3", "9.4", "1.4").do(cancel)
    return draft.say("amount", money(refund), "9.3: the refund")


def redelivery(world: World, client: Party, rng: random.Random, persona: str) -> Draft | None:
    """Book a redelivery on a weekday (10.2), the second charged (10.3); none after three attempts (10.4)."""
    found = _mine(world, client, "consignee", ("failed_attempt",))
    if not found:
        return None
    shipment = rng.choice(found)
    sid = shipment["shipment_id"]
    asked = days_after(TODAY, rng.randint(1, 5))
    slot = rng.choice(["morning", "afternoon"])
    exhausted = shipment["failed_attempts"] >= MAX_ATTEMPTS
    weekend = not is_weekday(asked)
    if not _one_reason(exhausted, weekend):
        return None
    draft = _start(world, client, "redelivery", persona, sid).cite("3.1", "10.1")
    draft.goal.append(
        f"A delivery of the parcel {sid} failed because nobody was in, and you want it brought again on {asked} in"
        f" the {slot}. {DAY_FALLBACK} If no redelivery can be booked, you want to know why and what happens to the"
        " parcel. You want to know whether it costs anything."
    )
    book = act("schedule_redelivery", shipment_id=sid, delivery_date=asked, slot=slot)
    if exhausted:
        draft.trap("10.4: three attempts have failed: the parcel goes back to its shipper", book).cite("10.4")
        return draft.say("text", RETURNED, "10.4: the parcel is returned to the shipper")
    if weekend:
        draft.trap(f"10.2: {asked} is a weekend day; the Monday after is offered", book).cite("10.2", "1.5")
        book = act("schedule_redelivery", shipment_id=sid, delivery_date=next_weekday(asked), slot=slot)
    draft.cite("10.2", "10.3", "1.4").do(book)
    if shipment["failed_attempts"] >= 2:
        draft.say(
            "amount", money(share_of(shipment["price"], REDELIVERY_FEE_SHARE)), "10.3: the second redelivery's fee"
        )
    return draft
