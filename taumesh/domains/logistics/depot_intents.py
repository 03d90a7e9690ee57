"""The reference solvers of what depot operators ask: stock counts and incidents, at their own depot only.

As with the clients' intents, each returns every allowed outcome, what must be said, and for a trap the write the
operator asks for and the clause forbidding it; None when two rules would refuse at once.
"""

from __future__ import annotations

import random

from taumesh.domains.factory import World, act
from taumesh.domains.logistics.clock import MAJOR_DAMAGE_VALUE, count_tolerance
from taumesh.domains.logistics.drafts import Draft, Party

OTHER_DEPOT = "another depot|other depot|not at your depot|not held at your depot|your own depot"
RECOUNT = "recount"
HAPPENED = {
    "damage": "was damaged: its box came off a conveyor crushed",
    "delay": "is delayed: it missed its outbound trailer",
    "loss": "is missing: it cannot be found on the floor",
}


def severity(kind: str, declared_value: float, express: bool) -> str:
    """The severity the policy gives an incident (12.3), from the facts alone."""
    if kind == "loss":
        return "critical"
    if kind == "damage":
        return "major" if declared_value >= MAJOR_DAMAGE_VALUE else "minor"
    return "major" if express else "minor"


def stock_count(world: World, operator: Party, rng: random.Random, persona: str) -> Draft | None:
    """Correct the record within tolerance (11.2), else a recount (11.3); only the operator's own depot (11.1)."""
    items = sorted(world["stock"].values(), key=lambda s: s["stock_id"])
    own = [s for s in items if s["depot_id"] == operator["depot_id"]]
    item = rng.choice(own if own and rng.random() < 0.7 else items)
    tolerance = count_tolerance(item["quantity"])
    delta = rng.choice([rng.randint(1, tolerance), rng.randint(tolerance + 1, tolerance + 40)]) * rng.choice([-1, 1])
    counted = item["quantity"] + delta
    elsewhere = item["depot_id"] != operator["depot_id"]
    beyond = abs(delta) > tolerance
    if counted < 0 or (elsewhere and beyond):
        return None
    draft = Draft(world, operator, persona, intent="stock_count").verify().cite("11.1")
    draft.do(act("get_stock_item", stock_id=item["stock_id"]))
    draft.goal.append(
        f"You have just counted the stock item {item['stock_id']} ({item['description']}) and found {counted} units."
        " You want its record corrected to your count. If the desk cannot do that, you want to know why and what"
        " happens instead."
    )
    oid = draft.pid
    adjust = act("adjust_stock", stock_id=item["stock_id"], operator_id=oid, counted_quantity=counted)
    if elsewhere:
        draft.trap("11.1: the item is held at another depot: not the caller's to count", adjust)
        return draft.say("text", OTHER_DEPOT, "11.1: the stock is at another depot")
    if beyond:
        draft.trap(f"11.3: the count is {abs(delta)} units off, beyond the tolerance of {tolerance}: a recount", adjust)
        draft.cite("11.2", "11.3", "1.5").do(act("request_recount", stock_id=item["stock_id"], operator_id=oid))
        return draft.say("text", RECOUNT, "11.3: a recount has been requested")
    return draft.cite("11.2", "1.4").do(adjust)


def log_incident(world: World, operator: Party, rng: random.Random, persona: str) -> Draft | None:
    """Log the incident at the severity the facts give (12.3), only on a shipment at the operator's depot (12.1)."""
    placed = sorted(
        (s for s in world["shipments"].values() if s["current_depot"] is not None), key=lambda s: s["shipment_id"]
    )
    here = [s for s in placed if s["current_depot"] == operator["depot_id"]]
    shipment = rng.choice(here if here and rng.random() < 0.7 else placed)
    kind = rng.choice(sorted(HAPPENED))
    asked = rng.choice(["minor", "major", "critical"])
    due = severity(kind, shipment["declared_value"], shipment["service"] == "express")
    elsewhere = shipment["current_depot"] != operator["depot_id"]
    if elsewhere and asked != due:
        return None
    sid = shipment["shipment_id"]
    draft = Draft(world, operator, persona, intent="log_incident").verify().cite("12.1", "12.2")
    draft.do(act("get_shipment", shipment_id=sid))
    draft.goal.append(
        f"The parcel {sid} {HAPPENED[kind]}. You want an incident logged on it as {asked}. If the rules give it"
        " another severity, you accept theirs. If the desk cannot log it, you want to know why."
    )
    oid = draft.pid
    log = act("log_incident", shipment_id=sid, operator_id=oid, kind=kind, severity=asked)
    if elsewhere:
        draft.trap("12.1: the shipment is not at the caller's depot", log)
        return draft.say("text", OTHER_DEPOT, "12.1: the shipment is at another depot")
    if asked != due:
        draft.trap(f"12.3: a {kind} here is {due}, not {asked}", log).cite("12.3", "1.5")
        log = act("log_incident", shipment_id=sid, operator_id=oid, kind=kind, severity=due)
    return draft.cite("12.3", "1.4").do(log)
