"""The box office's worlds: one per seed, every id tagged with its world, each checked against its invariants.

A world is a region's season: organisers, venues (with their rooms and booked days), events from tomorrow to six weeks
out (one cancelled, one postponed), their ticket classes, attendees with orders, conference sessions, transfers in
flight and each attendee's ticket app. Events sit at set distances from the clock's now so that every window of the
policy (24 hours, 48 hours, 3, 7 and 14 days) has events on both sides of it.
"""

from __future__ import annotations

import random
import string
from datetime import timedelta
from typing import Any

from taumesh.domains.events import vocabulary as words
from taumesh.domains.events.clock import NOW, OFFER_LIFETIME, at, deposit, overlaps
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 43_101, "w2": 43_102, "w3": 43_103}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
ORGANISERS = 6
VENUES = 12
ATTENDEES = 50
EVENT_DAYS = [1, 1, 2, 3, 4, 6, 8, 9, 12, 15, 19, 24, 30, 41]
"""Days from today each event starts: one list per world, so every policy window has events on both sides."""
STARTS = {
    "conference": (9, 0, 8 * 60 + 30),
    "festival": (11, 0, 11 * 60),
    "concert": (19, 30, 180),
    "theatre": (19, 30, 150),
}
"""Start hour, minute and length in minutes, by kind."""
BASE_PRICE = {"concert": (45, 95), "theatre": (35, 80), "festival": (60, 140), "conference": (180, 420)}
CLASSES = {
    "conference": [
        ("Day Pass", 1.0, False, True, False),
        ("Full Pass", 1.8, True, True, True),
        ("Student", 0.4, False, False, False),
    ],
    "other": [
        ("General", 1.0, False, True, False),
        ("Flex", 1.3, True, True, False),
        ("VIP", 2.6, False, False, False),
    ],
}
"""Per kind: name, price factor, refundable, transferable, includes workshops."""
CLASS_SHARES = [0.6, 0.25, 0.15]
SLOTS = [("09:30", "10:45"), ("11:15", "12:30"), ("14:00", "15:15"), ("15:45", "17:00")]
"""Session times of a conference day."""
ROOMS = [("Room A", 120), ("Room B", 60), ("Studio", 25)]
"""Breakout rooms every venue has beside its main hall."""


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    tables: World = {
        name: {}
        for name in (
            "organisers", "venues", "venue_bookings", "events", "ticket_classes", "attendees", "orders", "sessions",
            "transfers", "wallets", "verifications", "refunds", "notices", "handoffs",
        )
    }  # fmt: skip
    _organisers(rng, tables, tag)
    _venues(rng, tables, tag)
    _events(rng, tables, tag)
    _attendees(rng, tables, tag)
    _orders(rng, tables, tag)
    _sessions(rng, tables, tag)
    _offers(rng, tables)
    _holds(rng, tables, tag)
    return tables


def _organisers(rng: random.Random, tables: World, tag: str) -> None:
    for number, company in enumerate(rng.sample(words.COMPANIES, ORGANISERS), 1):
        first, last = rng.choice(words.FIRST_NAMES), rng.choice(words.LAST_NAMES)
        organiser_id = f"org-{tag}-{number:02d}"
        tables["organisers"][organiser_id] = {
            "organiser_id": organiser_id,
            "company": company,
            "contact_first_name": first,
            "contact_last_name": last,
            "email": f"{first[0].lower()}.{last.lower()}@{company.split()[0].lower()}-{tag}.example",
            "passphrase": f"{rng.choice(['amber', 'cobalt', 'juniper', 'saffron', 'slate'])}-{rng.randint(10, 99)}",
        }


def cities(tag: str) -> list[str]:
    """The three cities of world ``tag``'s region (no two worlds share one)."""
    first = 3 * sorted(SEEDS).index(tag)
    return words.CITIES[first : first + 3]


def _venues(rng: random.Random, tables: World, tag: str) -> None:
    region = cities(tag)
    for number, name in enumerate(rng.sample(words.VENUE_NAMES, VENUES), 1):
        capacity = rng.choice([180, 250, 400, 600, 900, 1500, 2500])
        venue_id = f"ven-{tag}-{number:02d}"
        tables["venues"][venue_id] = {
            "venue_id": venue_id,
            "name": name,
            "city": region[(number - 1) % len(region)],
            "capacity": capacity,
            "step_free": rng.random() < 0.6,
            "day_rate": float(capacity * rng.choice([6, 7, 8, 9]) + rng.choice([0, 250, 500])),
            "rooms": [{"name": "Main Hall", "capacity": min(capacity, 400)}]
            + [{"name": room, "capacity": seats} for room, seats in ROOMS],
        }


