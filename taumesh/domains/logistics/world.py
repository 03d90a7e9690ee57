"""The desk's worlds: depots, clients, operators, shipments, stock and tracking apps, one world per seed.

Every id but the carriers' carries the world's tag. :data:`INVARIANTS` states what an operations system keeps true
(a parcel leaves from its shipper's region and goes to a depot of its consignee's that can store it, a booked carrier
can take it and charged its tariff, past events are dated in the past) and :func:`worlds` checks it on each world.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.logistics.catalogue import (
    CARRIERS,
    COMPANIES,
    DEPOT_SIZES,
    FIRST,
    GOODS,
    LAST,
    REGIONS,
    TOWNS,
)
from taumesh.domains.logistics.clock import (
    MAX_ATTEMPTS,
    MAX_WINDOW_CHANGES,
    TODAY,
    carrier_price,
    days_after,
    is_weekday,
    next_weekday,
)

SEEDS = {"w1": 45_201, "w2": 45_202, "w3": 45_203}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
CLIENTS = 40
"""Clients per world."""
STOCK_ITEMS = 45
STATUS_MIX = {
    "awaiting_pickup": 30,
    "in_transit": 26,
    "at_depot": 20,
    "out_for_delivery": 10,
    "failed_attempt": 14,
    "delivered": 28,
    "cancelled": 4,
}
"""How many shipments of each status a world holds; half of those awaiting pickup are booked already."""

Record = dict[str, Any]


def eligible(carrier: Record, weight_kg: float, hazardous: bool, region: str) -> bool:
    """Whether a carrier may collect a parcel (policy 8.3): its weight, hazardous goods, the origin's region."""
    return (
        carrier["max_kg"] >= weight_kg
        and (carrier["takes_hazardous"] or not hazardous)
        and region in carrier["regions"]
    )


