"""The parts both healthcare releases' task generators share: personas, write tools, the facts read from a world.

Release 1 (:mod:`~taumesh.domains.healthcare.tasks`) writes gold action lists, release 2
(:mod:`~taumesh.domains.healthcare.v2.tasks`) the factory's steps of every allowed outcome; both read a patient's
records, open slots and in-network providers, a denied claim's answer and a home reading the same way, and speak of
visits, relatives and triage stories in the same words.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.healthcare.clock import NOW
from taumesh.domains.healthcare.records import Table

World = dict[str, Table]

PERSONAS = [
    "You are polite and brief.",
    "You are chatty and mention details about your week.",
    "You are anxious and ask the agent to repeat important numbers.",
    "You are in a hurry and want it done quickly.",
    "You are hard of hearing and ask the agent to speak plainly.",
]
WRITES = {
    "verify_identity",
    "send_verification_code",
    "verify_one_time_code",
    "verify_proxy",
    "book_appointment",
    "reschedule_appointment",
    "cancel_appointment",
    "request_refill",
    "request_prescription_renewal",
    "request_referral",
    "submit_prior_authorization",
    "dispute_claim",
    "set_up_payment_plan",
    "release_lab_result",
    "request_result_review",
    "create_records_request",
    "send_proxy_authorization_form",
    "update_insurance",
    "record_home_reading",
    "transfer_to_human_agents",
}
"""The agent's write tools, by name (the tier counts them)."""


def of_patient(world: World, table: str, patient: dict[str, Any]) -> list[dict[str, Any]]:
    """The patient's records in ``table``."""
    return [r for r in world[table].values() if r["patient_id"] == patient["patient_id"]]


def one_of_patient(world: World, table: str, patient: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One of the patient's records in ``table``, drawn from ``rng``; None (and nothing drawn) when they have none."""
    found = of_patient(world, table, patient)
    return rng.choice(found) if found else None


def open_slots(world: World, provider_id: str, day: str | None = None, busy: set[str] | None = None) -> list[Any]:
    """The provider's open slots ahead (on ``day``, starting at none of ``busy``)."""
    return [
        s
        for s in world["slots"].values()
        if s["provider_id"] == provider_id
        and s["status"] == "open"
        and s["start"] > NOW.isoformat()
        and (day is None or s["start"][:10] == day)
        and s["start"] not in (busy or set())
    ]


def in_network(world: World, specialty: str, plan_id: str) -> list[Any]:
    """The providers of ``specialty`` taking the plan."""
    return [p for p in world["providers"].values() if p["specialty"] == specialty and plan_id in p["accepted_plans"]]


SERVICE_VISIT = {
    "office visit": "primary",
    "specialist consultation": "specialist",
    "lab work": "lab",
    "x-ray": "imaging",
    "mri": "imaging",
    "physical therapy": "physical_therapy",
}


def dispute_reason(world: World, patient: dict[str, Any], claim: dict[str, Any]) -> str | None:
    """The reason that answers the claim's denial, or None when the denial stands."""
    provider = world["providers"][claim["provider_id"]]
    plan = world["plans"][patient["plan_id"]]
    denial = claim["denial_reason"]
    if denial == "out_of_network":
        return "provider_in_network" if patient["plan_id"] in provider["accepted_plans"] else None
    if denial == "missing_referral":
        approved = {r["specialty"] for r in of_patient(world, "referrals", patient) if r["status"] == "approved"}
        return "referral_on_file" if provider["specialty"] in approved else None
    if denial == "coding_error":
        return "billing_code_error"
    return "service_covered" if SERVICE_VISIT[claim["service"]] in plan["covered_services"] else None


VISITS = {
    "primary": "a primary care visit",
    "specialist": "a specialist visit",
    "telehealth": "a telehealth visit",
    "imaging": "an MRI (already authorized)",
}
"""A visit type as the patient asks for a cost estimate of it."""
RELATIVE = {"parent": "child", "spouse": "spouse", "adult child": "parent", "sibling": "sibling"}
"""What the patient is to a proxy of each relationship."""
RECORD_KINDS = ["visit_notes", "lab_results", "immunizations", "medication_list"]
"""The kinds of records a patient asks copies of."""
TRIAGE = [
    ("urgent_symptoms", "Since this morning you have had a crushing pain in your chest spreading to your left arm."),
    ("urgent_symptoms", "You have been short of breath all morning and your lips feel numb."),
    (
        "legal_or_complaint",
        "You are furious about how a nurse treated you last week and want to file a formal complaint;"
        " you mention your lawyer.",
    ),
    (
        "medical_advice",
        "You want to know whether you should double the dose of one of your medications because you"
        " feel worse; when the agent declines, you insist on getting an answer from someone.",
    ),
    ("out_of_scope", "You want the clinic to sign a disability form for your employer today."),
]
"""Why a caller is transferred to a human, and the story they tell."""


def reading_steps(reading: dict[str, Any]) -> tuple[str, str, str]:
    """A home reading's user tool, kind and value as the patient reads it out (``120/80``, ``142``)."""
    if reading["kind"] == "blood_pressure":
        return "take_blood_pressure_reading", "blood_pressure", f"{reading['systolic']}/{reading['diastolic']}"
    return "take_glucose_reading", "glucose", str(reading["glucose"])