def _events(rng: random.Random, tables: World, tag: str) -> None:
    kinds = ["conference"] * 4 + ["concert"] * 4 + ["theatre"] * 3 + ["festival"] * 3
    rng.shuffle(kinds)
    later = [i for i, days in enumerate(EVENT_DAYS) if days >= 4]
    cancelled, postponed = rng.sample(later, 2)
    venues = sorted(tables["venues"])
    for index, (days, kind) in enumerate(zip(EVENT_DAYS, kinds, strict=True)):
        hour, minute, length = STARTS[kind]
        start = (NOW + timedelta(days=days)).replace(hour=hour, minute=minute)
        event_id = f"evt-{tag}-{index + 1:02d}"
        venue_id = rng.choice(venues)
        status = "cancelled" if index == cancelled else "postponed" if index == postponed else "scheduled"
        tables["events"][event_id] = {
            "event_id": event_id,
            "title": rng.choice(words.TITLES[kind]),
            "kind": kind,
            "organiser_id": rng.choice(sorted(tables["organisers"])),
            "venue_id": venue_id,
            "start": start.isoformat(timespec="minutes"),
            "end": (start + timedelta(minutes=length)).isoformat(timespec="minutes"),
            "status": status,
        }
        booking_id = f"book-{event_id}"
        tables["venue_bookings"][booking_id] = {
            "booking_id": booking_id,
            "venue_id": venue_id,
            "date": start.date().isoformat(),
            "organiser_id": tables["events"][event_id]["organiser_id"],
            "deposit": 0.0,
            "kind": "event",
        }
        _classes(rng, tables, tables["events"][event_id])