def _depots(tag: str) -> dict[str, Record]:
    depots = {}
    for n, town in enumerate(TOWNS[tag]):
        depot_id = f"dep-{tag}-{n + 1:02d}"
        depots[depot_id] = {
            "depot_id": depot_id,
            "name": f"{town} Depot",
            "city": town,
            "region": REGIONS[n // 3],
            "max_parcel_kg": DEPOT_SIZES[n % 3],
        }
    return depots


def _clients(rng: random.Random, tag: str, offset: int) -> dict[str, Record]:
    clients = {}
    names = rng.sample([(f, last) for f in FIRST for last in LAST], CLIENTS)
    for n, (first, last) in enumerate(names, 1):
        client_id = f"cl-{tag}-{n:03d}"
        clients[client_id] = {
            "client_id": client_id,
            "first_name": first,
            "last_name": last,
            "company": rng.choice(COMPANIES),
            "email": f"{first.lower()}.{last.lower()}{offset + n}@example.net",
            "account_number": f"LX-{offset * 1000 + n * 1000 + rng.randrange(100_000, 999_999) % 1000:06d}",
            "postal_code": f"{rng.randrange(10_000, 99_999)}",
            "region": REGIONS[n % 3],
        }
    return clients


def _apps(rng: random.Random, clients: dict[str, Record]) -> dict[str, Record]:
    return {
        client_id: {
            "client_id": client_id,
            "username": f"{c['first_name'].lower()}{c['last_name'][:3].lower()}{int(client_id[-3:])}",
            "pin": f"{rng.randrange(1000, 9999)}",
            "signed_in": False,
            "inbox": [],
            "safe_place_choices": [],
            "uploaded_photos": [],
        }
        for client_id, c in clients.items()
    }


def _operators(rng: random.Random, tag: str, depots: dict[str, Record]) -> dict[str, Record]:
    operators = {}
    for n, depot_id in enumerate(depots, 1):
        operator_id = f"op-{tag}-{n:02d}"
        operators[operator_id] = {
            "operator_id": operator_id,
            "first_name": rng.choice(FIRST),
            "last_name": rng.choice(LAST),
            "depot_id": depot_id,
            "badge_pin": f"{rng.randrange(1000, 9999)}",
        }
    return operators


def _weekday_after(start: str, rng: random.Random, low: int, high: int) -> str:
    return next_weekday(days_after(start, rng.randint(low, high)))


def _weekday_before(rng: random.Random, low: int, high: int) -> str:
    found = days_after(TODAY, -rng.randint(low, high))
    while not is_weekday(found):
        found = days_after(found, -1)
    return found


def _shipment(rng: random.Random, tag: str, n: int, status: str, booked: bool, world: World) -> Record:
    clients = sorted(world["clients"])
    shipper_id, consignee_id = rng.sample(clients, 2)
    shipper, consignee = world["clients"][shipper_id], world["clients"][consignee_id]
    weight = round(rng.choice([rng.uniform(0.5, 14), rng.uniform(0.5, 28), rng.uniform(10, 65)]), 1)
    hazardous = rng.random() < 0.1
    origin = rng.choice([d for d in world["depots"].values() if d["region"] == shipper["region"]])
    destination = rng.choice(
        [d for d in world["depots"].values() if d["region"] == consignee["region"] and d["max_parcel_kg"] >= weight]
    )
    service = rng.choice(["standard", "standard", "express"])
    carrier: Record | None = None
    if status != "awaiting_pickup" or booked:
        carrier = rng.choice([c for c in CARRIERS.values() if eligible(c, weight, hazardous, origin["region"])])
    price = (
        carrier_price(
            carrier["base_fee"], carrier["per_kg"], carrier["express_surcharge"], weight, service == "express"
        )
        if carrier
        else None
    )
    pickup = _weekday_after(TODAY.isoformat(), rng, 1, 8) if status == "awaiting_pickup" and booked else None
    if status not in ("awaiting_pickup", "cancelled"):
        pickup = _weekday_before(rng, 3, 12) if status != "delivered" else _weekday_before(rng, 30, 40)
    history: list[Record] = []
    failed = 0
    current: str | None = None
    slot = rng.choice(["morning", "afternoon"])
    if status == "delivered":
        window = {"date": _weekday_before(rng, 1, 26), "slot": slot}
    elif status == "failed_attempt":
        failed = rng.choice([1, 1, 2, 2, MAX_ATTEMPTS])
        window = {"date": _weekday_before(rng, 1, 2), "slot": slot}
        current = destination["depot_id"]
    elif status == "out_for_delivery":
        window = {"date": TODAY.isoformat(), "slot": slot}
        current = destination["depot_id"]
    else:
        window = {"date": _weekday_after(TODAY.isoformat(), rng, 2, 6), "slot": slot}
        if status in ("in_transit", "at_depot"):
            current = origin["depot_id"] if status == "in_transit" else destination["depot_id"]
            for _ in range(rng.choice([0, 0, 1, MAX_WINDOW_CHANGES])):
                history.append({"date": _weekday_after(TODAY.isoformat(), rng, 1, 3), "slot": slot})
    return {
        "shipment_id": f"shp-{tag}-{n:04d}",
        "shipper_id": shipper_id,
        "consignee_id": consignee_id,
        "origin_depot": origin["depot_id"],
        "destination_depot": destination["depot_id"],
        "current_depot": current,
        "carrier_id": carrier["carrier_id"] if carrier else None,
        "service": service,
        "weight_kg": weight,
        "declared_value": float(
            rng.choice([rng.randrange(20, 250, 5), rng.randrange(150, 900, 10), rng.randrange(400, 2500, 25)])
        ),
        "hazardous": hazardous,
        "signature_required": rng.random() < 0.3,
        "status": status,
        "price": price,
        "pickup_date": pickup,
        "delivery": window,
        "window_history": history,
        "booking_history": [{"carrier_id": carrier["carrier_id"], "pickup_date": pickup}] if carrier and pickup else [],
        "redirected_to": None,
        "safe_place": None,
        "failed_attempts": failed,
        "charges": [],
    }


def build_world(seed: int, tag: str) -> World:
    """One world: nine depots in three regions, forty clients with their apps, shipments, stock and incidents."""
    rng = random.Random(seed)
    offset = int(tag[1:]) * 100
    world: World = {"carriers": copy.deepcopy(CARRIERS), "depots": _depots(tag)}
    world["clients"] = _clients(rng, tag, offset)
    world["operators"] = _operators(rng, tag, world["depots"])
    statuses = [status for status, count in STATUS_MIX.items() for _ in range(count)]
    rng.shuffle(statuses)
    world["shipments"] = {}
    awaiting = 0
    for n, status in enumerate(statuses, 1):
        booked = status == "awaiting_pickup" and awaiting % 2 == 1
        awaiting += status == "awaiting_pickup"
        shipment = _shipment(rng, tag, n, status, booked, world)
        world["shipments"][shipment["shipment_id"]] = shipment
    world["claims"] = _claims(tag, world)
    world["stock"] = _stock(rng, tag, world)
    world["incidents"] = _incidents(rng, tag, world)
    world["verifications"] = {}
    world["handoffs"] = {}
    world["tracking_apps"] = _apps(rng, world["clients"])
    return world


def _claims(tag: str, world: World) -> dict[str, Record]:
    """Claims already filed on every fifth recently delivered parcel, so that a second claim can be asked for."""
    recent = [s for s in world["shipments"].values() if s["status"] == "delivered"][::5]
    claims = {}
    for n, shipment in enumerate(recent, 1):
        claim_id = f"claim-{tag}-{n:02d}"
        claims[claim_id] = {
            "claim_id": claim_id,
            "shipment_id": shipment["shipment_id"],
            "client_id": shipment["consignee_id"],
            "amount": round(min(shipment["declared_value"], 40.0), 2),
            "photo_reference": f"PH-OLD{n:03d}",
            "filed": days_after(shipment["delivery"]["date"], 1),
        }
    return claims


def _stock(rng: random.Random, tag: str, world: World) -> dict[str, Record]:
    stock = {}
    for n in range(1, STOCK_ITEMS + 1):
        sku, description = rng.choice(GOODS)
        stock_id = f"stk-{tag}-{n:03d}"
        stock[stock_id] = {
            "stock_id": stock_id,
            "depot_id": rng.choice(sorted(world["depots"])),
            "owner_id": rng.choice(sorted(world["clients"])),
            "sku": sku,
            "description": description,
            "quantity": rng.randrange(30, 480),
            "adjustments": [],
            "recount_requested": False,
        }
    return stock


def _incidents(rng: random.Random, tag: str, world: World) -> dict[str, Record]:
    held = [s for s in world["shipments"].values() if s["status"] == "at_depot"][:4]
    incidents = {}
    for n, shipment in enumerate(held, 1):
        depot = shipment["current_depot"]
        operator = next(o for o in world["operators"].values() if o["depot_id"] == depot)
        incident_id = f"inc-{tag}-{n:02d}"
        incidents[incident_id] = {
            "incident_id": incident_id,
            "shipment_id": shipment["shipment_id"],
            "depot_id": depot,
            "operator_id": operator["operator_id"],
            "kind": "delay",
            "severity": "minor",
        }
    return incidents


# The invariants.


def _routed(world: World) -> list[str]:
    problems = []
    for key, s in world["shipments"].items():
        origin, destination = world["depots"][s["origin_depot"]], world["depots"][s["destination_depot"]]
        if s["shipper_id"] == s["consignee_id"]:
            problems.append(f"{key} is shipped to its own shipper")
        if origin["region"] != world["clients"][s["shipper_id"]]["region"]:
            problems.append(f"{key} leaves from outside its shipper's region")
        if destination["region"] != world["clients"][s["consignee_id"]]["region"]:
            problems.append(f"{key} goes to a depot outside its consignee's region")
        if destination["max_parcel_kg"] < s["weight_kg"]:
            problems.append(f"{key} is heavier than its destination depot stores")
    return problems


def _carried(world: World) -> list[str]:
    problems = []
    for key, s in world["shipments"].items():
        if s["carrier_id"] is None:
            if s["status"] != "awaiting_pickup" or s["price"] is not None:
                problems.append(f"{key} has moved or been priced without a carrier")
            continue
        carrier = world["carriers"][s["carrier_id"]]
        region = world["depots"][s["origin_depot"]]["region"]
        if not eligible(carrier, s["weight_kg"], s["hazardous"], region):
            problems.append(f"{key} is booked with a carrier that may not collect it")
        express = s["service"] == "express"
        tariff = carrier_price(
            carrier["base_fee"], carrier["per_kg"], carrier["express_surcharge"], s["weight_kg"], express
        )
        if s["price"] != tariff:
            problems.append(f"{key} price {s['price']} is not the carrier's tariff {tariff}")
    return problems


def _dated(shipment: Record) -> str | None:
    """Past events in the past, planned ones ahead; attempts counted only on a failed delivery."""
    today = TODAY.isoformat()
    status, window = shipment["status"], shipment["delivery"]
    if status in ("delivered", "failed_attempt") and window["date"] >= today:
        return f"a {status} parcel's delivery date {window['date']} is not past"
    if status in ("awaiting_pickup", "in_transit", "at_depot") and window["date"] <= today:
        return f"a planned delivery date {window['date']} is not ahead"
    if (status == "failed_attempt") != (shipment["failed_attempts"] > 0) or shipment["failed_attempts"] > MAX_ATTEMPTS:
        return f"failed attempts {shipment['failed_attempts']} do not fit the status {status}"
    if len(shipment["window_history"]) > MAX_WINDOW_CHANGES:
        return "the window was moved more often than the policy allows"
    return None


def _owned(world: World) -> list[str]:
    problems = [
        f"operator {k} works at no depot" for k, o in world["operators"].items() if o["depot_id"] not in world["depots"]
    ]
    for key, item in world["stock"].items():
        if item["depot_id"] not in world["depots"] or item["owner_id"] not in world["clients"]:
            problems.append(f"stock {key} is at an unknown depot or owned by an unknown client")
    problems += [
        f"claim {k} is on an undelivered parcel"
        for k, c in world["claims"].items()
        if world["shipments"][c["shipment_id"]]["status"] != "delivered"
    ]
    return problems


def _unique(field: str, table: str) -> Invariant:
    def check(world: World) -> list[str]:
        values = [record[field] for record in world[table].values()]
        return [f"{table}.{field} {v!r} is used twice" for v in set(values) if values.count(v) > 1]

    return Invariant(f"{table}' {field} is unique", check)


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table != "carriers"
        for key in records
        if key.split("-")[1] not in SEEDS
    ]


def _apps_match(world: World) -> list[str]:
    return sorted(set(world["clients"]) ^ set(world["tracking_apps"]))


INVARIANTS = (
    Invariant("a parcel leaves its shipper's region for a depot of its consignee's that stores it", _routed),
    Invariant("a booked carrier may collect the parcel and charged its tariff", _carried),
    per_record("shipments", "events are dated on the right side of today", _dated),
    Invariant("operators, stock and claims belong to known depots, clients and delivered parcels", _owned),
    _unique("email", "clients"),
    _unique("account_number", "clients"),
    Invariant("every id carries its world's tag", _tagged),
    Invariant("every client has a tracking app", _apps_match),
)


def worlds(builder: Callable[[int, str], World] = build_world) -> list[SeededWorld]:
    """The domain's worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(builder, SEEDS, INVARIANTS)
