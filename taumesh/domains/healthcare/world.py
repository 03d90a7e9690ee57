"""The seeded world generator: patients, providers, a two-week calendar, and everything on file about them.

No LLM and no clock but :data:`~taumesh.domains.healthcare.clock.NOW`: the same seed gives the same tables,
byte for byte, on every machine (``python -m taumesh.domains.healthcare.build`` writes them to ``data/``). The
vocabularies and the record builders release 2 shares are in :mod:`~taumesh.domains.healthcare.records`.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

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
    Table,
    dob,
)

SEED = 2406_12045
NO_TAG = ""
"""Release 1 has one world: its ids carry no world's tag."""

__all__ = ["SEED", "Table", "build_world"]


def _providers(rng: random.Random, plans: list[str]) -> Table:
    providers: Table = {}
    people = [("primary care", 4), *((s, 2) for s in SPECIALTIES), ("radiology", 1)]
    number = 0
    for specialty, count in people:
        for _ in range(count):
            number += 1
            accepted = [p for p in plans if rng.random() > 0.25] or plans[:1]
            provider_id = f"prov-{number:03d}"
            providers[provider_id] = {
                "provider_id": provider_id,
                "name": f"Dr. {rng.choice(FIRST)} {rng.choice(LAST)}",
                "specialty": specialty,
                "location": rng.choice(LOCATIONS),
                "accepted_plans": accepted,
            }
    return providers


def build_world(seed: int = SEED, patients: int = 72) -> dict[str, Table]:
    """Every table of the database, from ``seed``."""
    rng = random.Random(seed)
    plans = records.plans()
    providers = _providers(rng, list(plans))
    tables = records.empty_tables(plans, providers, records.slots(rng, providers))
    pcps = [p for p in providers.values() if p["specialty"] == "primary care"]
    for number in range(1, patients + 1):
        _patient(rng, tables, number, pcps)
    return tables


def _patient(rng: random.Random, tables: dict[str, Table], number: int, pcps: list[dict[str, Any]]) -> None:
    patient_id = f"pat-{number:04d}"
    minor = number % 6 == 0
    plan_id = rng.choice(list(tables["plans"]))
    plan = tables["plans"][plan_id]
    first, last = FIRST[(number * 7) % len(FIRST)], LAST[(number * 11) % len(LAST)]
    in_network = [p for p in pcps if plan_id in p["accepted_plans"]] or pcps
    proxies = []
    if minor or rng.random() < 0.25:
        scopes = ["appointments", "prescriptions", "billing", "lab_results", "records"]
        granted = scopes if minor else sorted(rng.sample(scopes, rng.randint(1, 3)), key=scopes.index)
        proxies.append(
            {
                "name": f"{rng.choice(GUARDIANS)} {last}",
                "relationship": "parent" if minor else rng.choice(["spouse", "adult child", "sibling"]),
                "date_of_birth": dob(rng, 1942, 2000),
                "scopes": granted,
            }
        )
    deductible_met = rng.choice([0.0, round(plan["deductible"] * rng.choice([0.25, 0.5, 0.9]), 2), plan["deductible"]])
    patient = {
        "patient_id": patient_id,
        "first_name": first,
        "last_name": last,
        "date_of_birth": dob(rng, 2010, 2016) if minor else dob(rng, 1942, 2000),
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(0, 9999):04d}",
        "email": f"{first.lower()}.{last.lower()}{number}@example.com",
        "plan_id": plan_id,
        "member_id": f"{plan_id[:3].upper()}{rng.randint(10**7, 10**8 - 1)}",
        "allergies": sorted(rng.sample(ALLERGIES, rng.randint(0, 2))),
        "conditions": sorted(rng.sample(CONDITIONS, rng.randint(0, 3))),
        "pcp_id": rng.choice(in_network)["provider_id"],
        "proxies": proxies,
        "deductible_met": deductible_met,
        "out_of_pocket_spent": round(deductible_met + rng.choice([0.0, 120.0, 460.0]), 2),
        "home_readings": [],
    }
    tables["patients"][patient_id] = patient
    calendar = records.appointments(rng, tables, NO_TAG, patient, after="", errand="Kids' recital")
    pharmacy_app = records.prescriptions(rng, tables, NO_TAG, patient, DRUGS)
    records.referrals(rng, tables, NO_TAG, patient, prior_auth_share=0.3)
    records.claims(rng, tables, NO_TAG, patient, denied_share=0.35)
    _labs(rng, tables, patient)
    _device(rng, tables, patient, calendar, pharmacy_app)


def _labs(rng: random.Random, tables: dict[str, Table], patient: dict[str, Any]) -> None:
    # release 2 draws "reviewed" after "collected": the order is each release's own
    for test, summary in rng.sample(LABS, rng.randint(1, 2)):
        lab_id = records.next_id(tables, "lab_results", "lab", NO_TAG)
        status = rng.choice(["final", "final", "final", "pending"])
        reviewed = status == "final" and rng.random() < 0.6
        tables["lab_results"][lab_id] = {
            "lab_id": lab_id,
            "patient_id": patient["patient_id"],
            "test": test,
            "collected": (NOW.date() - timedelta(days=rng.randint(2, 20))).isoformat(),
            "status": status,
            "reviewed_by_provider": reviewed,
            "released_to_portal": False,
            "review_requested": False,
            "summary": summary if status == "final" else "",
        }


def _device(
    rng: random.Random,
    tables: dict[str, Table],
    patient: dict[str, Any],
    calendar: list[dict[str, str]],
    pharmacy_app: list[dict[str, str | int]],
) -> None:
    plan = tables["plans"][patient["plan_id"]]
    card = records.insurance_card(rng, plan["name"], patient["member_id"])
    if rng.random() < 0.3:  # a new card the clinic has not seen yet
        new_plan = rng.choice([p for p in tables["plans"].values() if p["plan_id"] != plan["plan_id"]])
        member_id = f"{new_plan['plan_id'][:3].upper()}{rng.randint(10**7, 10**8 - 1)}"
        card = records.insurance_card(rng, new_plan["name"], member_id)
    if "type 2 diabetes" in patient["conditions"]:
        queue = [{"kind": "glucose", "glucose": rng.choice([88, 142, 176, 240, 320, 62])} for _ in range(2)]
    else:
        queue = [
            {
                "kind": "blood_pressure",
                "systolic": rng.choice([118, 134, 152, 186]),
                "diastolic": rng.choice([76, 88, 96, 124]),
                "pulse": rng.randint(58, 96),
            }
            for _ in range(2)
        ]
    passcode = f"{rng.randint(0, 9999):04d}{int(patient['patient_id'][4:]):02d}"
    tables["devices"][patient["patient_id"]] = records.device(patient, passcode, card, queue, calendar, pharmacy_app)
