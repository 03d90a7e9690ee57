"""The hotel group's worlds: two hotels per seed, their rooms, guests, stays, bills, complaints and guests' phones.

Each world is built from one seed and puts its tag in every id it makes (``gst-w1-007``), so that the worlds merge
into one database and the test world's guests are never touched by a train task. :data:`INVARIANTS` states what a
real property system keeps true (a room holds one stay a night, an in-house stay occupies its room, prices follow
the rate plans, a profile keeps no more preferences than its tier allows), and :func:`worlds` checks them on every
world it builds.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.hospitality.agent_tools import PREFERENCES
from taumesh.domains.hospitality.clock import (
    COMPENSATION_POINTS,
    PREFERENCE_LIMIT,
    ROOM_TYPES,
    TIERS,
    TODAY,
    day,
    device_code,
    nights,
    plan_rate,
    stay_points,
)
from taumesh.domains.hospitality.names import CHARGES, COMPLAINTS, FIRST, HOTELS, LAST, ROOM_FAULTS

SEEDS = {"w1": 43_101, "w2": 43_102, "w3": 43_103}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
GUESTS = 48
"""Guests per world."""
FLOORS = range(2, 7)
LAYOUT = ("standard", "standard", "standard", "deluxe", "deluxe", "suite")
"""Room types along a floor: rooms x01-x03 standard, x04-x05 deluxe, x06 a suite."""
BASE_RATES = {"standard": (139, 189), "deluxe": (199, 259), "suite": (329, 429)}
RATE_PLANS: dict[str, dict[str, Any]] = {
    "flex": {
        "plan_id": "flex",
        "name": "Flexible",
        "discount": 0.0,
        "refundable": True,
        "members_only": False,
        "min_days_ahead": 0,
    },
    "member": {
        "plan_id": "member",
        "name": "Member",
        "discount": 0.1,
        "refundable": True,
        "members_only": True,
        "min_days_ahead": 0,
    },
    "advance": {
        "plan_id": "advance",
        "name": "Advance purchase",
        "discount": 0.15,
        "refundable": False,
        "members_only": False,
        "min_days_ahead": 7,
    },
}
"""Shared by every world: the group's rate plans."""


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the rate plans' carries ``tag``."""
    rng = random.Random(seed)
    tables: World = {
        name: {}
        for name in ("hotels", "rooms", "guests", "reservations", "charges", "feedback", "phones", "verifications")
    }
    tables["rate_plans"] = {key: dict(plan) for key, plan in RATE_PLANS.items()}
    tables["handoffs"] = {}
    first_hotel = (int(tag[1:]) - 1) * 2
    for number, (name, city) in enumerate(HOTELS[first_hotel : first_hotel + 2], 1):
        _hotel(rng, tables, tag, number, name, city)
    for number in range(1, GUESTS + 1):
        _guest(rng, tables, tag, number)
    guests = list(tables["guests"])
    for guest_id in guests:
        _stays(rng, tables, tag, guest_id, guests)
    return tables


def _hotel(rng: random.Random, tables: World, tag: str, number: int, name: str, city: str) -> None:
    hotel_id = f"htl-{tag}-{number}"
    rates = {kind: float(rng.randrange(low, high + 1, 5)) for kind, (low, high) in BASE_RATES.items()}
    tables["hotels"][hotel_id] = {"hotel_id": hotel_id, "name": name, "city": city, "base_rates": rates}
    for floor in FLOORS:
        for position, room_type in enumerate(LAYOUT, 1):
            room_number = f"{floor}{position:02d}"
            room_id = f"rm-{tag}-{number}{room_number}"
            tables["rooms"][room_id] = {
                "room_id": room_id,
                "hotel_id": hotel_id,
                "number": room_number,
                "floor": floor,
                "room_type": room_type,
                "housekeeping": "dirty" if rng.random() < 0.2 else "clean",
                "open_issue": rng.choice(ROOM_FAULTS) if rng.random() < 0.08 else None,
                "occupied_by": None,
            }


