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
from taumesh.domains.healthcare.clock import NOW
from taumesh.domains.healthcare.world import (
    ALLERGIES,
    CONDITIONS,
    DENIALS,
    DRUGS,
    FIRST,
    GUARDIANS,
    LABS,
    LAST,
    LOCATIONS,
    PHARMACIES,
    SERVICES,
    SLOT_TIMES,
    SPECIALTIES,
    _plans,
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
    plans = _plans()
    providers = _providers(rng, tag, list(plans))
    tables: World = {
        "patients": {},
        "providers": providers,
        "slots": _slots(rng, providers),
        "appointments": {},
        "prescriptions": {},
        "plans": plans,
        "referrals": {},
        "prior_auths": {},
        "claims": {},
        "bills": {},
        "lab_results": {},
        "records_requests": {},
        "verifications": {},
        "handoffs": {},
        "authorization_forms": {},
        "devices": {},
    }
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


def _slots(rng: random.Random, providers: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    slots = {}
    days = [NOW.date() + timedelta(days=d) for d in range(12) if (NOW.date() + timedelta(days=d)).weekday() < 5]
    for provider in providers.values():
        visit = {"primary care": "primary", "radiology": "imaging"}.get(provider["specialty"], "specialist")
        for day in days:
            for time in SLOT_TIMES:
                slot_id = f"slot-{provider['provider_id'][5:]}-{day.strftime('%m%d')}-{time.replace(':', '')}"
                slots[slot_id] = {
                    "slot_id": slot_id,
                    "provider_id": provider["provider_id"],
                    "start": f"{day.isoformat()}T{time}",
                    "visit_type": visit,
                    "status": "booked" if rng.random() < 0.3 else "open",
                }
    return slots


def _dob(rng: random.Random, low: int, high: int) -> str:
    return date(rng.randint(low, high), rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def _proxy(rng: random.Random, minor: bool, born: int, last: str) -> dict[str, Any]:
    scopes = ["appointments", "prescriptions", "billing", "lab_results", "records"]
    relationship = "parent" if minor else rng.choice(["spouse", "sibling"] + (["adult child"] if born <= 1970 else []))
    low, high = RELATION_YEARS[relationship]
    year = born - rng.randint(low, high)
    return {
        "name": f"{rng.choice(GUARDIANS)} {last}",
        "relationship": relationship,
        "date_of_birth": _dob(rng, min(year, NOW.year - ADULT - 1), min(year, NOW.year - ADULT - 1)),
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
    date_of_birth = _dob(rng, 2011, 2016) if minor else _dob(rng, 1942, 2000)
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
    calendar = _appointments(rng, tables, tag, patient)
    pharmacy_app = _prescriptions(rng, tables, tag, patient, minor)
    _referrals(rng, tables, tag, patient)
    _claims(rng, tables, tag, patient)
    _labs(rng, tables, tag, patient)
    _device(rng, tables, patient, calendar, pharmacy_app)


def _next(tables: World, table: str, prefix: str, tag: str) -> str:
    return f"{prefix}-{tag}-{len(tables[table]) + 1:04d}"


def _appointments(rng: random.Random, tables: World, tag: str, patient: dict[str, Any]) -> list[dict[str, str]]:
    calendar = []
    taken = {a["slot_id"] for a in tables["appointments"].values()}
    booked = [
        s
        for s in tables["slots"].values()
        if s["status"] == "booked" and s["slot_id"] not in taken and s["start"] > NOW.isoformat()
    ]
    for _ in range(rng.randint(1, 2)):
        slot = rng.choice(booked)
        booked.remove(slot)
        provider = tables["providers"][slot["provider_id"]]
        appointment_id = _next(tables, "appointments", "appt", tag)
        tables["appointments"][appointment_id] = {
            "appointment_id": appointment_id,
            "patient_id": patient["patient_id"],
            "provider_id": slot["provider_id"],
            "slot_id": slot["slot_id"],
            "start": slot["start"],
            "visit_type": slot["visit_type"],
            "reason": rng.choice(["follow-up", "annual physical", "medication review", "new symptoms", "consultation"]),
            "status": "scheduled",
            "cancellation_fee": 0.0,
        }
        calendar.append(
            {
                "event_id": f"ev-{appointment_id}",
                "title": f"Appointment with {provider['name']}",
                "start": slot["start"],
            }
        )
    for day, title in ((rng.randint(10, 21), "Work shift"), (rng.randint(10, 21), "Book club")):
        start = f"2025-03-{day:02d}T{rng.choice(SLOT_TIMES)}"
        calendar.append({"event_id": f"ev-{patient['patient_id']}-{len(calendar)}", "title": title, "start": start})
    return calendar


def _prescriptions(
    rng: random.Random, tables: World, tag: str, patient: dict[str, Any], minor: bool
) -> list[dict[str, str | int]]:
    app: list[dict[str, str | int]] = []
    drugs = [d for d in DRUGS if not minor or d[0] in ("albuterol inhaler", "methylphenidate")]
    for drug, dose, schedule, supply in rng.sample(drugs, rng.randint(1, min(3, len(drugs)))):
        rx_id = _next(tables, "prescriptions", "rx", tag)
        last_fill = (NOW.date() - timedelta(days=rng.choice([supply // 3, supply - 5, supply + 3]))).isoformat()
        refills = rng.choice([0, 1, 2, 3]) if schedule is None else 0
        tables["prescriptions"][rx_id] = {
            "rx_id": rx_id,
            "patient_id": patient["patient_id"],
            "drug": drug,
            "dose": dose,
            "controlled_schedule": schedule,
            "refills_left": refills,
            "days_supply": supply,
            "last_fill_date": last_fill,
            "prescriber_id": patient["pcp_id"],
            "pharmacy": rng.choice(PHARMACIES),
            "status": "active",
        }
        app.append(
            {"rx_number": rx_id.upper(), "drug": f"{drug} {dose}", "refills_left": refills, "last_filled": last_fill}
        )
    return app


def _referrals(rng: random.Random, tables: World, tag: str, patient: dict[str, Any]) -> None:
    for specialty in rng.sample(SPECIALTIES, rng.randint(0, 2)):
        referral_id = _next(tables, "referrals", "ref", tag)
        status = rng.choice(["approved", "approved", "pending", "expired"])
        tables["referrals"][referral_id] = {
            "referral_id": referral_id,
            "patient_id": patient["patient_id"],
            "specialty": specialty,
            "status": status,
            "expires": "2025-01-31" if status == "expired" else "2025-09-30",
        }
    if rng.random() < 0.35:
        auth_id = _next(tables, "prior_auths", "pa", tag)
        tables["prior_auths"][auth_id] = {
            "auth_id": auth_id,
            "patient_id": patient["patient_id"],
            "service": "mri",
            "status": rng.choice(["approved", "pending"]),
        }


def _claims(rng: random.Random, tables: World, tag: str, patient: dict[str, Any]) -> None:
    providers = list(tables["providers"].values())
    for _ in range(rng.randint(1, 2)):
        claim_id = _next(tables, "claims", "clm", tag)
        provider = rng.choice(providers)
        billed = float(rng.choice([180, 320, 540, 900, 1650]))
        denied = rng.random() < 0.4
        owes = billed if denied else round(billed * rng.choice([0.0, 0.2, 0.3]), 2)
        tables["claims"][claim_id] = {
            "claim_id": claim_id,
            "patient_id": patient["patient_id"],
            "provider_id": provider["provider_id"],
            "service_date": (NOW.date() - timedelta(days=rng.choice([20, 45, 90, 150, 210, 260]))).isoformat(),
            "service": rng.choice(SERVICES),
            "billed": billed,
            "plan_paid": 0.0 if denied else round(billed - owes, 2),
            "patient_owes": owes,
            "status": "denied" if denied else "paid",
            "denial_reason": rng.choice(DENIALS) if denied else None,
            "dispute_reason": None,
        }
        if owes > 0:
            bill_id = _next(tables, "bills", "bill", tag)
            tables["bills"][bill_id] = {
                "bill_id": bill_id,
                "patient_id": patient["patient_id"],
                "claim_id": claim_id,
                "amount_due": owes,
                "status": "open",
                "plan_months": None,
            }


def _labs(rng: random.Random, tables: World, tag: str, patient: dict[str, Any]) -> None:
    for test, summary in rng.sample(LABS, rng.randint(1, 2)):
        lab_id = _next(tables, "lab_results", "lab", tag)
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
    card = {
        "plan_name": plan["name"],
        "member_id": patient["member_id"],
        "group_number": f"GRP-{rng.randint(1000, 9999)}",
    }
    if rng.random() < 0.35:  # a new card the clinic has not seen yet; sometimes of a plan the clinic does not take
        others = [p["name"] for p in tables["plans"].values() if p["plan_id"] != plan["plan_id"]]
        name = rng.choice([*others, "Evergreen HMO Platinum", "Beacon Choice EPO"])
        card = {
            "plan_name": name,
            "member_id": f"{name[:3].upper()}{rng.randint(10**7, 10**8 - 1)}",
            "group_number": f"GRP-{rng.randint(1000, 9999)}",
        }
    glucose = "type 2 diabetes" in patient["conditions"]
    if glucose:
        queue: list[dict[str, Any]] = [{"kind": "glucose", "glucose": rng.choice(GLUCOSE)} for _ in range(2)]
    else:
        pairs = [rng.choice(BLOOD_PRESSURES) for _ in range(2)]
        queue = [
            {"kind": "blood_pressure", "systolic": s, "diastolic": d, "pulse": rng.randint(58, 96)} for s, d in pairs
        ]
    tables["devices"][patient["patient_id"]] = {
        "patient_id": patient["patient_id"],
        "passcode": f"{rng.randint(100000, 999999)}",
        "unlocked": False,
        "insurance_card": card,
        "sms_inbox": [{"from": "Pharmacy", "text": "Your prescription is ready for pickup."}],
        "monitor": {"kind": "glucose meter" if glucose else "blood pressure cuff"},
        "monitor_queue": queue,
        "monitor_history": [],
        "pharmacy_app": pharmacy_app,
        "calendar": sorted(calendar, key=lambda event: event["start"]),
    }
