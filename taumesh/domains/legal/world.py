"""The firm's worlds: one per seed, every id tagged with its world, invariants checked as each is built.

A world is one office of Larkspur & Vane: its lawyers, clients and their contacts, matters at every stage (intake,
open, closed) with their conflict checks, engagement letters, deadlines and documents. The templates and the research
corpus are the firm's, the same in every world (:data:`SHARED`). World w3 is the test split's; w1 and w2 train's.
"""

from __future__ import annotations

import random
from datetime import timedelta
from itertools import product
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.legal import names
from taumesh.domains.legal.clock import (
    COURT_SET,
    FEE_BASES,
    INTERNAL,
    NO_CONTINGENCY,
    TODAY,
    day,
    fixed_fee_offered,
    latest_slip,
    next_working_day,
    retainer,
)
from taumesh.domains.legal.corpus import authorities, templates

SEEDS = {"w1": 4401, "w2": 4402, "w3": 4403}
TEST_WORLDS = frozenset({"w3"})
SHARED = ("templates", "authorities")
"""Reference tables every world holds alike; no tool writes them."""
PEOPLE_PER_WORLD = 120
ORGANISATIONS_PER_WORLD = 6
INDIVIDUALS_PER_WORLD = 10
STAGES = ("intake",) * 8 + ("closed",) * 3
"""The first matters of a shuffled world are at intake, the next closed; the rest are open."""
DOCUMENTS = {
    "attorney_client": ("Advice letter to client", "Email advice on settlement options", "Note of client meeting"),
    "work_product": ("Case analysis memo", "Counsel's draft opinion", "Litigation risk assessment"),
    "none": ("Signed contract bundle", "Letter from the other side", "Invoice schedule", "Photographs of the site"),
}

Record = dict[str, Any]


def _people(tag: str) -> list[tuple[str, str]]:
    """The world's own (first, last) names: a slice of every pair, so that no name is in two worlds."""
    pairs = list(product(names.FIRST_NAMES, names.LAST_NAMES))
    random.Random(44).shuffle(pairs)
    start = (int(tag[1:]) - 1) * PEOPLE_PER_WORLD
    return pairs[start : start + PEOPLE_PER_WORLD]


def _organisations(tag: str) -> list[str]:
    start = (int(tag[1:]) - 1) * ORGANISATIONS_PER_WORLD
    return list(names.ORGANISATIONS[start : start + ORGANISATIONS_PER_WORLD])


def _attorneys(rng: random.Random, tag: str, people: list[tuple[str, str]]) -> dict[str, Record]:
    roles = ["partner"] * 4 + ["senior_associate"] * 3 + ["associate"] * 5
    rates = {"partner": (450, 650), "senior_associate": (300, 400), "associate": (190, 280)}
    table = {}
    for number, role in enumerate(roles, 1):
        first, last = people.pop()
        attorney_id = f"att-{tag}-{number:02d}"
        low, high = rates[role]
        table[attorney_id] = {
            "attorney_id": attorney_id,
            "first_name": first,
            "last_name": last,
            "email": f"{first}.{last}@larkspurvane.law".lower(),
            "bar_number": f"{rng.choice(['EV', 'WM'])}{rng.randint(100000, 999999)}",
            "role": role,
            "practice_group": rng.choice((*names.INDIVIDUAL_AREAS, "commercial")),
            "hourly_rate": rng.randrange(low, high + 1, 10),
            "status": "departed" if number == len(roles) else "active",
            "screened_parties": [],
        }
    return table


POSTCODE_LETTERS = "ABDEHJLNPQRTUWXY"


def _postcode(rng: random.Random) -> str:
    """A postcode of one of the two cities' districts (``EV4 7QT``)."""
    letters = "".join(rng.choice(POSTCODE_LETTERS) for _ in range(2))
    return f"{rng.choice(names.POSTCODE_AREAS)} {rng.randint(1, 9)}{letters}"


def _clients(
    rng: random.Random, tag: str, people: list[tuple[str, str]]
) -> tuple[dict[str, Record], dict[str, Record]]:
    clients: dict[str, Record] = {}
    contacts: dict[str, Record] = {}
    entities = [(name, "organisation") for name in _organisations(tag)]
    for _ in range(INDIVIDUALS_PER_WORLD):
        first, last = people.pop()
        entities.append((f"{first} {last}", "individual"))
    rng.shuffle(entities)
    for number, (name, kind) in enumerate(entities, 1):
        client_id = f"cli-{tag}-{number:02d}"
        clients[client_id] = {
            "client_id": client_id,
            "name": name,
            "kind": kind,
            "client_number": f"LV-{rng.randint(10000, 99999)}",
        }
        if kind == "individual":
            speakers = [tuple(name.split(" ", 1))]
            domain = "mailbox.example"
        else:
            speakers = [people.pop() for _ in range(rng.choice((2, 3)))]
            domain = name.split()[0].lower() + ".example"
        signatory = rng.randrange(len(speakers))
        for index, (first, last) in enumerate(speakers):
            contact_id = f"con-{tag}-{len(contacts) + 1:03d}"
            contacts[contact_id] = {
                "contact_id": contact_id,
                "client_id": client_id,
                "first_name": first,
                "last_name": last,
                "email": f"{first}.{last}@{domain}".lower(),
                "postcode": _postcode(rng),
                "signatory": index == signatory,
            }
    return clients, contacts


