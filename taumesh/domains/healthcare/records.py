"""What both healthcare releases' worlds are made of: the vocabularies, the plans, and the record builders they share.

Each builder draws from ``rng`` in one fixed order, so release 1 and release 2 rebuild byte for byte from it
(``python -m taumesh.domains.healthcare.build --check`` and ``python -m taumesh.domains.healthcare.v2.build --check``);
what a release does differently (how often, which drugs, whose ids carry a world's tag) is a parameter.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from taumesh.domains.healthcare.clock import NOW

Table = dict[str, dict[str, Any]]
"""One table: records by id."""

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


def plans() -> Table:
    """The four insurance plans, shared by every world (their ids carry no tag)."""
    covered = ["primary", "specialist", "telehealth", "lab", "imaging", "physical_therapy"]
    rows = [
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
        for plan_id, name, kind, copays, deductible, coinsurance, oop, referral, prior_auth in rows
    }


def empty_tables(plans: Table, providers: Table, slots: Table) -> dict[str, Table]:
    """Every table of a world, those filled per patient still empty."""
    return {
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


def slots(rng: random.Random, providers: Table) -> Table:
    """Every provider's slots over the next twelve days' weekdays, about 30 % of them booked."""
    found: Table = {}
    days = [NOW.date() + timedelta(days=d) for d in range(12) if (NOW.date() + timedelta(days=d)).weekday() < 5]
    for provider in providers.values():
        visit = {"primary care": "primary", "radiology": "imaging"}.get(provider["specialty"], "specialist")
        for day in days:
            for time in SLOT_TIMES:
                slot_id = f"slot-{provider['provider_id'][5:]}-{day.strftime('%m%d')}-{time.replace(':', '')}"
                found[slot_id] = {
                    "slot_id": slot_id,
                    "provider_id": provider["provider_id"],
                    "start": f"{day.isoformat()}T{time}",
                    "visit_type": visit,
                    "status": "booked" if rng.random() < 0.3 else "open",
                }
    return found


def dob(rng: random.Random, low: int, high: int) -> str:
    """A date of birth in the years ``low`` to ``high``."""
    return date(rng.randint(low, high), rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def next_id(tables: dict[str, Table], table: str, prefix: str, tag: str) -> str:
    """The id of ``table``'s next record: ``prefix-0001``, or ``prefix-tag-0001`` in a world tagged ``tag``."""
    return "-".join([prefix, *([tag] if tag else []), f"{len(tables[table]) + 1:04d}"])


def appointments(
    rng: random.Random, tables: dict[str, Table], tag: str, patient: dict[str, Any], after: str, errand: str
) -> list[dict[str, str]]:
    """One or two booked slots the patient holds, and their phone's calendar: those and two events of their own.

    Only slots starting after ``after`` are booked for them ("" for any); ``errand`` is the second event's title.
    """
    calendar = []
    taken = {a["slot_id"] for a in tables["appointments"].values()}
    booked = [
        s
        for s in tables["slots"].values()
        if s["status"] == "booked" and s["slot_id"] not in taken and s["start"] > after
    ]
    for _ in range(rng.randint(1, 2)):
        slot = rng.choice(booked)
        booked.remove(slot)
        provider = tables["providers"][slot["provider_id"]]
        appointment_id = next_id(tables, "appointments", "appt", tag)
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
    for day, title in ((rng.randint(10, 21), "Work shift"), (rng.randint(10, 21), errand)):
        start = f"2025-03-{day:02d}T{rng.choice(SLOT_TIMES)}"
        calendar.append({"event_id": f"ev-{patient['patient_id']}-{len(calendar)}", "title": title, "start": start})
    return calendar


def prescriptions(
    rng: random.Random,
    tables: dict[str, Table],
    tag: str,
    patient: dict[str, Any],
    drugs: list[tuple[str, str, str | None, int]],
) -> list[dict[str, str | int]]:
    """One to three of ``drugs`` prescribed to the patient, and their pharmacy app's view of them."""
    app: list[dict[str, str | int]] = []
    for drug, dose, schedule, supply in rng.sample(drugs, rng.randint(1, min(3, len(drugs)))):
        rx_id = next_id(tables, "prescriptions", "rx", tag)
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


def referrals(
    rng: random.Random, tables: dict[str, Table], tag: str, patient: dict[str, Any], prior_auth_share: float
) -> None:
    """Up to two referrals, and with probability ``prior_auth_share`` an MRI prior authorization."""
    for specialty in rng.sample(SPECIALTIES, rng.randint(0, 2)):
        referral_id = next_id(tables, "referrals", "ref", tag)
        status = rng.choice(["approved", "approved", "pending", "expired"])
        tables["referrals"][referral_id] = {
            "referral_id": referral_id,
            "patient_id": patient["patient_id"],
            "specialty": specialty,
            "status": status,
            "expires": "2025-01-31" if status == "expired" else "2025-09-30",
        }
    if rng.random() < prior_auth_share:
        auth_id = next_id(tables, "prior_auths", "pa", tag)
        tables["prior_auths"][auth_id] = {
            "auth_id": auth_id,
            "patient_id": patient["patient_id"],
            "service": "mri",
            "status": rng.choice(["approved", "pending"]),
        }


def claims(
    rng: random.Random, tables: dict[str, Table], tag: str, patient: dict[str, Any], denied_share: float
) -> None:
    """One or two past claims, each denied with probability ``denied_share``, and a bill for what the patient owes."""
    providers = list(tables["providers"].values())
    for _ in range(rng.randint(1, 2)):
        claim_id = next_id(tables, "claims", "clm", tag)
        provider = rng.choice(providers)
        billed = float(rng.choice([180, 320, 540, 900, 1650]))
        denied = rng.random() < denied_share
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
            bill_id = next_id(tables, "bills", "bill", tag)
            tables["bills"][bill_id] = {
                "bill_id": bill_id,
                "patient_id": patient["patient_id"],
                "claim_id": claim_id,
                "amount_due": owes,
                "status": "open",
                "plan_months": None,
            }


def insurance_card(rng: random.Random, plan_name: str, member_id: str) -> dict[str, str]:
    """An insurance card as the patient's phone shows it."""
    return {"plan_name": plan_name, "member_id": member_id, "group_number": f"GRP-{rng.randint(1000, 9999)}"}


def device(
    patient: dict[str, Any],
    passcode: str,
    card: dict[str, str],
    queue: list[dict[str, Any]],
    calendar: list[dict[str, str]],
    pharmacy_app: list[dict[str, str | int]],
) -> dict[str, Any]:
    """The patient's phone: locked, with their card, a pharmacy text, their home monitor's readings and calendar."""
    glucose = "type 2 diabetes" in patient["conditions"]
    return {
        "patient_id": patient["patient_id"],
        "passcode": passcode,
        "unlocked": False,
        "insurance_card": card,
        "sms_inbox": [{"from": "Pharmacy", "text": "Your prescription is ready for pickup."}],
        "monitor": {"kind": "glucose meter" if glucose else "blood pressure cuff"},
        "monitor_queue": queue,
        "monitor_history": [],
        "pharmacy_app": pharmacy_app,
        "calendar": sorted(calendar, key=lambda event: event["start"]),
    }