def _classes(rng: random.Random, tables: World, event: dict[str, Any]) -> None:
    capacity = tables["venues"][event["venue_id"]]["capacity"]
    on_sale = capacity - min(rng.choice([0, 0, 37, 64, 118, 145, 260]), capacity // 2)
    low, high = BASE_PRICE[event["kind"]]
    base = rng.randint(low, high)
    templates = CLASSES["conference" if event["kind"] == "conference" else "other"]
    allocations = [int(on_sale * share) for share in CLASS_SHARES]
    allocations[0] += on_sale - sum(allocations)
    for number, ((name, factor, refundable, transferable, workshops), allocation) in enumerate(
        zip(templates, allocations, strict=True), 1
    ):
        class_id = f"cls-{event['event_id'][4:]}-{number}"
        sold = allocation if rng.random() < 0.15 else int(allocation * rng.uniform(0.35, 0.9))
        tables["ticket_classes"][class_id] = {
            "class_id": class_id,
            "event_id": event["event_id"],
            "name": name,
            "price": float(round(base * factor)),
            "allocation": allocation,
            "sold": sold,
            "refundable": refundable,
            "transferable": transferable,
            "includes_workshops": workshops,
        }


def _postcode(rng: random.Random) -> str:
    letters = words.POSTCODE_LETTERS
    outward = f"{rng.choice('PLE')}{rng.choice(letters)}{rng.randint(1, 9)}"
    return f"{outward} {rng.randint(1, 9)}{rng.choice(letters)}{rng.choice(letters)}"


def _attendees(rng: random.Random, tables: World, tag: str) -> None:
    for number in range(1, ATTENDEES + 1):
        first, last = rng.choice(words.FIRST_NAMES), rng.choice(words.LAST_NAMES)
        attendee_id = f"att-{tag}-{number:03d}"
        email = f"{first.lower()}.{last.lower()}{number}@mail-{tag}.example"
        tables["attendees"][attendee_id] = {
            "attendee_id": attendee_id,
            "first_name": first,
            "last_name": last,
            "email": email,
            "postcode": _postcode(rng),
        }
        tables["wallets"][attendee_id] = {
            "attendee_id": attendee_id,
            "account_email": email,
            "notifications": [],
            "tickets": [],
        }


def _reference(rng: random.Random, taken: set[str]) -> str:
    while True:
        reference = "".join(
            rng.choice(string.ascii_uppercase.replace("O", "").replace("I", "") + "23456789") for _ in range(6)
        )
        if reference not in taken:
            taken.add(reference)
            return reference


def _orders(rng: random.Random, tables: World, tag: str) -> None:
    events = sorted(tables["events"])
    references: set[str] = set()
    attendees = sorted(tables["attendees"])
    for attendee_id in attendees:
        for event_id in rng.sample(events, rng.choice([1, 2, 2, 3])):
            classes = sorted(c for c, r in tables["ticket_classes"].items() if r["event_id"] == event_id)
            conference = tables["events"][event_id]["kind"] == "conference"
            class_id = rng.choices(classes, weights=[3, 5, 2] if conference else [5, 3, 2])[0]
            order_id = f"ord-{tag}-{len(tables['orders']) + 1:04d}"
            received = rng.random() < 0.1 and tables["ticket_classes"][class_id]["transferable"]
            refunded = not received and rng.random() < 0.07
            order = {
                "order_id": order_id,
                "reference": _reference(rng, references),
                "attendee_id": attendee_id,
                "event_id": event_id,
                "class_id": class_id,
                "quantity": rng.choice([1, 1, 2, 2, 2, 3, 4]),
                "unit_price": tables["ticket_classes"][class_id]["price"],
                "status": "refunded" if refunded else "active",
                "transfers_made": 1 if received else 0,
                "accessibility": ["step_free_route"] if rng.random() < 0.08 else [],
                "charges": [],
            }
            tables["orders"][order_id] = order
            if received:
                sender = rng.choice([a for a in attendees if a != attendee_id])
                transfer_id = f"trf-{order_id}-1"
                tables["transfers"][transfer_id] = {
                    "transfer_id": transfer_id,
                    "order_id": order_id,
                    "sender_id": sender,
                    "recipient_email": tables["attendees"][attendee_id]["email"],
                    "status": "accepted",
                    "offer_expires": (NOW - timedelta(days=rng.randint(3, 20))).isoformat(timespec="minutes"),
                    "reissues": 0,
                }
            if order["status"] == "active":
                tables["wallets"][attendee_id]["tickets"].append(order["reference"])


def _sessions(rng: random.Random, tables: World, tag: str) -> None:
    for event in (e for e in tables["events"].values() if e["kind"] == "conference"):
        day = event["start"][:10]
        places = rng.sample([(slot, room) for slot in SLOTS for room in ROOMS], 6)
        speakers = rng.sample(words.SPEAKERS, 4)
        titles = rng.sample(words.SESSION_TITLES, 6)
        workshop_orders = sorted(
            o["order_id"]
            for o in tables["orders"].values()
            if o["event_id"] == event["event_id"]
            and o["status"] == "active"
            and tables["ticket_classes"][o["class_id"]]["includes_workshops"]
        )
        for number, (((begin, end), (room, seats)), title) in enumerate(zip(sorted(places), titles, strict=True), 1):
            session_id = f"ses-{event['event_id'][4:]}-{number}"
            tables["sessions"][session_id] = {
                "session_id": session_id,
                "event_id": event["event_id"],
                "title": title,
                "speaker": speakers[(number - 1) % len(speakers)],
                "room": room,
                "start": f"{day}T{begin}",
                "end": f"{day}T{end}",
                "capacity": seats,
                "seats_taken": rng.randint(seats // 3, seats - 8),
                "registered_orders": [],
            }
        for order_id in workshop_orders:
            order = tables["orders"][order_id]
            own = [s for s in tables["sessions"].values() if s["event_id"] == event["event_id"]]
            chosen: list[dict[str, Any]] = []
            wanted = rng.choice([0, 0, 1, 2])
            for session in rng.sample(own, len(own)):
                free = session["capacity"] - session["seats_taken"] >= order["quantity"]
                clash = any(overlaps(session["start"], session["end"], c["start"], c["end"]) for c in chosen)
                if len(chosen) < wanted and free and not clash:
                    chosen.append(session)
                    session["registered_orders"].append(order_id)
                    session["seats_taken"] += order["quantity"]


def _offers(rng: random.Random, tables: World) -> None:
    """Transfers offered to another attendee and not accepted in time: the offer has expired (some reissued once)."""
    candidates = [
        o
        for o in sorted(tables["orders"].values(), key=lambda o: o["order_id"])
        if o["status"] == "active"
        and o["transfers_made"] == 0
        and tables["ticket_classes"][o["class_id"]]["transferable"]
    ]
    for order in rng.sample(candidates, 9):
        recipient = rng.choice([a for a in sorted(tables["attendees"]) if a != order["attendee_id"]])
        transfer_id = f"trf-{order['order_id']}-1"
        expired = NOW - timedelta(hours=rng.randint(2, 60))
        transfer = {
            "transfer_id": transfer_id,
            "order_id": order["order_id"],
            "sender_id": order["attendee_id"],
            "recipient_email": tables["attendees"][recipient]["email"],
            "status": "offered",
            "offer_expires": expired.isoformat(timespec="minutes"),
            "reissues": 1 if rng.random() < 0.35 else 0,
        }
        tables["transfers"][transfer_id] = transfer
        tables["wallets"][recipient]["notifications"].append(
            {
                "kind": "transfer_offer",
                "text": f"Tickets offered to you: transfer {transfer_id}, accept by {transfer['offer_expires']}.",
            }
        )


def _holds(rng: random.Random, tables: World, tag: str) -> None:
    """Days venues are already held by organisers, two to four months out."""
    for venue_id in sorted(tables["venues"]):
        for _ in range(rng.randint(0, 2)):
            date = (NOW + timedelta(days=rng.randint(60, 120))).date().isoformat()
            booking_id = f"hold-{venue_id}-{date}"
            tables["venue_bookings"][booking_id] = {
                "booking_id": booking_id,
                "venue_id": venue_id,
                "date": date,
                "organiser_id": rng.choice(sorted(tables["organisers"])),
                "deposit": deposit(tables["venues"][venue_id]["day_rate"]),
                "kind": "hold",
            }


def _allocation_fits(world: World) -> list[str]:
    problems = []
    for event in world["events"].values():
        allocated = sum(c["allocation"] for c in world["ticket_classes"].values() if c["event_id"] == event["event_id"])
        capacity = world["venues"][event["venue_id"]]["capacity"]
        if allocated > capacity:
            problems.append(f"{event['event_id']} puts {allocated} tickets on sale in a venue of {capacity}")
    return problems


def _rooms_free(world: World) -> list[str]:
    sessions = sorted(world["sessions"].values(), key=lambda s: s["session_id"])
    return [
        f"{one['session_id']} and {two['session_id']} share {one['room']}"
        for i, one in enumerate(sessions)
        for two in sessions[i + 1 :]
        if one["event_id"] == two["event_id"]
        and one["room"] == two["room"]
        and overlaps(one["start"], one["end"], two["start"], two["end"])
    ]


def _session_fits(world: World) -> Any:
    def rule(session: dict[str, Any]) -> str | None:
        event = world["events"][session["event_id"]]
        if not event["start"] <= session["start"] < session["end"] <= event["end"]:
            return "runs outside its event's hours"
        if session["seats_taken"] > session["capacity"]:
            return f"has {session['seats_taken']} seats taken of {session['capacity']}"
        for order_id in session["registered_orders"]:
            order = world["orders"][order_id]
            if (
                order["event_id"] != event["event_id"]
                or not world["ticket_classes"][order["class_id"]]["includes_workshops"]
            ):
                return f"registers {order_id}, whose class has no workshops"
        return None

    return rule


def _session_invariant() -> Invariant:
    def check(world: World) -> list[str]:
        return per_record("sessions", "sessions fit their event and rooms", _session_fits(world)).check(world)

    return Invariant("sessions fit their event, seats and registrations", check)


def _order_invariant() -> Invariant:
    def check(world: World) -> list[str]:
        problems = []
        for order in world["orders"].values():
            ticket_class = world["ticket_classes"][order["class_id"]]
            if ticket_class["event_id"] != order["event_id"] or order["unit_price"] != ticket_class["price"]:
                problems.append(f"orders[{order['order_id']}] does not match its class")
            if order["transfers_made"] and not ticket_class["transferable"]:
                problems.append(f"orders[{order['order_id']}] was transferred in a non-transferable class")
        return problems

    return Invariant("orders are of their event's classes, at the class price", check)


def _offers_open(world: World) -> list[str]:
    problems = []
    for transfer in world["transfers"].values():
        order = world["orders"][transfer["order_id"]]
        if transfer["status"] == "offered" and (
            order["status"] != "active" or order["attendee_id"] != transfer["sender_id"]
        ):
            problems.append(f"transfers[{transfer['transfer_id']}] offers an order its sender no longer holds")
        if transfer["status"] == "offered" and at(transfer["offer_expires"]) - NOW > OFFER_LIFETIME:
            problems.append(f"transfers[{transfer['transfer_id']}] runs longer than an offer lives")
    return problems


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        for key in records
        if not any(part in SEEDS for part in key.split("-"))
    ]


def _regional(world: World) -> list[str]:
    found = {v["city"] for v in world["venues"].values()}
    return [] if len(found) == 3 and any(found == set(cities(tag)) for tag in SEEDS) else [f"venues in {sorted(found)}"]


INVARIANTS = (
    per_record("events", "events start after now", lambda e: None if at(e["start"]) > NOW else "starts in the past"),
    per_record(
        "ticket_classes",
        "no class sells more than it puts on sale",
        lambda c: None if c["sold"] <= c["allocation"] else "oversold",
    ),
    Invariant("an event puts no more tickets on sale than its venue holds", _allocation_fits),
    Invariant("no two sessions share a room at once", _rooms_free),
    _session_invariant(),
    _order_invariant(),
    Invariant("an open offer is of an order its sender holds, for at most 72 hours", _offers_open),
    Invariant("every id carries its world's tag", _tagged),
    Invariant("a world's venues are in its own region's three cities", _regional),
)