def _add(table: dict[str, Record], prefix: str, tag: str, record: Record, key: str) -> str:
    record_id = f"{prefix}-{tag}-{len(table) + 1:03d}"
    table[record_id] = {key: record_id, **record}
    return record_id


def _deadlines(rng: random.Random, tag: str, world: World, matter: Record, settled: bool) -> None:
    """A court-set date and two of the firm's own; all met when the matter is ready to close (or closed)."""
    kinds = [rng.choice(sorted(COURT_SET)), *rng.sample(INTERNAL, 2)]
    for kind in kinds:
        moves: list[str] = []
        if settled:
            due = next_working_day(TODAY - timedelta(days=rng.randint(10, 90)))
            original, status = due, "met"
        else:
            original = next_working_day(TODAY + timedelta(days=rng.randint(6, 45)))
            due, status = original, "open"
            if kind in INTERNAL and rng.random() < 0.35:
                due = next_working_day(original + timedelta(days=rng.randint(2, 6)))
                moves = [original.isoformat()]
        record = {
            "matter_id": matter["matter_id"],
            "kind": kind,
            "description": kind.replace("_", " "),
            "due_on": due.isoformat(),
            "original_due_on": original.isoformat(),
            "status": status,
            "moves": moves,
        }
        _add(world["deadlines"], "ddl", tag, record, "deadline_id")


def _documents(rng: random.Random, tag: str, world: World, matter: Record) -> None:
    chosen = [("attorney_client", rng.choice(DOCUMENTS["attorney_client"]))]
    chosen.append(("work_product", rng.choice(DOCUMENTS["work_product"])))
    chosen += [("none", title) for title in rng.sample(DOCUMENTS["none"], 2)]
    for privilege, title in chosen:
        record = {
            "matter_id": matter["matter_id"],
            "title": title,
            "kind": "correspondence"
            if privilege == "attorney_client"
            else "memo"
            if privilege != "none"
            else "evidence",
            "privilege": privilege,
            "status": "final",
            "produced": False,
            "source": "firm",
            "template_id": None,
            "author_id": None,
            "reviewer_id": None,
        }
        _add(world["documents"], "doc", tag, record, "document_id")


def _engage(rng: random.Random, tag: str, world: World, matter: Record) -> None:
    """The matter's cleared check and the letter its client's signatory signed."""
    check = {
        "client_id": matter["client_id"],
        "adverse_party": matter["adverse_party"],
        "run_by": matter["responsible_attorney_id"],
        "result": "clear",
        "hits": [],
        "escalated": False,
    }
    matter["conflict_check_id"] = _add(world["conflict_checks"], "chk", tag, check, "check_id")
    if matter["status"] == "intake":
        return
    signer = next(c for c in world["contacts"].values() if c["client_id"] == matter["client_id"] and c["signatory"])
    area = matter["practice_area"]
    bases = [b for b in FEE_BASES if not (b == "contingency" and area in NO_CONTINGENCY)]
    bases = [b for b in bases if b != "fixed" or fixed_fee_offered(area)]
    basis = rng.choice(bases)
    partner = world["attorneys"][matter["responsible_attorney_id"]]
    letter = {
        "matter_id": matter["matter_id"],
        "contact_id": signer["contact_id"],
        "fee_basis": basis,
        "retainer": retainer(basis, area, partner["hourly_rate"]),
        "status": "signed",
        "signed_on": matter["opened_on"],
    }
    matter["engagement_letter_id"] = _add(world["engagement_letters"], "eng", tag, letter, "letter_id")