def _guest(rng: random.Random, tables: World, tag: str, number: int) -> None:
    guest_id = f"gst-{tag}-{number:03d}"
    first, last = rng.choice(FIRST), rng.choice(LAST)
    tier = rng.choices(TIERS, weights=[35, 25, 25, 15])[0]
    tables["guests"][guest_id] = {
        "guest_id": guest_id,
        "first_name": first,
        "last_name": last,
        "email": f"{first.lower()}.{last.lower()}.{tag}{number}@example.com",
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}",
        "postal_code": f"{rng.randint(10000, 99899):05d}",
        "card_last_four": f"{rng.randint(0, 9999):04d}",
        "loyalty_tier": tier,
        "member_number": f"HM{rng.randint(10**7, 10**8 - 1)}",
        "points": rng.randrange(0, 60000, 50),
        "preferences": sorted(rng.sample(PREFERENCES, rng.randint(0, PREFERENCE_LIMIT[tier] // 2))),
        "revision": 1,
    }
    tables["phones"][guest_id] = {
        "guest_id": guest_id,
        "app_pin": f"{tag[1:]}{number:02d}{rng.randint(100, 999)}",
        "device_code": device_code(guest_id),
        "signed_in": False,
        "inbox": [],
        "keys": [],
    }


def _next(tables: World, table: str, prefix: str, tag: str) -> str:
    return f"{prefix}-{tag}-{len(tables[table]) + 1:04d}"


def _free_room(rng: random.Random, tables: World, hotel_id: str, room_type: str, start: str, end: str) -> str | None:
    """A room of the type no stay holds on any night from ``start`` to ``end``."""
    taken = {
        r["room_id"]
        for r in tables["reservations"].values()
        if r["room_id"] and r["status"] != "cancelled" and r["check_in"] < end and start < r["check_out"]
    }
    rooms = [
        r["room_id"]
        for r in tables["rooms"].values()
        if r["hotel_id"] == hotel_id and r["room_type"] == room_type and r["room_id"] not in taken
    ]
    return rng.choice(sorted(rooms)) if rooms else None


def _stay(
    rng: random.Random, tables: World, tag: str, guest_id: str, start: str, end: str, status: str, assign: bool
) -> dict[str, Any] | None:
    hotel_id = rng.choice(sorted(tables["hotels"]))
    room_type = rng.choices(ROOM_TYPES, weights=[50, 35, 15])[0]
    room_id = _free_room(rng, tables, hotel_id, room_type, start, end) if assign else None
    if assign and room_id is None:
        return None
    plan = rng.choices(list(RATE_PLANS), weights=[45, 30, 25])[0]
    reservation_id = _next(tables, "reservations", "res", tag)
    reservation = {
        "reservation_id": reservation_id,
        "guest_id": guest_id,
        "hotel_id": hotel_id,
        "room_type": room_type,
        "room_id": room_id,
        "check_in": start,
        "check_out": end,
        "nightly_rate": plan_rate(tables["hotels"][hotel_id]["base_rates"][room_type], RATE_PLANS[plan]["discount"]),
        "rate_plan": plan,
        "channel": "third_party" if rng.random() < 0.18 else "direct",
        "status": status,
        "cancellation_fee": None,
        "checkout_time": "11:00",
        "late_checkout_fee": 0.0,
        "points_earned": None,
        "digital_key": False,
        "revision": 1,
    }
    tables["reservations"][reservation_id] = reservation
    return reservation


def _days(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


def _stays(rng: random.Random, tables: World, tag: str, guest_id: str, guests: list[str]) -> None:
    """A guest's past, current and coming stays, with their bills and complaints."""
    if rng.random() < 0.75:
        end = rng.randint(-150, -2)
        past = _stay(rng, tables, tag, guest_id, _days(end - rng.randint(1, 5)), _days(end), "checked_out", True)
        if past is not None:
            _settle(rng, tables, past)
    if rng.random() < 0.4:
        start, end = -rng.randint(0, 3), rng.randint(1, 4)
        here = _stay(rng, tables, tag, guest_id, _days(start), _days(end), "checked_in", True)
        if here is not None:
            _check_in(rng, tables, tag, here, guests)
    if rng.random() < 0.6:
        start = rng.choice([1, 2]) if rng.random() < 0.3 else rng.randint(3, 45)
        _stay(rng, tables, tag, guest_id, _days(start), _days(start + rng.randint(1, 4)), "booked", False)


def _settle(rng: random.Random, tables: World, stay: dict[str, Any]) -> None:
    """A completed stay: its points (if credited yet), its bill and perhaps a complaint."""
    tier = tables["guests"][stay["guest_id"]]["loyalty_tier"]
    if stay["channel"] == "direct" and rng.random() < 0.6:
        stay["points_earned"] = stay_points(stay["nightly_rate"], nights(stay["check_in"], stay["check_out"]), tier)
    _charges(rng, tables, stay, stay["check_out"])
    if rng.random() < 0.45:
        _complaint(rng, tables, stay, tier)


def _check_in(rng: random.Random, tables: World, tag: str, stay: dict[str, Any], guests: list[str]) -> None:
    """An in-house stay: it occupies its room; the room may have a fault and a next arrival on the departure day."""
    room = tables["rooms"][stay["room_id"]]
    room["occupied_by"] = stay["reservation_id"]
    room["housekeeping"] = "clean"
    room["open_issue"] = rng.choice(ROOM_FAULTS) if rng.random() < 0.4 else None
    if rng.random() < 0.25:
        stay["digital_key"] = True
        key = {"reservation_id": stay["reservation_id"], "room_number": room["number"], "status": "active"}
        tables["phones"][stay["guest_id"]]["keys"].append(key)
    _charges(rng, tables, stay, TODAY.isoformat())
    if rng.random() < 0.2:
        _complaint(rng, tables, stay, tables["guests"][stay["guest_id"]]["loyalty_tier"])
    if rng.random() < 0.4:
        other = rng.choice([g for g in guests if g != stay["guest_id"]])
        end = (day(stay["check_out"]) + timedelta(days=rng.randint(1, 3))).isoformat()
        arrival = _stay(rng, tables, tag, other, stay["check_out"], end, "booked", False)
        if arrival is not None:
            base = tables["hotels"][stay["hotel_id"]]["base_rates"][stay["room_type"]]
            arrival.update(
                hotel_id=stay["hotel_id"],
                room_type=stay["room_type"],
                room_id=stay["room_id"],
                nightly_rate=plan_rate(base, RATE_PLANS[arrival["rate_plan"]]["discount"]),
            )


def _charges(rng: random.Random, tables: World, stay: dict[str, Any], last: str) -> None:
    span = max((day(last) - day(stay["check_in"])).days, 0)
    for _ in range(rng.randint(1, 4)):
        category = rng.choice(sorted(CHARGES))
        descriptions, low, high = CHARGES[category]
        charge_id = _next(tables, "charges", "chg", stay["reservation_id"].split("-")[1])
        tables["charges"][charge_id] = {
            "charge_id": charge_id,
            "reservation_id": stay["reservation_id"],
            "description": rng.choice(descriptions),
            "category": category,
            "amount": round(rng.uniform(low, high), 2) if low != high else float(low),
            "posted": (day(stay["check_in"]) + timedelta(days=rng.randint(0, span))).isoformat(),
            "status": "reversed" if rng.random() < 0.08 else "posted",
        }


def _complaint(rng: random.Random, tables: World, stay: dict[str, Any], tier: str) -> None:
    severity = rng.choices(["minor", "major", "safety"], weights=[50, 35, 15])[0]
    feedback_id = _next(tables, "feedback", "fb", stay["reservation_id"].split("-")[1])
    resolved = severity != "safety" and rng.random() < 0.25
    kind = None if not resolved else "points" if severity == "minor" else "night_credit"
    amount = None if not resolved else COMPENSATION_POINTS[tier] if severity == "minor" else stay["nightly_rate"]
    last = min(day(stay["check_out"]), TODAY)
    span = max((last - day(stay["check_in"])).days, 0)
    tables["feedback"][feedback_id] = {
        "feedback_id": feedback_id,
        "guest_id": stay["guest_id"],
        "reservation_id": stay["reservation_id"],
        "topic": rng.choice(COMPLAINTS[severity]),
        "severity": severity,
        "logged": (day(stay["check_in"]) + timedelta(days=rng.randint(0, span))).isoformat(),
        "status": "resolved" if resolved else "open",
        "compensation_kind": kind,
        "compensation_amount": None if amount is None else float(amount),
        "revision": 1,
    }


def _one_stay_a_night(world: World) -> list[str]:
    by_room: dict[str, list[dict[str, Any]]] = {}
    for stay in world["reservations"].values():
        if stay["room_id"] and stay["status"] != "cancelled":
            by_room.setdefault(stay["room_id"], []).append(stay)
    problems = []
    for room_id, stays in by_room.items():
        stays.sort(key=lambda s: s["check_in"])
        for before, after in itertools.pairwise(stays):
            if after["check_in"] < before["check_out"]:
                problems.append(f"room {room_id} holds {before['reservation_id']} and {after['reservation_id']}")
    return problems


def _occupancy_matches(world: World) -> list[str]:
    problems = []
    for room in world["rooms"].values():
        holder = world["reservations"].get(room["occupied_by"] or "")
        if room["occupied_by"] and (holder is None or holder["status"] != "checked_in"):
            problems.append(f"room {room['room_id']} is occupied by a stay that is not in house")
    for stay in world["reservations"].values():
        if stay["status"] == "checked_in" and world["rooms"][stay["room_id"]]["occupied_by"] != stay["reservation_id"]:
            problems.append(f"in-house stay {stay['reservation_id']} does not occupy its room")
    return problems


def _dates_fit(stay: dict[str, Any]) -> str | None:
    today = TODAY.isoformat()
    fits = {
        "checked_out": stay["check_out"] < today,
        "checked_in": stay["check_in"] <= today < stay["check_out"],
        "booked": stay["check_in"] > today,
    }
    ordered = stay["check_in"] < stay["check_out"]
    return None if fits.get(stay["status"], True) and ordered else "has dates its status denies"


def _priced_by_plan(world: World) -> list[str]:
    def price(stay: dict[str, Any]) -> float:
        base = world["hotels"][stay["hotel_id"]]["base_rates"][stay["room_type"]]
        return plan_rate(base, RATE_PLANS[stay["rate_plan"]]["discount"])

    return [
        f"reservation {key} costs {stay['nightly_rate']} a night, not its plan's price"
        for key, stay in world["reservations"].items()
        if stay["nightly_rate"] != price(stay)
    ]


def _charges_in_stay(world: World) -> list[str]:
    problems = []
    for charge in world["charges"].values():
        stay = world["reservations"][charge["reservation_id"]]
        if not stay["check_in"] <= charge["posted"] <= min(stay["check_out"], TODAY.isoformat()):
            problems.append(f"charge {charge['charge_id']} is posted outside its stay")
    return problems


INVARIANTS = (
    Invariant("a room holds one stay a night", _one_stay_a_night),
    Invariant("occupied rooms and in-house stays match", _occupancy_matches),
    per_record("reservations", "dates fit the status (past stays ended, coming ones ahead)", _dates_fit),
    Invariant("every stay is priced by its rate plan", _priced_by_plan),
    Invariant("charges are posted during their stay and not in the future", _charges_in_stay),
    per_record(
        "guests",
        "a profile keeps no more preferences than its tier allows",
        lambda g: None if len(g["preferences"]) <= PREFERENCE_LIMIT[g["loyalty_tier"]] else "holds too many",
    ),
    per_record(
        "phones", "app PINs are six digits", lambda p: None if len(p["app_pin"]) == 6 else f"PIN {p['app_pin']}"
    ),
    Invariant(
        "no two phones share a device code",
        lambda world: [
            f"device code {code} is on two phones"
            for code, count in Counter(p["device_code"] for p in world["phones"].values()).items()
            if count > 1
        ],
    ),
    Invariant(
        "every id carries its world's tag",
        lambda world: [
            f"{table}[{key}]"
            for table, records in world.items()
            if table != "rate_plans"
            for key in records
            if key.split("-")[1] not in SEEDS
        ],
    ),
)
