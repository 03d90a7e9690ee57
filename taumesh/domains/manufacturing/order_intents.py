"""The reference solvers of a buyer's work-order intents: quantity changes, rush priority and cancellations.

A buyer names their order by its number; the solver reads the caller's contact (their company) and the order, as
the agent must to know the order is theirs (2.3).
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.manufacturing.catalogue import CANCEL_STORIES
from taumesh.domains.manufacturing.clock import (
    RUSH_SLOTS,
    cancellation_fee,
    expedite_fee,
    money,
    quantity_limits,
)
from taumesh.domains.manufacturing.drafts import Contact, Draft

IN_PRODUCTION = "in production|already started|production has started|in_production"
SLOTS_TAKEN = "rush slot|two rush|2 rush|maximum of two|rush orders already|no rush capacity"
COMPLETED = "completed"


def _orders(world: World, contact: Contact, statuses: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        o
        for _, o in sorted(world["work_orders"].items())
        if o["customer_id"] == contact["customer_id"] and o["status"] in statuses
    ]


def _value(world: World, order: dict[str, Any]) -> float:
    return float(order["quantity"] * world["parts"][order["part_id"]]["unit_price"])


def _start(world: World, contact: Contact, intent: str, persona: str, order: dict[str, Any]) -> Draft:
    draft = Draft(world, contact, persona, intent=intent).verify()
    read = act("get_work_order", work_order_id=order["work_order_id"])
    return draft.do(act("get_contact", contact_id=draft.cid), read)


def change_quantity(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """The quantity asked within 25 % (5.2), else the closest allowed (5.3); none once in production (5.1)."""
    orders = _orders(world, contact, ("planned", "in_production"))
    if not orders:
        return None
    order = rng.choice(orders)
    current = order["quantity"]
    asked = int(round(current * rng.choice([0.6, 0.8, 0.9, 1.1, 1.2, 1.4, 1.5]) / 10) * 10)
    low, high = quantity_limits(current)
    allowed = min(max(asked, low), high)
    if order["status"] == "in_production" and (allowed != asked or asked < order["quantity_done"]):
        return None  # two reasons at once, or a change below the units made: a task tests one reason
    draft = _start(world, contact, "change_quantity", persona, order).cite("5.1")
    draft.goal.append(
        f"You want the quantity of work order {order['work_order_id']} changed from {current} to {asked} units. If"
        " that quantity is not allowed, you take the closest quantity that is. If no change is possible, you want"
        " to know why."
    )
    asked_change = act("change_order_quantity", work_order_id=order["work_order_id"], new_quantity=asked)
    if order["status"] == "in_production":
        draft.trap(f"5.1: {order['work_order_id']} is in production: its quantity is fixed", asked_change)
        return draft.say("text", IN_PRODUCTION, "5.1: the order is already in production")
    if allowed != asked:
        draft.trap(f"5.3: {asked} is outside 25 % of {current}; {allowed} is the closest allowed", asked_change)
        draft.cite("5.3")
    change = act("change_order_quantity", work_order_id=order["work_order_id"], new_quantity=allowed)
    return draft.cite("5.2", "5.4", "1.4").do(change)


def expedite_order(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Rush priority and its fee (6.3), unless the order's line already carries two rush orders (6.2)."""
    orders = [o for o in _orders(world, contact, ("planned", "in_production")) if o["priority"] == "standard"]
    if not orders:
        return None
    order = rng.choice(orders)
    rush = [
        o
        for o in world["work_orders"].values()
        if o["line_id"] == order["line_id"] and o["priority"] == "rush" and o["status"] in ("planned", "in_production")
    ]
    draft = _start(world, contact, "expedite_order", persona, order).cite("6.1")
    draft.do(act("list_line_orders", line_id=order["line_id"]))
    draft.goal.append(
        f"Your company needs the parts of work order {order['work_order_id']} sooner, and you want the order given"
        " rush priority. You want to know what rushing it costs. If it cannot be rushed, you want to know why."
    )
    set_rush = act("set_order_priority", work_order_id=order["work_order_id"], priority="rush")
    if len(rush) >= RUSH_SLOTS:
        draft.trap(f"6.2: line {order['line_id']} already carries two rush orders", set_rush).cite("6.2")
        return draft.say("text", SLOTS_TAKEN, "6.2: the line's two rush slots are taken")
    fee = expedite_fee(_value(world, order))
    draft.cite("6.2", "6.3", "1.4").do(set_rush)
    return draft.say("amount", money(fee), "6.3: the expedite fee")


def cancel_order(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Cancel for the buyer's reason (7.1), with the fee when in production (7.2); never a completed order (7.3)."""
    orders = _orders(world, contact, ("planned", "in_production", "completed"))
    if not orders:
        return None
    order = rng.choice(orders)
    reason = rng.choice(sorted(CANCEL_STORIES))
    draft = _start(world, contact, "cancel_order", persona, order).cite("7.1")
    draft.goal.append(
        f"You want work order {order['work_order_id']} cancelled: {CANCEL_STORIES[reason]}. If there is a charge,"
        " you want to know it. If it cannot be cancelled, you want to know why."
    )
    cancel = act("cancel_work_order", work_order_id=order["work_order_id"], reason=reason)
    if order["status"] == "completed":
        draft.trap(f"7.3: {order['work_order_id']} is completed: it cannot be cancelled", cancel).cite("7.3")
        return draft.say("text", COMPLETED, "7.3: the order is already completed")
    draft.cite("1.4").do(cancel)
    if order["status"] == "in_production":
        draft.cite("7.2").say("amount", money(cancellation_fee(_value(world, order))), "7.2: the cancellation fee")
    return draft