def build_world(seed: int, tag: str) -> World:
    """One office's records, drawn from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    people = _people(tag)
    rng.shuffle(people)
    world: World = {"attorneys": _attorneys(rng, tag, people)}
    world["clients"], world["contacts"] = _clients(rng, tag, people)
    for table in ("matters", "conflict_checks", "deadlines", "documents", "engagement_letters"):
        world[table] = {}
    partners = sorted(a for a, r in world["attorneys"].items() if r["role"] == "partner")
    juniors = sorted(a for a, r in world["attorneys"].items() if r["role"] != "partner" and r["status"] == "active")
    plans = []
    for client in world["clients"].values():
        areas = names.ORGANISATION_AREAS if client["kind"] == "organisation" else names.INDIVIDUAL_AREAS
        for area in rng.sample(areas, 2 if client["kind"] == "organisation" or rng.random() < 0.6 else 1):
            plans.append((client, area))
    rng.shuffle(plans)
    sides = list(names.OTHER_SIDES)
    for index, (client, area) in enumerate(plans):
        status = STAGES[index] if index < len(STAGES) else "open"
        partner = rng.choice(partners)
        opened = TODAY - timedelta(days=rng.randint(3 if status == "intake" else 60, 20 if status == "intake" else 700))
        record = {
            "client_id": client["client_id"],
            "title": f"{client['name']}: {rng.choice(names.SUBJECTS[area])}",
            "practice_area": area,
            "responsible_attorney_id": partner,
            "team": [partner] + ([] if status == "intake" else rng.sample(juniors, rng.choice((1, 2)))),
            "adverse_party": rng.choice(sides),
            "status": status,
            "opened_on": opened.isoformat(),
            "conflict_check_id": None,
            "engagement_letter_id": None,
            "citations": [],
            "closed_on": None,
            "disposition": None,
        }
        matter_id = _add(world["matters"], "mat", tag, record, "matter_id")
        matter = world["matters"][matter_id]
        if status != "intake" or rng.random() < 0.7:
            _engage(rng, tag, world, matter)
        if status == "closed":
            matter.update(closed_on=(TODAY - timedelta(days=rng.randint(5, 50))).isoformat(), disposition="completed")
        if status != "intake":
            _deadlines(rng, tag, world, matter, settled=status == "closed" or rng.random() < 0.4)
            _documents(rng, tag, world, matter)
    _screen(rng, world)
    world["templates"] = templates()
    world["authorities"] = authorities()
    for table in ("verifications", "privilege_log", "upload_requests", "handoffs"):
        world[table] = {}
    return world


def _screen(rng: random.Random, world: World) -> None:
    """Walls: some lawyers once acted for the other side of an open matter they are not on."""
    open_matters = sorted((m for m in world["matters"].values() if m["status"] == "open"), key=lambda m: m["matter_id"])
    for matter in rng.sample(open_matters, min(6, len(open_matters))):
        against = {
            a for m in world["matters"].values() if m["adverse_party"] == matter["adverse_party"] for a in m["team"]
        }
        outside = sorted(
            a
            for a, r in world["attorneys"].items()
            if r["status"] == "active" and a not in against and r["role"] != "partner"
        )
        if not outside:
            continue
        lawyer = world["attorneys"][rng.choice(outside)]
        if matter["adverse_party"] not in lawyer["screened_parties"]:
            lawyer["screened_parties"].append(matter["adverse_party"])


def _teams_are_clear(world: World) -> list[str]:
    problems = []
    for matter in world["matters"].values():
        for member in matter["team"]:
            lawyer = world["attorneys"][member]
            if lawyer["status"] != "active" or matter["adverse_party"] in lawyer["screened_parties"]:
                problems.append(f"{matter['matter_id']}: {member} may not be on its team")
        if world["attorneys"][matter["responsible_attorney_id"]]["role"] != "partner":
            problems.append(f"{matter['matter_id']}: its responsible lawyer is not a partner")
    return problems


def _engaged_matters_are_cleared_and_signed(world: World) -> list[str]:
    problems = []
    for matter in world["matters"].values():
        if matter["status"] == "intake":
            continue
        check = world["conflict_checks"].get(matter["conflict_check_id"] or "")
        letter = world["engagement_letters"].get(matter["engagement_letter_id"] or "")
        signer = world["contacts"].get(letter["contact_id"]) if letter else None
        if not check or check["result"] != "clear":
            problems.append(f"{matter['matter_id']} has no cleared conflict check")
        if not letter or letter["status"] != "signed" or not signer or not signer["signatory"]:
            problems.append(f"{matter['matter_id']} has no letter signed by a signatory")
        elif signer["client_id"] != matter["client_id"]:
            problems.append(f"{matter['matter_id']}'s letter is signed by another client's contact")
    return problems


def _one_signatory_each(world: World) -> list[str]:
    problems = []
    for client_id in world["clients"]:
        count = sum(1 for c in world["contacts"].values() if c["client_id"] == client_id and c["signatory"])
        if count != 1:
            problems.append(f"{client_id} has {count} signatories")
    return problems


def _no_client_is_an_adverse_party(world: World) -> list[str]:
    clients = {c["name"] for c in world["clients"].values()}
    return [f"{m['matter_id']} is against a client" for m in world["matters"].values() if m["adverse_party"] in clients]


def _deadline_rule(deadline: Record) -> str | None:
    if day(deadline["due_on"]).weekday() >= 5:
        return "falls on a weekend"
    if bool(deadline["moves"]) != (deadline["due_on"] != deadline["original_due_on"]):
        return "its moves do not account for its date"
    if deadline["kind"] in COURT_SET and deadline["moves"]:
        return "a court-set date was moved"
    if deadline["due_on"] > latest_slip(deadline["original_due_on"]):
        return "slipped more than the policy allows"
    if (deadline["status"] == "open") != (day(deadline["due_on"]) > TODAY):
        return "open deadlines are in the future, met ones in the past"
    return None


INVARIANTS = (
    Invariant("team members are active, unscreened, and led by a partner", _teams_are_clear),
    Invariant(
        "engaged matters have a cleared check and a letter signed by a signatory",
        _engaged_matters_are_cleared_and_signed,
    ),
    Invariant("every client has exactly one signatory", _one_signatory_each),
    Invariant("no matter is against one of the firm's clients", _no_client_is_an_adverse_party),
    per_record("deadlines", "deadlines fall on working days and slip within the rules", _deadline_rule),
)


def worlds() -> list[SeededWorld]:
    """Every world, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
