"""The club's worlds: one per seed, every id carrying the world's tag, invariants checked as each is built.

A world is a chain of two clubs with their members, a week of classes (their counts include the public's
bookings made at the desk), trainers with a week of session slots, a
routine library, three weeks of check-ins, and each member's own watch. Worlds w1 and w2 give the train tasks, w3
the test tasks, so the two splits share no member, class, trainer or routine.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record, within
from taumesh.domains.fitness.catalog import (
    CHECK_IN_KINDS,
    CITIES,
    CLASS_FORMATS,
    CLASS_TIMES,
    CLUB_NAMES,
    FIRST,
    GUESTS,
    LAST,
    PLAN_TIERS,
    ROUTINES,
    TRAINER_FIRST,
    TRAINER_LAST,
    WORKOUT_KINDS,
)
from taumesh.domains.fitness.clock import NOW, TODAY, add_months, share_code
from taumesh.domains.fitness.safety import CONDITIONS, traits

SEEDS = {"w1": 43_101, "w2": 43_102, "w3": 43_103}
TEST_WORLDS = frozenset({"w3"})
"""World 3's tasks are the test split; worlds 1 and 2's the train split."""
MEMBERS = 36
CLUBS = 2
TRAINERS_PER_CLUB = 4
CLASS_DAYS = 7
SLOT_HOURS = [7, 9, 11, 15, 17, 19]
CERTIFICATIONS = ("rehab", "cardiac", "prenatal")
PREGNANCY_AGES = (18, 45)


def age(date_of_birth: str) -> int:
    """Whole years on the club's clock."""
    born = date.fromisoformat(date_of_birth)
    return TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))


def _member_rules(member: dict[str, Any]) -> str | None:
    if not set(member["cleared_conditions"]) <= set(member["conditions"]):
        return "has a clearance for a condition it does not declare"
    if "pregnancy" in member["conditions"] and not PREGNANCY_AGES[0] <= age(member["date_of_birth"]) <= 45:
        return f"declares a pregnancy at age {age(member['date_of_birth'])}"
    days = {int(member["joined"][8:]), int(member["commitment_end"][8:]), member["billing_day"]}
    if len(days) != 1:
        return "joined and commitment end are not on the billing day"
    return within(age(member["date_of_birth"]), 16, 90, "age")


def _class_counts(world: World) -> list[str]:
    counted = Counter(b["class_id"] for b in world["bookings"].values() if b["status"] == "booked")
    return [
        f"class {key} has {c['booked']} booked of {c['capacity']} but {counted[key]} member bookings"
        for key, c in world["classes"].items()
        if not counted[key] <= c["booked"] <= c["capacity"]
    ]


def _clubs_covered(world: World) -> list[str]:
    problems = []
    for club_id in world["clubs"]:
        held = {cert for t in world["trainers"].values() if t["club_id"] == club_id for cert in t["certifications"]}
        if not set(CERTIFICATIONS) <= held:
            problems.append(f"club {club_id} has no trainer for {sorted(set(CERTIFICATIONS) - held)}")
        for focus in {r["focus"] for r in world["routines"].values()}:
            library = [r for r in world["routines"].values() if r["club_id"] == club_id and r["focus"] == focus]
            if not any(not traits(r) for r in library):
                problems.append(f"club {club_id} has no {focus} routine that suits every member")
    return problems


def _past(field: str) -> Any:
    return lambda record: None if record[field] <= TODAY.isoformat() else f"{field} {record[field]} is not past"


def _codes_unique(world: World) -> list[str]:
    codes = Counter(w["share_code"] for watch in world["wearables"].values() for w in watch["workouts"])
    return [f"share code {code} is on {n} workouts" for code, n in codes.items() if n > 1]


