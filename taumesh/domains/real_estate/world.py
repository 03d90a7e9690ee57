"""The agency's worlds: one per seed, every id tagged by its world, checked against declared invariants.

A world is an office of Larchmont Realty: its agents, homes for sale and for rent with their showing windows and
documents, the buyers and renters it serves with their tours, offers and signed disclosures, and each client's
portal (the files on their own device). :data:`INVARIANTS` states what every world keeps; :func:`worlds` checks it.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.real_estate.clock import NOW, at, earnest_money, tag_of
from taumesh.domains.real_estate.names import FIRST, LAST, LENDERS, NEIGHBORHOODS, PASSWORDS, STREETS

SEEDS = {"w1": 43_101, "w2": 43_202, "w3": 43_303}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
SALE_LISTINGS = 20
RENTAL_LISTINGS = 14
BUYERS = 24
RENTERS = 16
SHOWING_DAYS = [(NOW.date() + timedelta(days=n)).isoformat() for n in range(5)]
"""Today and the next four days."""
SHOWING_TIMES = ["09:00", "10:30", "12:00", "13:30", "15:00", "16:30", "18:00"]
LEAD_PAINT_BEFORE = 1978
"""Homes built before this year carry a lead-based paint disclosure."""


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    world: World = {
        name: {}
        for name in (
            "clients", "agents", "listings", "showings", "tours", "offers", "documents", "signatures",
            "applications", "messages", "handoffs", "verifications", "portals",
        )
    }  # fmt: skip
    _agents(world, tag)
    for number in range(1, SALE_LISTINGS + RENTAL_LISTINGS + 1):
        _listing(rng, world, tag, number, "sale" if number <= SALE_LISTINGS else "rent")
    for number in range(1, BUYERS + RENTERS + 1):
        _client(rng, world, tag, number, "buyer" if number <= BUYERS else "renter")
    _tours(rng, world, tag)
    _offers(rng, world, tag)
    _applications(rng, world, tag)
    return world


def _next(world: World, table: str, prefix: str, tag: str, width: int = 3) -> str:
    return f"{prefix}-{tag}-{len(world[table]) + 1:0{width}d}"


def _agents(world: World, tag: str) -> None:
    for number, (team, first, last) in enumerate(
        [("sales", "Marisol", "Fenwick"), ("sales", "Theo", "Harrowgate"), ("leasing", "Priya", "Stannard"),
         ("leasing", "Callum", "Ordway")],
        1,
    ):  # fmt: skip
        agent_id = f"agt-{tag}-{number:02d}"
        world["agents"][agent_id] = {
            "agent_id": agent_id,
            "name": f"{first} {last}",
            "team": team,
            "phone": f"617-555-{1100 + number + 10 * int(tag[1:])}",
        }


def _team(world: World, team: str) -> list[str]:
    return [a["agent_id"] for a in world["agents"].values() if a["team"] == team]


def _listing(rng: random.Random, world: World, tag: str, number: int, kind: str) -> None:
    listing_id = f"lst-{tag}-{number:03d}"
    street = STREETS[(number * 5 + int(tag[1:]) * 3) % len(STREETS)]
    sale = kind == "sale"
    property_type = rng.choice(
        ["house", "condo", "townhouse"] if sale else ["apartment", "apartment", "house", "condo"]
    )
    price = rng.randrange(340_000, 1_260_000, 5_000) if sale else rng.randrange(1_450, 4_300, 25)
    hoa = float(rng.randrange(180, 640, 5)) if property_type in ("condo", "townhouse") else 0.0
    statuses = ["active"] * 7 + ["under_contract"] * 2 + (["coming_soon"] if sale else ["active"])
    world["listings"][listing_id] = {
        "listing_id": listing_id,
        "address": f"{10 + (number * 37 + int(tag[1:]) * 11) % 880} {street}",
        "neighborhood": rng.choice(NEIGHBORHOODS),
        "kind": kind,
        "property_type": property_type,
        "bedrooms": rng.randint(1, 5),
        "bathrooms": rng.choice([1.0, 1.5, 2.0, 2.5, 3.0]),
        "square_feet": rng.randrange(620, 3_400, 10),
        "year_built": rng.randint(1908, 2022),
        "price": price,
        "hoa_monthly": hoa,
        "property_tax_annual": round(price * rng.uniform(0.009, 0.016), 2) if sale else 0.0,
        "status": rng.choice(statuses),
        "listing_agent_id": rng.choice(_team(world, "sales" if sale else "leasing")),
        "occupied": rng.random() < 0.45,
        "pre_approval_required": sale and (price >= 650_000 or rng.random() < 0.3),
        "pets_allowed": sale or rng.random() < 0.5,
    }
    for day in sorted(rng.sample(SHOWING_DAYS, 3)):
        times = [t for t in SHOWING_TIMES if at(f"{day}T{t}") > NOW]
        for time in sorted(rng.sample(times, min(len(times), rng.randint(2, 3)))):
            slot_id = _next(world, "showings", "slt", tag, 4)
            world["showings"][slot_id] = {
                "slot_id": slot_id,
                "listing_id": listing_id,
                "start": f"{day}T{time}",
                "status": "open",
            }
    _listing_documents(rng, world, tag, world["listings"][listing_id])


def _listing_documents(rng: random.Random, world: World, tag: str, listing: dict[str, Any]) -> None:
    kinds = ["floor_plan"]
    if listing["kind"] == "sale":
        kinds.append("seller_disclosure")
        if listing["year_built"] < LEAD_PAINT_BEFORE:
            kinds.append("lead_paint_disclosure")
        if rng.random() < 0.55:
            kinds.append("inspection_report")
    else:
        kinds.append("lease_terms")
    if listing["hoa_monthly"]:
        kinds.append("hoa_bylaws")
    for kind in kinds:
        document_id = _next(world, "documents", "doc", tag)
        world["documents"][document_id] = _document(
            document_id, kind, f"{kind.replace('_', ' ').capitalize()}, {listing['address']}", listing["listing_id"]
        )


def _document(document_id: str, kind: str, title: str, listing_id: str | None, **upload: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "document_id": document_id,
        "kind": kind,
        "title": title,
        "listing_id": listing_id,
        "client_id": None,
        "status": "on_file",
        "shared_with": [],
        "rejection_reason": None,
        "lender": None,
        "amount": None,
        "expires": None,
        "monthly_income": None,
    }
    record.update(upload)
    return record


def _letter(rng: random.Random, valid: bool) -> dict[str, Any]:
    days = rng.randint(20, 150) if valid else -rng.randint(3, 70)
    return {
        "lender": rng.choice(LENDERS),
        "amount": rng.randrange(320_000, 1_300_000, 10_000),
        "expires": (NOW.date() + timedelta(days=days)).isoformat(),
    }


def _client(rng: random.Random, world: World, tag: str, number: int, role: str) -> None:
    client_id = f"cli-{tag}-{number:03d}"
    first = FIRST[(number * 7 + int(tag[1:]) * 5) % len(FIRST)]
    last = LAST[(number * 11 + int(tag[1:]) * 3) % len(LAST)]
    buyer = role == "buyer"
    pre_approval = None
    if buyer and rng.random() < 0.65:
        letter = _letter(rng, rng.random() < 0.75)
        document_id = _next(world, "documents", "doc", tag)
        world["documents"][document_id] = _document(
            document_id, "pre_approval_letter", f"Pre-approval letter, {letter['lender']}", None,
            client_id=client_id, status="verified", **letter,
        )  # fmt: skip
        pre_approval = {"document_id": document_id, **letter}
    world["clients"][client_id] = {
        "client_id": client_id,
        "first_name": first,
        "last_name": last,
        "email": f"{first[0].lower()}{last.lower()}{number}@{tag}.mailbox.example",
        "phone": f"617-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}",
        "postcode": f"02{rng.randint(100, 199)}",
        "role": role,
        "agent_id": rng.choice(_team(world, "sales" if buyer else "leasing")),
        "adults": rng.randint(1, 2) if buyer else rng.choice([1, 1, 2, 2, 3]),
        "has_pets": rng.random() < 0.35,
        "pre_approval": pre_approval,
        "verified_monthly_income": None if buyer or rng.random() < 0.7 else float(rng.randrange(4_000, 15_000, 50)),
    }
    files = []
    if buyer and rng.random() < 0.7:
        letter = _letter(rng, rng.random() < 0.7)
        files.append({"kind": "pre_approval_letter", "title": f"Pre-approval letter, {letter['lender']}", **letter})
    if not buyer:
        income = float(rng.randrange(3_200, 14_000, 50))
        files.append({"kind": "pay_stub", "title": "Pay stub, last month", "monthly_income": income})
    world["portals"][client_id] = {
        "client_id": client_id,
        "password": f"{rng.choice(PASSWORDS)}{rng.randint(10, 99)}",
        "signed_in": False,
        "files": [
            {
                "file_id": f"upl-{tag}-{number:03d}{index}",
                "uploaded": False,
                **{"lender": None, "amount": None, "expires": None, "monthly_income": None, **file},
            }
            for index, file in enumerate(files, 1)
        ],
    }


def _tours(rng: random.Random, world: World, tag: str) -> None:
    clients = sorted(world["clients"])
    for client_id in rng.sample(clients, 18):
        role = world["clients"][client_id]["role"]
        kind = "sale" if role == "buyer" else "rent"
        slots = [
            s
            for s in world["showings"].values()
            if s["status"] == "open"
            and world["listings"][s["listing_id"]]["kind"] == kind
            and world["listings"][s["listing_id"]]["status"] != "coming_soon"
        ]
        slot = rng.choice(sorted(slots, key=lambda s: s["slot_id"]))
        slot["status"] = "booked"
        tour_id = _next(world, "tours", "tour", tag)
        world["tours"][tour_id] = {
            "tour_id": tour_id,
            "client_id": client_id,
            "listing_id": slot["listing_id"],
            "slot_id": slot["slot_id"],
            "start": slot["start"],
            "status": "scheduled",
        }


def _sign(world: World, tag: str, client_id: str, listing_id: str) -> None:
    for document in list(world["documents"].values()):
        if document["listing_id"] == listing_id and document["kind"] in ("seller_disclosure", "lead_paint_disclosure"):
            signature_id = _next(world, "signatures", "sig", tag)
            world["signatures"][signature_id] = {
                "signature_id": signature_id,
                "document_id": document["document_id"],
                "client_id": client_id,
                "status": "signed",
            }


def _offers(rng: random.Random, world: World, tag: str) -> None:
    buyers = sorted(c for c, r in world["clients"].items() if r["pre_approval"] is not None)
    homes = sorted(k for k, v in world["listings"].items() if v["kind"] == "sale" and v["status"] == "active")
    for client_id in rng.sample(buyers, min(len(buyers), 14)):
        letter = world["clients"][client_id]["pre_approval"]["amount"]
        affordable = [h for h in homes if world["listings"][h]["price"] * 0.93 <= letter] or homes
        listing = world["listings"][rng.choice(affordable)]
        amount = min(round(listing["price"] * rng.uniform(0.93, 1.0), -3), round(letter * 0.96, -3))
        status = rng.choice(["submitted", "countered", "countered", "countered", "accepted", "accepted"])
        offer_id = _next(world, "offers", "ofr", tag)
        counter = int(round(amount * rng.uniform(1.02, 1.06), -3)) if status == "countered" else None
        if counter is not None and rng.random() < 0.3:  # a seller asking more than the buyer is pre-approved for
            counter = max(counter, letter + rng.randrange(5_000, 30_000, 5_000))
        days = rng.choice([-3, -1, 1, 2, 4])
        world["offers"][offer_id] = {
            "offer_id": offer_id,
            "client_id": client_id,
            "listing_id": listing["listing_id"],
            "amount": int(amount),
            "earnest_money": earnest_money(int(amount)) + rng.choice([0, 0, 500, 1000]),
            "status": status,
            "submitted_on": (NOW.date() - timedelta(days=rng.randint(6, 14))).isoformat(),
            "counter_amount": counter,
            "counter_expires": (NOW.date() + timedelta(days=days)).isoformat() if counter else None,
            "inspection_deadline": (NOW.date() + timedelta(days=days)).isoformat() if status == "accepted" else None,
        }
        if status == "accepted":
            listing["status"] = "under_contract"
            homes.remove(listing["listing_id"])
        _sign(world, tag, client_id, listing["listing_id"])


def _applications(rng: random.Random, world: World, tag: str) -> None:
    renters = sorted(c for c, r in world["clients"].items() if r["role"] == "renter")
    rentals = sorted(k for k, v in world["listings"].items() if v["kind"] == "rent")
    for client_id in rng.sample(renters, 4):
        application_id = _next(world, "applications", "app", tag)
        world["applications"][application_id] = {
            "application_id": application_id,
            "client_id": client_id,
            "listing_id": rng.choice(rentals),
            "application_fee": 45.0 * world["clients"][client_id]["adults"],
            "status": "submitted",
        }


def _tagged(world: World) -> list[str]:
    return [f"{table}[{key}]" for table, records in world.items() for key in records if tag_of(key) not in SEEDS]


def _tours_hold_their_windows(world: World) -> list[str]:
    problems = []
    for tour in world["tours"].values():
        slot = world["showings"][tour["slot_id"]]
        if slot["status"] != "booked" or slot["listing_id"] != tour["listing_id"] or slot["start"] != tour["start"]:
            problems.append(f"tour {tour['tour_id']} does not hold its window {slot['slot_id']}")
    return problems


def _offers_fit(world: World) -> list[str]:
    problems = []
    for offer in world["offers"].values():
        listing = world["listings"][offer["listing_id"]]
        if offer["earnest_money"] < earnest_money(offer["amount"]):
            problems.append(f"offer {offer['offer_id']} holds less earnest money than the policy's minimum")
        if offer["amount"] > world["clients"][offer["client_id"]]["pre_approval"]["amount"]:
            problems.append(f"offer {offer['offer_id']} is above its buyer's pre-approval")
        if offer["status"] == "accepted" and listing["status"] != "under_contract":
            problems.append(f"offer {offer['offer_id']} is accepted but its listing is {listing['status']}")
        if offer["counter_amount"] is not None and offer["counter_amount"] <= offer["amount"]:
            problems.append(f"offer {offer['offer_id']} is countered below its own amount")
        if offer["counter_expires"] is not None and offer["counter_expires"] <= offer["submitted_on"]:
            problems.append(f"offer {offer['offer_id']}'s counter expires before the offer was made")
        signed = {
            s["document_id"]
            for s in world["signatures"].values()
            if s["client_id"] == offer["client_id"] and s["status"] == "signed"
        }
        disclosures = {
            d["document_id"]
            for d in world["documents"].values()
            if d["listing_id"] == offer["listing_id"] and d["kind"] == "seller_disclosure"
        }
        if not disclosures <= signed:
            problems.append(f"offer {offer['offer_id']} was made without the seller disclosure acknowledged")
    return problems


def _pre_approval_on_file(client: dict[str, Any]) -> str | None:
    letter = client["pre_approval"]
    if letter is not None and client["role"] != "buyer":
        return "is a renter with a pre-approval"
    return None


INVARIANTS = (
    Invariant("every id carries its world's tag", _tagged),
    per_record("showings", "showing windows are ahead of now", lambda s: None if at(s["start"]) > NOW else "is past"),
    Invariant("a scheduled tour holds its booked window", _tours_hold_their_windows),
    Invariant(
        "offers hold the minimum earnest money and a signed disclosure, within pre-approval, listing and time",
        _offers_fit,
    ),
    per_record("clients", "only buyers hold a pre-approval", _pre_approval_on_file),
    per_record(
        "listings",
        "homes for sale carry their property tax; rentals none",
        lambda home: None if (home["kind"] == "sale") == (home["property_tax_annual"] > 0) else "tax does not fit",
    ),
)
