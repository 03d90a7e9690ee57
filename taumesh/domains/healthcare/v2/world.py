"""Healthcare v2's worlds: v1's generator with its realism findings fixed, one world per seed, ids tagged by world.

Fixed from v1 (issue 41): children never call for themselves (a minor's calls come from a parent proxy, 22-42 years
older); proxies' ages fit their relationship; blood pressure readings are physiological pairs (the diastolic well
below the systolic). :data:`INVARIANTS` states each rule and :func:`worlds` checks them on every world it builds.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record, within
from taumesh.domains.healthcare import records
from taumesh.domains.healthcare.clock import NOW
from taumesh.domains.healthcare.records import (
    ALLERGIES,
    CONDITIONS,
    DRUGS,
    FIRST,
    GUARDIANS,
    LABS,
    LAST,
    LOCATIONS,
    SPECIALTIES,
    dob,
)

SEEDS = {"w1": 41_001, "w2": 41_002, "w3": 41_003}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
PATIENTS = 60
"""Patients per world."""
ADULT = 18
BLOOD_PRESSURES = [(112, 72), (118, 76), (126, 82), (134, 86), (142, 90), (152, 96), (186, 104), (168, 122)]
"""Systolic/diastolic pairs a home cuff shows; the last two are urgent (policy 10.2)."""
GLUCOSE = [62, 88, 142, 176, 240, 320]
RELATION_YEARS = {"parent": (22, 42), "adult child": (-40, -22), "spouse": (-8, 8), "sibling": (-10, 10)}
"""Proxy's birth year minus the patient's would be the negative of these (a parent is born 22-42 years earlier)."""


def _year(text: str) -> int:
    return int(text[:4])


def age(date_of_birth: str) -> int:
    """Age in whole years on the clinic's clock."""
    born = date.fromisoformat(date_of_birth)
    today = NOW.date()
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def _proxy_fits(patient: dict[str, Any]) -> str | None:
    for proxy in patient["proxies"]:
        low, high = RELATION_YEARS[proxy["relationship"]]
        gap = _year(patient["date_of_birth"]) - _year(proxy["date_of_birth"])
        if not low <= gap <= high or age(proxy["date_of_birth"]) < ADULT:
            return f"proxy {proxy['name']} ({proxy['relationship']}) born {gap} years before the patient"
    if age(patient["date_of_birth"]) < ADULT and not any(p["relationship"] == "parent" for p in patient["proxies"]):
        return "is a minor with no parent proxy"
    return None


def _readings_fit(device: dict[str, Any]) -> str | None:
    for reading in device["monitor_queue"]:
        if reading["kind"] == "glucose":
            return within(reading["glucose"], 40, 500, "glucose")
        if reading["diastolic"] > reading["systolic"] - 20:
            return f"blood pressure {reading['systolic']}/{reading['diastolic']}: diastolic not below systolic - 20"
        found = within(reading["systolic"], 80, 240, "systolic") or within(reading["pulse"], 40, 130, "pulse")
        if found:
            return found
    return None


def _before_now(field: str) -> Any:
    return lambda record: None if record[field] < NOW.date().isoformat() else f"{field} {record[field]} is not past"


