"""The seeded world generator: patients, providers, a two-week calendar, and everything on file about them.

No LLM and no clock but :data:`~taumesh.domains.healthcare.clock.NOW`: the same seed gives the same tables,
byte for byte, on every machine (``python -m taumesh.domains.healthcare.build`` writes them to ``data/``).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from taumesh.domains.healthcare.clock import NOW

SEED = 2406_12045
Table = dict[str, dict[str, Any]]

FIRST = [
    "Amara",
    "Bruno",
    "Chloe",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hiro",
    "Imani",
    "Jonas",
    "Keiko",
    "Liam",
    "Maya",
    "Nikhil",
    "Olivia",
    "Pedro",
    "Quinn",
    "Rosa",
    "Samir",
    "Tessa",
    "Umar",
    "Vera",
    "Wesley",
    "Ximena",
    "Yusuf",
    "Zoe",
]
LAST = [
    "Abbott",
    "Banerjee",
    "Castillo",
    "Dubois",
    "Eriksen",
    "Fontaine",
    "Garcia",
    "Haddad",
    "Ivanova",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quintero",
    "Rossi",
    "Schmidt",
    "Takahashi",
]
GUARDIANS = ["Alex", "Jordan", "Morgan", "Riley", "Casey", "Taylor"]
ALLERGIES = ["penicillin", "sulfa drugs", "latex", "peanuts", "codeine", "iodine contrast"]
CONDITIONS = [
    "hypertension",
    "type 2 diabetes",
    "asthma",
    "hypothyroidism",
    "migraine",
    "high cholesterol",
    "atrial fibrillation",
    "eczema",
    "GERD",
    "osteoarthritis",
]
PHARMACIES = ["Maple Street Pharmacy", "Riverside Drugs", "CityCare Pharmacy #12", "Northgate Apothecary"]
LOCATIONS = ["Downtown Clinic", "Westside Medical Center", "Lakeview Campus"]
SPECIALTIES = ["cardiology", "dermatology", "orthopedics", "endocrinology", "gastroenterology", "neurology"]
DRUGS: list[tuple[str, str, str | None, int]] = [
    ("lisinopril", "10 mg daily", None, 90),
    ("metformin", "500 mg twice daily", None, 90),
    ("atorvastatin", "20 mg daily", None, 90),
    ("levothyroxine", "50 mcg daily", None, 30),
    ("albuterol inhaler", "2 puffs as needed", None, 30),
    ("sumatriptan", "50 mg as needed", None, 30),
    ("omeprazole", "20 mg daily", None, 30),
    ("oxycodone", "5 mg every 6 hours as needed", "II", 30),
    ("methylphenidate", "10 mg twice daily", "II", 30),
    ("alprazolam", "0.5 mg as needed", "IV", 30),
]
LABS = [
    ("lipid panel", "LDL 162 mg/dL, HDL 41 mg/dL, triglycerides 190 mg/dL"),
    ("hemoglobin A1c", "A1c 7.9 %"),
    ("complete blood count", "white cells 6.1, hemoglobin 13.2 g/dL, platelets 250"),
    ("thyroid stimulating hormone", "TSH 5.8 mIU/L"),
    ("basic metabolic panel", "sodium 139, potassium 4.1, creatinine 0.9 mg/dL"),
    ("vitamin D", "25-OH vitamin D 18 ng/mL"),
]
SERVICES = ["office visit", "specialist consultation", "lab work", "x-ray", "mri", "physical therapy"]
DENIALS = ["out_of_network", "missing_referral", "not_covered", "coding_error"]
SLOT_TIMES = ["09:00", "10:30", "13:00", "14:30", "16:00"]
ALLOWED = {"primary": 160.0, "specialist": 280.0, "telehealth": 90.0, "lab": 60.0, "imaging": 1400.0}


def _plans() -> Table:
    covered = ["primary", "specialist", "telehealth", "lab", "imaging", "physical_therapy"]
    plans = [
        (
            "evergreen-hmo",
            "Evergreen HMO Silver",
            "HMO",
            {"primary": 20.0, "specialist": 45.0, "telehealth": 10.0, "lab": 0.0},
            1500.0,
            0.2,
            5000.0,
            True,
            ["mri", "ct_scan", "sleep_study"],
        ),
        (
            "summit-ppo",
            "Summit PPO Gold",
            "PPO",
            {"primary": 30.0, "specialist": 60.0, "telehealth": 15.0, "lab": 10.0},
            750.0,
            0.1,
            3500.0,
            False,
            ["mri"],
        ),
        ("harbor-hdhp", "Harbor HDHP Bronze", "HDHP", {}, 3000.0, 0.3, 7000.0, False, ["mri", "ct_scan"]),
        (
            "coastal-care",
            "Coastal Care Medicaid",
            "HMO",
            {"primary": 0.0, "specialist": 4.0, "telehealth": 0.0, "lab": 0.0},
            0.0,
            0.0,
            500.0,
            True,
            ["mri", "ct_scan", "sleep_study", "physical_therapy"],
        ),
    ]
    return {
        plan_id: {
            "plan_id": plan_id,
            "name": name,
            "kind": kind,
            "copays": copays,
            "allowed_amounts": dict(ALLOWED),
            "deductible": deductible,
            "coinsurance": coinsurance,
            "out_of_pocket_max": oop,
            "referral_required": referral,
            "prior_auth_services": prior_auth,
            "covered_services": covered,
        }
        for plan_id, name, kind, copays, deductible, coinsurance, oop, referral, prior_auth in plans
    }


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


def _visit_type(specialty: str) -> str:
    return {"primary care": "primary", "radiology": "imaging"}.get(specialty, "specialist")


def _slots(rng: random.Random, providers: Table) -> Table:
    slots: Table = {}
    days = [NOW.date() + timedelta(days=d) for d in range(12) if (NOW.date() + timedelta(days=d)).weekday() < 5]
    for provider in providers.values():
        for day in days:
            for time in SLOT_TIMES:
                slot_id = f"slot-{provider['provider_id'][5:]}-{day.strftime('%m%d')}-{time.replace(':', '')}"
                slots[slot_id] = {
                    "slot_id": slot_id,
                    "provider_id": provider["provider_id"],
                    "start": f"{day.isoformat()}T{time}",
                    "visit_type": _visit_type(provider["specialty"]),
                    "status": "booked" if rng.random() < 0.3 else "open",
                }
    return slots


def _dob(rng: random.Random, minor: bool) -> str:
    year = rng.randint(2010, 2016) if minor else rng.randint(1942, 2000)
    return date(year, rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def build_world(seed: int = SEED, patients: int = 72) -> dict[str, Table]:
    """Every table of the database, from ``seed``."""
    rng = random.Random(seed)
    plans = _plans()
    providers = _providers(rng, list(plans))
    slots = _slots(rng, providers)
    pcps = [p for p in providers.values() if p["specialty"] == "primary care"]
    tables: dict[str, Table] = {
        "patients": {},
        "providers": providers,
        "slots": slots,
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
    counters = {"appt": 0, "rx": 0, "ref": 0, "pa": 0, "clm": 0, "bill": 0, "lab": 0}

    def next_id(kind: str) -> str:
        counters[kind] += 1
        return f"{kind}-{counters[kind]:04d}"

    for number in range(1, patients + 1):
        _patient(rng, tables, number, pcps, next_id)
    return tables


def _patient(
    rng: random.Random, tables: dict[str, Table], number: int, pcps: list[dict[str, Any]], next_id: Any
) -> None:
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
                "date_of_birth": _dob(rng, minor=False),
                "scopes": granted,
            }
        )
    deductible_met = rng.choice([0.0, round(plan["deductible"] * rng.choice([0.25, 0.5, 0.9]), 2), plan["deductible"]])
    patient = {
        "patient_id": patient_id,
        "first_name": first,
        "last_name": last,
        "date_of_birth": _dob(rng, minor),
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
    calendar = _appointments(rng, tables, patient)
    pharmacy_app = _prescriptions(rng, tables, patient)
    _referrals(rng, tables, patient)
    _claims(rng, tables, patient)
    _labs(rng, tables, patient)
    _device(rng, tables, patient, calendar, pharmacy_app)


def _appointments(rng: random.Random, tables: dict[str, Table], patient: dict[str, Any]) -> list[dict[str, str]]:
    calendar = []
    booked = [s for s in tables["slots"].values() if s["status"] == "booked" and s["slot_id"] not in _taken(tables)]
    for _ in range(rng.randint(1, 2)):
        slot = rng.choice(booked)
        booked.remove(slot)
        provider = tables["providers"][slot["provider_id"]]
        appointment_id = f"appt-{len(tables['appointments']) + 1:04d}"
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
    for day, title in ((rng.randint(10, 21), "Work shift"), (rng.randint(10, 21), "Kids' recital")):
        start = f"2025-03-{day:02d}T{rng.choice(SLOT_TIMES)}"
        calendar.append({"event_id": f"ev-{patient['patient_id']}-{len(calendar)}", "title": title, "start": start})
    return calendar


def _taken(tables: dict[str, Table]) -> set[str]:
    return {a["slot_id"] for a in tables["appointments"].values()}


def _prescriptions(rng: random.Random, tables: dict[str, Table], patient: dict[str, Any]) -> list[dict[str, str | int]]:
    app: list[dict[str, str | int]] = []
    for drug, dose, schedule, supply in rng.sample(DRUGS, rng.randint(1, 3)):
        rx_id = f"rx-{len(tables['prescriptions']) + 1:04d}"
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


def _referrals(rng: random.Random, tables: dict[str, Table], patient: dict[str, Any]) -> None:
    for specialty in rng.sample(SPECIALTIES, rng.randint(0, 2)):
        referral_id = f"ref-{len(tables['referrals']) + 1:04d}"
        status = rng.choice(["approved", "approved", "pending", "expired"])
        expires = "2025-01-31" if status == "expired" else "2025-09-30"
        tables["referrals"][referral_id] = {
            "referral_id": referral_id,
            "patient_id": patient["patient_id"],
            "specialty": specialty,
            "status": status,
            "expires": expires,
        }
    if rng.random() < 0.3:
        auth_id = f"pa-{len(tables['prior_auths']) + 1:04d}"
        tables["prior_auths"][auth_id] = {
            "auth_id": auth_id,
            "patient_id": patient["patient_id"],
            "service": "mri",
            "status": rng.choice(["approved", "pending"]),
        }


def _claims(rng: random.Random, tables: dict[str, Table], patient: dict[str, Any]) -> None:
    providers = list(tables["providers"].values())
    for _ in range(rng.randint(1, 2)):
        claim_id = f"clm-{len(tables['claims']) + 1:04d}"
        provider = rng.choice(providers)
        billed = float(rng.choice([180, 320, 540, 900, 1650]))
        denied = rng.random() < 0.35
        owes = billed if denied else round(billed * rng.choice([0.0, 0.2, 0.3]), 2)
        days_ago = rng.choice([20, 45, 90, 150, 210, 260])
        tables["claims"][claim_id] = {
            "claim_id": claim_id,
            "patient_id": patient["patient_id"],
            "provider_id": provider["provider_id"],
            "service_date": (NOW.date() - timedelta(days=days_ago)).isoformat(),
            "service": rng.choice(SERVICES),
            "billed": billed,
            "plan_paid": 0.0 if denied else round(billed - owes, 2),
            "patient_owes": owes,
            "status": "denied" if denied else "paid",
            "denial_reason": rng.choice(DENIALS) if denied else None,
            "dispute_reason": None,
        }
        if owes > 0:
            bill_id = f"bill-{len(tables['bills']) + 1:04d}"
            tables["bills"][bill_id] = {
                "bill_id": bill_id,
                "patient_id": patient["patient_id"],
                "claim_id": claim_id,
                "amount_due": owes,
                "status": "open",
                "plan_months": None,
            }


def _labs(rng: random.Random, tables: dict[str, Table], patient: dict[str, Any]) -> None:
    for test, summary in rng.sample(LABS, rng.randint(1, 2)):
        lab_id = f"lab-{len(tables['lab_results']) + 1:04d}"
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
    card = {
        "plan_name": plan["name"],
        "member_id": patient["member_id"],
        "group_number": f"GRP-{rng.randint(1000, 9999)}",
    }
    if rng.random() < 0.3:  # a new card the clinic has not seen yet
        new_plan = rng.choice([p for p in tables["plans"].values() if p["plan_id"] != plan["plan_id"]])
        card = {
            "plan_name": new_plan["name"],
            "member_id": f"{new_plan['plan_id'][:3].upper()}{rng.randint(10**7, 10**8 - 1)}",
            "group_number": f"GRP-{rng.randint(1000, 9999)}",
        }
    glucose = "type 2 diabetes" in patient["conditions"]
    if glucose:
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
    tables["devices"][patient["patient_id"]] = {
        "patient_id": patient["patient_id"],
        "passcode": f"{rng.randint(0, 9999):04d}{int(patient['patient_id'][4:]):02d}",
        "unlocked": False,
        "insurance_card": card,
        "sms_inbox": [{"from": "Pharmacy", "text": "Your prescription is ready for pickup."}],
        "monitor": {"kind": "glucose meter" if glucose else "blood pressure cuff"},
        "monitor_queue": queue,
        "monitor_history": [],
        "pharmacy_app": pharmacy_app,
        "calendar": sorted(calendar, key=lambda event: event["start"]),
    }