INVARIANTS = (
    per_record("members", "clearances, pregnancies, ages and billing days are consistent", _member_rules),
    Invariant("class counts cover their member bookings within capacity", _class_counts),
    Invariant("every club has trainers for each certification and safe routines in each focus", _clubs_covered),
    per_record("activities", "check-ins are in the past", _past("date")),
    per_record(
        "wearables",
        "watch workouts are in the past",
        lambda w: next((f"workout on {x['recorded']}" for x in w["workouts"] if x["recorded"] > str(TODAY)), None),
    ),
    Invariant("share codes are unique", _codes_unique),
    Invariant(
        "every id carries its world's tag",
        lambda world: [
            f"{table}[{key}]" for table, records in world.items() for key in records if key.split("-")[1] not in SEEDS
        ],
    ),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    world: World = {
        name: {}
        for name in (
            "plans", "clubs", "members", "classes", "bookings", "charges", "trainers", "trainer_slots", "routines",
            "routine_assignments", "activities", "freezes", "guest_visits", "wearables", "verifications",
            "escalations",
        )
    }  # fmt: skip
    for tier in PLAN_TIERS:
        plan_id = f"plan-{tag}-{tier['key']}"
        world["plans"][plan_id] = {"plan_id": plan_id, **{k: v for k, v in tier.items() if k != "key"}}
    names = rng.sample(CLUB_NAMES, CLUBS)
    for number, name in enumerate(names, 1):
        club_id = f"club-{tag}-{number}"
        world["clubs"][club_id] = {"club_id": club_id, "name": f"{name} Club", "city": rng.choice(CITIES)}
        _classes(rng, world, tag, club_id, number)
        _trainers(rng, world, tag, club_id, number)
        _routines(world, tag, club_id, number)
    for number in range(1, MEMBERS + 1):
        _member(rng, world, tag, number)
    _trainer_bookings(rng, world)
    return world


def _classes(rng: random.Random, world: World, tag: str, club_id: str, club: int) -> None:
    for offset in range(CLASS_DAYS):
        day = TODAY + timedelta(days=offset)
        for time, form in zip(CLASS_TIMES, rng.sample(CLASS_FORMATS, len(CLASS_TIMES)), strict=True):
            class_id = f"cls-{tag}-{club}{offset}{CLASS_TIMES.index(time)}"
            capacity = rng.choice([12, 16, 20])
            world["classes"][class_id] = {
                "class_id": class_id,
                "club_id": club_id,
                **form,
                "start": f"{day.isoformat()}T{time}",
                "capacity": capacity,
                "booked": 0,
            }
            world["classes"][class_id]["booked"] = capacity if rng.random() < 0.08 else rng.randint(0, capacity - 4)


def _booking(world: World, tag: str, member_id: str, class_id: str) -> None:
    booking_id = f"bkg-{tag}-{len(world['bookings']) + 1:04d}"
    world["bookings"][booking_id] = {
        "booking_id": booking_id,
        "member_id": member_id,
        "class_id": class_id,
        "status": "booked",
        "late_fee": 0.0,
        "fee_waived": False,
    }


def _trainers(rng: random.Random, world: World, tag: str, club_id: str, club: int) -> None:
    firsts = rng.sample(TRAINER_FIRST, TRAINERS_PER_CLUB)
    lasts = rng.sample(TRAINER_LAST, TRAINERS_PER_CLUB)
    made = []
    for number in range(1, TRAINERS_PER_CLUB + 1):
        trainer_id = f"trn-{tag}-{club}{number}"
        certs = [c for c in CERTIFICATIONS if rng.random() < 0.4]
        made.append(trainer_id)
        world["trainers"][trainer_id] = {
            "trainer_id": trainer_id,
            "club_id": club_id,
            "name": f"{firsts[number - 1]} {lasts[number - 1]}",
            "certifications": certs,
        }
    for cert in CERTIFICATIONS:
        if not any(cert in world["trainers"][t]["certifications"] for t in made):
            chosen = world["trainers"][rng.choice(made)]
            chosen["certifications"] = [c for c in CERTIFICATIONS if c in {*chosen["certifications"], cert}]
    for trainer_id in made:
        for offset in range(1, 6):
            day = TODAY + timedelta(days=offset)
            for hour in SLOT_HOURS:
                slot_id = f"slot-{tag}-{trainer_id[-2:]}{offset}{hour:02d}"
                world["trainer_slots"][slot_id] = {
                    "slot_id": slot_id,
                    "trainer_id": trainer_id,
                    "start": f"{day.isoformat()}T{hour:02d}:00",
                    "status": "open",
                    "member_id": None,
                    "paid_with": None,
                }


def _routines(world: World, tag: str, club_id: str, club: int) -> None:
    for number, routine in enumerate(ROUTINES, 1):
        routine_id = f"rtn-{tag}-{club}{number:02d}"
        world["routines"][routine_id] = {
            "routine_id": routine_id,
            "club_id": club_id,
            "heated": False,
            "minutes": 30 + 5 * (number % 4),
            **routine,
        }


def _birth(rng: random.Random, pregnant: bool) -> str:
    year = rng.randint(1983, 2003) if pregnant else rng.randint(1958, 2005)
    return date(year, rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def _conditions(rng: random.Random) -> list[str]:
    if rng.random() < 0.4:
        return []
    return sorted(rng.sample(CONDITIONS, 1 if rng.random() < 0.8 else 2), key=CONDITIONS.index)


def _overdue(rng: random.Random, monthly_fee: float) -> float:
    """Missed dues with the 1.5 % late-payment surcharge (about one member in six owes any)."""
    return round(monthly_fee * rng.choice([1, 2]) * 1.015, 2) if rng.random() < 0.18 else 0.0


def _member(rng: random.Random, world: World, tag: str, number: int) -> None:
    member_id = f"mem-{tag}-{number:03d}"
    first = FIRST[(number * 7 + int(tag[1:]) * 3) % len(FIRST)]
    last = LAST[(number * 11 + int(tag[1:]) * 5) % len(LAST)]
    conditions = _conditions(rng)
    born = _birth(rng, "pregnancy" in conditions)
    if "pregnancy" in conditions and age(born) > PREGNANCY_AGES[1]:
        conditions.remove("pregnancy")
    plan_id = rng.choice(sorted(world["plans"]))
    club_id = rng.choice(sorted(world["clubs"]))
    billing_day = rng.randint(1, 28)
    joined = date(rng.choice([2023, 2024, 2025]), rng.randint(1, 12), billing_day)
    if joined > TODAY:
        joined = joined.replace(year=2024)
    commitment_end = add_months(joined, rng.choice([12, 18, 24]))
    waiver = rng.random()
    member = {
        "member_id": member_id,
        "first_name": first,
        "last_name": last,
        "email": f"{first}.{last}.{tag}{number}@mail.example".lower(),
        "date_of_birth": born,
        "postcode": f"{rng.randint(10000, 99999)}",
        "home_club_id": club_id,
        "plan_id": plan_id,
        "status": "frozen" if rng.random() < 0.08 else "active",
        "joined": joined.isoformat(),
        "billing_day": billing_day,
        "commitment_end": commitment_end.isoformat(),
        "conditions": conditions,
        "cleared_conditions": [c for c in conditions if rng.random() < 0.25],
        "balance_due": _overdue(rng, world["plans"][plan_id]["monthly_fee"]),
        "trainer_credits": rng.choice([0, 0, 1, 2, 4]),
        "weekly_goal_minutes": rng.choice([90, 120, 150, 180, 210]),
        "goal_history": [],
        "last_fee_waiver": (
            (TODAY - timedelta(days=rng.randint(20, 300))).isoformat()
            if waiver < 0.35
            else (TODAY - timedelta(days=rng.randint(400, 700))).isoformat()
            if waiver < 0.5
            else None
        ),
        "cancellation": None,
    }
    world["members"][member_id] = member
    _history(rng, world, tag, member)
    _watch(rng, world, member)
    if member["status"] == "active":
        club_classes = [
            c for c in world["classes"].values() if c["club_id"] == club_id and c["start"] > NOW.isoformat()
        ]
        today = [c for c in club_classes if c["start"][:10] == TODAY.isoformat()]
        picks = rng.sample(sorted(club_classes, key=lambda c: c["class_id"]), rng.randint(0, 2))
        if rng.random() < 0.3:  # a class later today: cancelling it now is late (policy 4.3)
            picks.append(rng.choice(sorted(today, key=lambda c: c["class_id"])))
        for chosen in {c["class_id"]: c for c in picks}.values():
            if chosen["booked"] < chosen["capacity"]:
                chosen["booked"] += 1
                _booking(world, tag, member_id, chosen["class_id"])


def _history(rng: random.Random, world: World, tag: str, member: dict[str, Any]) -> None:
    """Three weeks of check-ins, past freezes and guest visits."""
    days = sorted(rng.sample(range(0, 21), rng.randint(3, 9)))
    for back in days:
        activity_id = f"act-{tag}-{len(world['activities']) + 1:05d}"
        world["activities"][activity_id] = {
            "activity_id": activity_id,
            "member_id": member["member_id"],
            "date": (TODAY - timedelta(days=back)).isoformat(),
            "kind": rng.choice(CHECK_IN_KINDS),
            "minutes": rng.randrange(20, 95, 5),
            "source": "check_in",
        }
    if rng.random() < 0.3:
        start = date(rng.choice([2024, 2025, 2025]), rng.randint(1, 3), 1)
        months = rng.randint(1, 2)
        freeze_id = f"frz-{tag}-{len(world['freezes']) + 1:04d}"
        world["freezes"][freeze_id] = {
            "freeze_id": freeze_id,
            "member_id": member["member_id"],
            "start_date": start.isoformat(),
            "months": months,
            "resume_date": add_months(start, months).isoformat(),
        }
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        visit_id = f"gv-{tag}-{len(world['guest_visits']) + 1:04d}"
        world["guest_visits"][visit_id] = {
            "visit_id": visit_id,
            "member_id": member["member_id"],
            "guest_name": rng.choice(GUESTS),
            "visit_date": (TODAY + timedelta(days=rng.randint(-25, 18))).isoformat(),
            "kind": "guest_pass",
        }


def _watch(rng: random.Random, world: World, member: dict[str, Any]) -> None:
    backs = [rng.randint(1, 12), rng.randint(16, 30)]
    rng.shuffle(backs)
    workouts = [
        {
            "share_code": share_code(member["member_id"], number),
            "recorded": (TODAY - timedelta(days=back)).isoformat(),
            "kind": rng.choice(WORKOUT_KINDS),
            "minutes": rng.randrange(25, 80),
        }
        for number, back in enumerate(backs, 1)
    ]
    world["wearables"][member["member_id"]] = {
        "member_id": member["member_id"],
        "account_email": member["email"],
        "workouts": workouts,
    }


def _trainer_bookings(rng: random.Random, world: World) -> None:
    """A quarter of the slots are already taken by members of the same club."""
    for slot in world["trainer_slots"].values():
        club = world["trainers"][slot["trainer_id"]]["club_id"]
        if rng.random() < 0.25:
            others = sorted(m for m, r in world["members"].items() if r["home_club_id"] == club)
            slot.update(status="booked", member_id=rng.choice(others), paid_with="credit")