INVARIANTS = (
    per_record("patients", "proxies fit their relationship; every minor has a parent proxy", _proxy_fits),
    per_record("devices", "home readings are physiological", _readings_fit),
    per_record("prescriptions", "last fills are in the past", _before_now("last_fill_date")),
    per_record("claims", "services are in the past", _before_now("service_date")),
    per_record("lab_results", "samples are collected in the past", _before_now("collected")),
    per_record("appointments", "appointments are ahead", lambda a: None if a["start"] > NOW.isoformat() else "is past"),
    Invariant(
        "every id carries its world's tag",
        lambda world: [
            f"{table}[{key}]"
            for table, records in world.items()
            if table != "plans"
            for key in records
            if key.split("-")[1] not in SEEDS
        ],
    ),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the plans' carries ``tag``."""
    rng = random.Random(seed)
    plans = records.plans()
    providers = _providers(rng, tag, list(plans))
    tables: World = records.empty_tables(plans, providers, records.slots(rng, providers))
    for number in range(1, PATIENTS + 1):
        _patient(rng, tables, tag, number)
    return tables


def _providers(rng: random.Random, tag: str, plans: list[str]) -> dict[str, dict[str, Any]]:
    providers: dict[str, dict[str, Any]] = {}
    people = [("primary care", 4), *((s, 2) for s in SPECIALTIES), ("radiology", 2)]
    number = 0
    for specialty, count in people:
        for _ in range(count):
            number += 1
            provider_id = f"prov-{tag}-{number:02d}"
            providers[provider_id] = {
                "provider_id": provider_id,
                "name": f"Dr. {rng.choice(FIRST)} {rng.choice(LAST)}",
                "specialty": specialty,
                "location": rng.choice(LOCATIONS),
                "accepted_plans": [p for p in plans if rng.random() > 0.25] or plans[:1],
            }
    return providers


def _proxy(rng: random.Random, minor: bool, born: int, last: str) -> dict[str, Any]:
    scopes = ["appointments", "prescriptions", "billing", "lab_results", "records"]
    relationship = "parent" if minor else rng.choice(["spouse", "sibling"] + (["adult child"] if born <= 1970 else []))
    low, high = RELATION_YEARS[relationship]
    year = born - rng.randint(low, high)
    return {
        "name": f"{rng.choice(GUARDIANS)} {last}",
        "relationship": relationship,
        "date_of_birth": dob(rng, min(year, NOW.year - ADULT - 1), min(year, NOW.year - ADULT - 1)),
        "scopes": scopes if minor else sorted(rng.sample(scopes, rng.randint(1, 3)), key=scopes.index),
    }


def _patient(rng: random.Random, tables: World, tag: str, number: int) -> None:
    patient_id = f"pat-{tag}-{number:03d}"
    minor = number % 6 == 0
    plan_id = rng.choice(list(tables["plans"]))
    plan = tables["plans"][plan_id]
    first, last = (
        FIRST[(number * 7 + len(tag) * int(tag[1:])) % len(FIRST)],
        LAST[(number * 11 + int(tag[1:])) % len(LAST)],
    )
    date_of_birth = dob(rng, 2011, 2016) if minor else dob(rng, 1942, 2000)
    pcps = [p for p in tables["providers"].values() if p["specialty"] == "primary care"]
    in_network = [p for p in pcps if plan_id in p["accepted_plans"]] or pcps
    proxies = [_proxy(rng, minor, _year(date_of_birth), last)] if minor or rng.random() < 0.3 else []
    deductible_met = rng.choice([0.0, round(plan["deductible"] * rng.choice([0.25, 0.5, 0.9]), 2), plan["deductible"]])
    patient = {
        "patient_id": patient_id,
        "first_name": first,
        "last_name": last,
        "date_of_birth": date_of_birth,
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}",
        "email": f"{first.lower()}.{last.lower()}.{tag}{number}@example.com",
        "plan_id": plan_id,
        "member_id": f"{plan_id[:3].upper()}{rng.randint(10**7, 10**8 - 1)}",
        "allergies": sorted(rng.sample(ALLERGIES, rng.randint(0, 2))),
        "conditions": [] if minor else sorted(rng.sample(CONDITIONS, rng.randint(0, 3))),
        "pcp_id": rng.choice(in_network)["provider_id"],
        "proxies": proxies,
        "deductible_met": deductible_met,
        "out_of_pocket_spent": round(deductible_met + rng.choice([0.0, 120.0, 460.0]), 2),
        "home_readings": [],
    }
    tables["patients"][patient_id] = patient
    calendar = records.appointments(rng, tables, tag, patient, after=NOW.isoformat(), errand="Book club")
    drugs = [d for d in DRUGS if not minor or d[0] in ("albuterol inhaler", "methylphenidate")]
    pharmacy_app = records.prescriptions(rng, tables, tag, patient, drugs)
    records.referrals(rng, tables, tag, patient, prior_auth_share=0.35)
    records.claims(rng, tables, tag, patient, denied_share=0.4)
    _labs(rng, tables, tag, patient)
    _device(rng, tables, patient, calendar, pharmacy_app)


def _labs(rng: random.Random, tables: World, tag: str, patient: dict[str, Any]) -> None:
    for test, summary in rng.sample(LABS, rng.randint(1, 2)):
        lab_id = records.next_id(tables, "lab_results", "lab", tag)
        status = rng.choice(["final", "final", "final", "pending"])
        tables["lab_results"][lab_id] = {
            "lab_id": lab_id,
            "patient_id": patient["patient_id"],
            "test": test,
            "collected": (NOW.date() - timedelta(days=rng.randint(2, 20))).isoformat(),
            "status": status,
            "reviewed_by_provider": status == "final" and rng.random() < 0.6,
            "released_to_portal": False,
            "review_requested": False,
            "summary": summary if status == "final" else "",
        }


def _device(
    rng: random.Random,
    tables: World,
    patient: dict[str, Any],
    calendar: list[dict[str, str]],
    pharmacy_app: list[dict[str, str | int]],
) -> None:
    plan = tables["plans"][patient["plan_id"]]
    card = records.insurance_card(rng, plan["name"], patient["member_id"])
    if rng.random() < 0.35:  # a new card the clinic has not seen yet; sometimes of a plan the clinic does not take
        others = [p["name"] for p in tables["plans"].values() if p["plan_id"] != plan["plan_id"]]
        name = rng.choice([*others, "Evergreen HMO Platinum", "Beacon Choice EPO"])
        card = records.insurance_card(rng, name, f"{name[:3].upper()}{rng.randint(10**7, 10**8 - 1)}")
    if "type 2 diabetes" in patient["conditions"]:
        queue: list[dict[str, Any]] = [{"kind": "glucose", "glucose": rng.choice(GLUCOSE)} for _ in range(2)]
    else:
        pairs = [rng.choice(BLOOD_PRESSURES) for _ in range(2)]
        queue = [
            {"kind": "blood_pressure", "systolic": s, "diastolic": d, "pulse": rng.randint(58, 96)} for s, d in pairs
        ]
    passcode = f"{rng.randint(100000, 999999)}"
    tables["devices"][patient["patient_id"]] = records.device(patient, passcode, card, queue, calendar, pharmacy_app)
