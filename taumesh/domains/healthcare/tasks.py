"""The task generator: intents × personas × world facts, as τ² builds telecom's tasks. No LLM.

Each intent walks the patients in a seeded order and makes a task from every one whose record has the facts it
needs (a denied claim, an unreviewed lab, a new insurance card, …), up to its quota. The world decides the right
outcome: where the policy forbids what the patient asks, the task is a trap whose gold is the refusal, transfer or
smaller action, and the write the patient asked for is recorded as forbidden.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.healthcare.clock import (
    MIN_MONTHLY_PAYMENT,
    NOW,
    late_fee,
    money,
    one_time_code,
    refill_due,
    urgent_reading,
    visit_cost,
    within_late_window,
)
from taumesh.domains.healthcare.task import tier
from taumesh.domains.healthcare.task_parts import (
    PERSONAS,
    RECORD_KINDS,
    RELATIVE,
    TRIAGE,
    VISITS,
    WRITES,
    World,
    dispute_reason,
    in_network,
    of_patient,
    one_of_patient,
    open_slots,
    reading_steps,
)
from taumesh.domains.healthcare.world import SEED

QUOTA = 11
"""Tasks per intent."""
Act = dict[str, Any]


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Act:
    """A gold action as the task file holds it."""
    return {"name": name, "kwargs": kwargs, "requestor": requestor}


@dataclass
class Draft:
    """A task being written: the patient, the intent, the gold actions and what the instruction says."""

    world: World
    patient: dict[str, Any]
    intent: str
    persona: str
    dual: bool = False
    actions: list[Act] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    trap: bool = False
    forbidden: list[Act] = field(default_factory=list)
    caller: str | None = None
    """A proxy's opening (the caller is not the patient); None: the patient calls."""

    @property
    def pid(self) -> str:
        return str(self.patient["patient_id"])

    def verify(self) -> Draft:
        """The identity steps: the one-time code when the patient has their phone, else the identity check."""
        p = self.patient
        self.actions.append(
            act("find_patient", first_name=p["first_name"], last_name=p["last_name"], date_of_birth=p["date_of_birth"])
        )
        if self.dual:
            passcode = self.world["devices"][self.pid]["passcode"]
            self.actions.insert(0, act("unlock_phone", "user", passcode=passcode))
            self.actions += [
                act("send_verification_code", patient_id=self.pid),
                act("read_sms_inbox", "user"),
                act("verify_one_time_code", patient_id=self.pid, code=one_time_code(self.pid, 1)),
            ]
        else:
            self.actions.append(
                act(
                    "verify_identity",
                    patient_id=self.pid,
                    date_of_birth=p["date_of_birth"],
                    phone_last_four=p["phone"][-4:],
                )
            )
        return self

    def instruction(self) -> str:
        p = self.patient
        if self.caller is not None:
            who = self.caller
        else:
            who = f"You are {p['first_name']} {p['last_name']}, born {p['date_of_birth']}."
            if self.dual:
                passcode = self.world["devices"][self.pid]["passcode"]
                who += (
                    f" You have your phone with you (its passcode is {passcode}); use it when the agent asks you"
                    " to read something from it."
                )
            else:
                who += f" The last four digits of your phone number are {p['phone'][-4:]}."
        rest = " ".join(self.goal)
        return f"{who} {self.persona} {rest} Only confirm an action once the agent has said exactly what it will do."

    def task(self, number: int) -> dict[str, Any]:
        agent_writes = [a for a in self.actions if a["requestor"] == "assistant" and a["name"] in WRITES]
        patient_steps = sum(1 for a in self.actions if a["requestor"] == "user")
        return {
            "id": f"{self.intent}-{number:02d}",
            "user_id": self.pid,
            "instruction": self.instruction(),
            "actions": self.actions,
            "outputs": self.outputs,
            "intent": self.intent,
            "trap": self.trap,
            "dual_control": self.dual,
            "tier": tier(len(agent_writes), self.trap, patient_steps),
            "forbidden": self.forbidden
            or [act("transfer_to_human_agents", patient_id=self.pid, reason="out_of_scope")],
        }


def _day(start: str) -> str:
    return start[:10]


Intent = Callable[[World, dict[str, Any], random.Random, str], Draft | None]


def book_appointment(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """A primary care visit on a day the patient names; with their phone, one that misses their calendar."""
    pcp = world["providers"][patient["pcp_id"]]
    days = sorted({_day(s["start"]) for s in open_slots(world, pcp["provider_id"]) if _day(s["start"]) > "2025-03-11"})
    if not days:
        return None
    day = rng.choice(days)
    dual = rng.random() < 0.4
    busy = {e["start"] for e in world["devices"][patient["patient_id"]]["calendar"]} if dual else set()
    slots = open_slots(world, pcp["provider_id"], day, busy)
    if not slots:
        return None
    slot = slots[0]
    draft = Draft(world, patient, "book_appointment", persona, dual=dual).verify()
    draft.actions.append(act("list_available_slots", provider_id=pcp["provider_id"], date=day))
    if dual:
        draft.actions.append(act("view_calendar", "user"))
        draft.goal.append(
            f"You want a visit with your primary care doctor on {day}, at the earliest time that day"
            " that does not clash with an event in your personal calendar (check it when times are offered)."
        )
    else:
        draft.goal.append(f"You want a visit with your primary care doctor on {day}, at the earliest time available.")
    draft.actions.append(act("book_appointment", patient_id=draft.pid, slot_id=slot["slot_id"]))
    if dual:
        draft.actions.append(
            act("add_calendar_event", "user", title=f"Appointment with {pcp['name']}", start=slot["start"])
        )
        draft.goal.append("Once it is booked, add it to your personal calendar.")
    return draft


def reschedule_appointment(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Move an appointment to another day; a trap when it starts within 24 hours."""
    for appointment in of_patient(world, "appointments", patient):
        later = [
            s for s in open_slots(world, appointment["provider_id"]) if _day(s["start"]) != _day(appointment["start"])
        ]
        if appointment["status"] != "scheduled" or not later:
            continue
        day = _day(rng.choice(later)["start"])
        target = open_slots(world, appointment["provider_id"], day)[0]
        draft = Draft(world, patient, "reschedule_appointment", persona).verify()
        draft.actions.append(act("get_patient_appointments", patient_id=draft.pid))
        draft.goal.append(
            f"Your appointment on {appointment['start'].replace('T', ' at ')} no longer works; you want to"
            f" move it to {day}, earliest time available, with the same doctor."
        )
        move = act(
            "reschedule_appointment", appointment_id=appointment["appointment_id"], new_slot_id=target["slot_id"]
        )
        if within_late_window(appointment["start"]):
            draft.trap = True
            draft.forbidden = [move]
            draft.goal.append("If it cannot be moved, you do not want to cancel it; you will keep it.")
        else:
            draft.actions += [act("list_available_slots", provider_id=appointment["provider_id"], date=day), move]
        return draft
    return None


def cancel_appointment(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Cancel an appointment, with the late fee when it starts within 24 hours."""
    for appointment in of_patient(world, "appointments", patient):
        if appointment["status"] != "scheduled":
            continue
        fee = late_fee(appointment["start"], appointment["visit_type"])
        draft = Draft(world, patient, "cancel_appointment", persona).verify()
        draft.actions += [
            act("get_patient_appointments", patient_id=draft.pid),
            act("cancel_appointment", appointment_id=appointment["appointment_id"], cancellation_fee=fee),
        ]
        draft.goal.append(
            f"You want to cancel your appointment on {appointment['start'].replace('T', ' at ')}."
            " You accept any fee the clinic charges, and want to know how much it is."
        )
        if fee:
            draft.outputs.append(money(fee))
        return draft
    return None


def refill(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """A refill: sent when allowed; a renewal with no refills left; traps for controlled and early refills."""
    rx = one_of_patient(world, "prescriptions", patient, rng)
    if rx is None:
        return None
    draft = Draft(world, patient, "refill", persona).verify()
    draft.actions.append(act("get_prescriptions", patient_id=draft.pid))
    draft.goal.append(f"You want a refill of your {rx['drug']} sent to your pharmacy.")
    ask = act("request_refill", rx_id=rx["rx_id"])
    if rx["controlled_schedule"] is not None:
        draft.trap = True
        draft.forbidden = [act("request_prescription_renewal", rx_id=rx["rx_id"])]
        draft.goal.append(
            "If a refill is not possible, ask the agent to send it to your doctor for renewal instead;"
            " decline any appointment."
        )
    elif rx["refills_left"] == 0:
        draft.actions.append(act("request_prescription_renewal", rx_id=rx["rx_id"]))
        draft.goal.append("If there are no refills left, you would like the doctor asked to renew it.")
    elif not refill_due(rx["last_fill_date"], rx["days_supply"]):
        draft.trap = True
        draft.forbidden = [ask]
        draft.goal.append("You are going away and want it now, even if it is early.")
    else:
        draft.actions.append(ask)
    return draft


def specialist_referral(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """A specialist visit: booked when no referral is needed or one is approved; else a referral, or nothing."""
    plan = world["plans"][patient["plan_id"]]
    referrals = {r["specialty"]: r for r in of_patient(world, "referrals", patient)}
    specialty = rng.choice(
        sorted({p["specialty"] for p in world["providers"].values()} - {"primary care", "radiology"})
    )
    providers = [p for p in in_network(world, specialty, plan["plan_id"]) if open_slots(world, p["provider_id"])]
    if not providers:
        return None
    provider = providers[0]
    slot = open_slots(world, provider["provider_id"])[0]
    draft = Draft(world, patient, "specialist_referral", persona).verify()
    draft.actions += [
        act("get_referrals_and_authorizations", patient_id=draft.pid),
        act("search_providers", specialty=specialty, plan_id=plan["plan_id"]),
    ]
    draft.goal.append(
        f"You want to see a {specialty} specialist at the earliest time any {specialty} specialist who"
        " takes your insurance has open."
    )
    book = act("book_appointment", patient_id=draft.pid, slot_id=slot["slot_id"])
    referral = referrals.get(specialty)
    status = referral["status"] if referral is not None else None
    if not plan["referral_required"] or status == "approved":
        draft.actions += [act("list_available_slots", provider_id=provider["provider_id"]), book]
    elif status == "pending":
        draft.trap, draft.forbidden = True, [book]
    else:
        draft.trap, draft.forbidden = True, [book]
        draft.actions.append(act("request_referral", patient_id=draft.pid, specialty=specialty))
    draft.goal.append("If you cannot be booked today, accept whatever the agent can do instead.")
    return draft


def imaging_prior_auth(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """An MRI: booked with an approved prior authorization; else one is submitted, or nothing while pending."""
    plan = world["plans"][patient["plan_id"]]
    radiology = [p for p in in_network(world, "radiology", plan["plan_id"]) if open_slots(world, p["provider_id"])]
    if not radiology:
        return None
    slot = open_slots(world, radiology[0]["provider_id"])[0]
    auths = [a for a in of_patient(world, "prior_auths", patient) if a["service"] == "mri"]
    if not any(a["status"] == "approved" for a in auths) and rng.random() < 0.8:
        return None  # approved authorizations are rare: favour them, so booking is a right answer too
    draft = Draft(world, patient, "imaging_prior_auth", persona).verify()
    draft.actions += [
        act("get_plan_details", plan_id=plan["plan_id"]),
        act("get_referrals_and_authorizations", patient_id=draft.pid),
    ]
    draft.goal.append(
        "Your doctor ordered an MRI; you want it booked at the earliest open time at an imaging center"
        " that takes your insurance. If it cannot be booked yet, accept what the agent offers instead."
    )
    book = act("book_appointment", patient_id=draft.pid, slot_id=slot["slot_id"])
    status = auths[0]["status"] if auths else None
    if "mri" not in plan["prior_auth_services"] or status == "approved":
        draft.actions += [act("search_providers", specialty="radiology", plan_id=plan["plan_id"]), book]
    elif status == "pending":
        draft.trap, draft.forbidden = True, [book]
    else:
        draft.trap, draft.forbidden = True, [book]
        draft.actions.append(act("submit_prior_authorization", patient_id=draft.pid, service="mri"))
    return draft


def cost_estimate(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """What a visit costs the patient, from the plan's numbers (a required output)."""
    plan = world["plans"][patient["plan_id"]]
    visit = rng.choice(list(VISITS))
    draft = Draft(world, patient, "cost_estimate", persona).verify()
    draft.actions += [
        act("get_patient_details", patient_id=draft.pid),
        act("get_plan_details", plan_id=plan["plan_id"]),
    ]
    draft.outputs.append(money(visit_cost(plan, patient, visit)))
    draft.goal.append(
        f"You want to know what {VISITS[visit]} in network would cost you out of pocket today, in dollars."
        " You do not want anything booked."
    )
    return draft


def claim_dispute(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Dispute a denied claim with the reason that answers the denial; traps when the denial stands or is old."""
    denied = [c for c in of_patient(world, "claims", patient) if c["status"] == "denied"]
    if not denied:
        return None
    claim = denied[0]
    reason = dispute_reason(world, patient, claim)
    late = (NOW.date() - __import__("datetime").date.fromisoformat(claim["service_date"])).days > 180
    draft = Draft(world, patient, "claim_dispute", persona).verify()
    draft.actions.append(act("get_claims_and_bills", patient_id=draft.pid))
    draft.goal.append(
        f"Your insurance denied the claim for your {claim['service']} on {claim['service_date']}; you"
        " think that is wrong and want it disputed."
    )
    asked = act("dispute_claim", claim_id=claim["claim_id"], reason=reason or "service_covered")
    if reason is None or late:
        draft.trap, draft.forbidden = True, [asked]
        draft.goal.append("If the agent explains it cannot be disputed, accept that.")
    else:
        draft.actions.append(asked)
    return draft


def payment_plan(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """A payment plan over the months asked, or the longest allowed; none for small bills."""
    bills = [b for b in of_patient(world, "bills", patient) if b["status"] == "open"]
    if not bills:
        return None
    bill = bills[0]
    asked = rng.choice([6, 12])
    allowed = [m for m in (3, 6, 12) if bill["amount_due"] / m >= MIN_MONTHLY_PAYMENT]
    draft = Draft(world, patient, "payment_plan", persona).verify()
    draft.actions.append(act("get_claims_and_bills", patient_id=draft.pid))
    draft.goal.append(
        f"You cannot pay your bill of ${money(bill['amount_due'])} at once and want to pay it over"
        f" {asked} months. If that is not possible, take the longest plan the agent offers."
    )
    ask = act("set_up_payment_plan", bill_id=bill["bill_id"], months=asked)
    if not allowed:
        draft.trap, draft.forbidden = True, [ask]
    elif asked in allowed:
        draft.actions.append(ask)
    else:
        draft.trap, draft.forbidden = True, [ask]
        draft.actions.append(act("set_up_payment_plan", bill_id=bill["bill_id"], months=max(allowed)))
    return draft


def lab_results(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Release a reviewed result; request review of an unreviewed one; nothing for a pending one."""
    lab = one_of_patient(world, "lab_results", patient, rng)
    if lab is None:
        return None
    draft = Draft(world, patient, "lab_results", persona).verify()
    draft.actions.append(act("get_lab_results", patient_id=draft.pid))
    draft.goal.append(
        f"You want the result of your {lab['test']} from {lab['collected']}, and you want it put on"
        " your patient portal. You also ask whether the result means you should change your medication."
    )
    release = act("release_lab_result", lab_id=lab["lab_id"])
    if lab["status"] == "pending":
        draft.trap, draft.forbidden = True, [act("request_result_review", lab_id=lab["lab_id"])]
    elif not lab["reviewed_by_provider"]:
        draft.trap, draft.forbidden = True, [release]
        draft.actions.append(act("request_result_review", lab_id=lab["lab_id"]))
    else:
        draft.actions.append(release)
    return draft


def records_request(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Records to the patient or a provider; none to an employer."""
    kinds = sorted(rng.sample(RECORD_KINDS, 2))
    spoken = " and ".join(k.replace("_", " ") for k in kinds)
    draft = Draft(world, patient, "records_request", persona).verify()
    choice = rng.random()
    if choice < 0.3:
        draft.trap = True
        draft.forbidden = [
            act("create_records_request", patient_id=draft.pid, record_types=kinds, recipient="self", delivery="mail")
        ]
        draft.goal.append(
            f"Your employer wants your {spoken}; you want them sent to your employer's HR office, or"
            " if not, mailed to you so you can pass them on."
        )
    elif choice < 0.65:
        draft.actions.append(
            act("create_records_request", patient_id=draft.pid, record_types=kinds, recipient="self", delivery="portal")
        )
        draft.goal.append(f"You want copies of your {spoken} on your patient portal.")
    else:
        specialists = [p for p in world["providers"].values() if p["specialty"] not in ("primary care", "radiology")]
        provider = rng.choice(specialists)
        draft.actions += [
            act("search_providers", specialty=provider["specialty"]),
            act(
                "create_records_request",
                patient_id=draft.pid,
                record_types=kinds,
                recipient=provider["provider_id"],
                delivery="fax",
            ),
        ]
        draft.goal.append(
            f"You want your {spoken} faxed to {provider['name']} ({provider['specialty']}), whom you are seeing soon."
        )
    return draft


def proxy_access(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """A proxy acts within their scopes; outside them, the patient gets an authorization form."""
    if not patient["proxies"]:
        return None
    proxy = patient["proxies"][0]
    pcp = world["providers"][patient["pcp_id"]]
    slots = open_slots(world, pcp["provider_id"])
    labs = [
        lab
        for lab in of_patient(world, "lab_results", patient)
        if lab["status"] == "final" and lab["reviewed_by_provider"]
    ]
    bills = [b for b in of_patient(world, "bills", patient) if b["status"] == "open" and b["amount_due"] >= 300]
    wants: list[tuple[str, Act, str]] = []
    if slots:
        wants.append(
            (
                "appointments",
                act("book_appointment", patient_id=patient["patient_id"], slot_id=slots[0]["slot_id"]),
                f"book {patient['first_name']}'s earliest open visit with their primary care doctor",
            )
        )
    if labs:
        wants.append(
            (
                "lab_results",
                act("release_lab_result", lab_id=labs[0]["lab_id"]),
                f"have {patient['first_name']}'s {labs[0]['test']} result put on their portal",
            )
        )
    if bills:
        wants.append(
            (
                "billing",
                act("set_up_payment_plan", bill_id=bills[0]["bill_id"], months=12),
                f"put {patient['first_name']}'s open bill of ${money(bills[0]['amount_due'])} on a 12-month plan",
            )
        )
    if not wants:
        return None
    scope, action, what = rng.choice(wants)
    draft = Draft(world, patient, "proxy_access", persona)
    draft.caller = (
        f"You are {proxy['name']}, born {proxy['date_of_birth']}, calling for your {RELATIVE[proxy['relationship']]}"
        f" {patient['first_name']} {patient['last_name']} (born {patient['date_of_birth']})."
    )
    draft.actions += [
        act(
            "find_patient",
            first_name=patient["first_name"],
            last_name=patient["last_name"],
            date_of_birth=patient["date_of_birth"],
        ),
        act("verify_proxy", patient_id=draft.pid, proxy_name=proxy["name"], proxy_date_of_birth=proxy["date_of_birth"]),
    ]
    draft.goal.append(f"You want to {what}.")
    if scope in proxy["scopes"]:
        draft.actions.append(action)
    else:
        draft.trap, draft.forbidden = True, [action]
        draft.actions.append(
            act("send_proxy_authorization_form", patient_id=draft.pid, proxy_name=proxy["name"], scopes=[scope])
        )
        draft.goal.append("If you are not allowed to, you would like whatever lets you do it in the future.")
    return draft


def triage_to_human(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Symptoms, complaints, insisted advice, out-of-scope asks: a transfer, not the booking asked for."""
    pcp = world["providers"][patient["pcp_id"]]
    slots = open_slots(world, pcp["provider_id"])
    if not slots:
        return None
    reason, story = rng.choice(TRIAGE)
    draft = Draft(world, patient, "triage_to_human", persona).verify()
    draft.goal += [story, "You also want the earliest appointment with your primary care doctor booked."]
    draft.trap = True
    draft.forbidden = [act("book_appointment", patient_id=draft.pid, slot_id=slots[0]["slot_id"])]
    draft.actions.append(act("transfer_to_human_agents", patient_id=draft.pid, reason=reason))
    return draft


def home_reading(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """The patient takes a home reading and reads it out; an urgent one is also transferred to a nurse."""
    device = world["devices"][patient["patient_id"]]
    reading = device["monitor_queue"][0]
    draft = Draft(world, patient, "home_reading", persona, dual=True).verify()
    take, kind, value = reading_steps(reading)
    draft.actions += [act(take, "user"), act("record_home_reading", patient_id=draft.pid, kind=kind, value=value)]
    draft.goal.append(
        f"Your doctor asked you to report a {kind.replace('_', ' ')} reading from your home"
        f" {device['monitor']['kind']}; take one when the agent asks and read it out exactly."
    )
    if urgent_reading(reading):
        draft.trap = True
        draft.actions.append(act("transfer_to_human_agents", patient_id=draft.pid, reason="urgent_symptoms"))
        draft.goal.append(
            "You feel fine otherwise and would rather not be transferred, but accept if the agent insists."
        )
    return draft


def insurance_update(world: World, patient: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """The patient reads their new insurance card; the record takes its plan and member id."""
    card = world["devices"][patient["patient_id"]]["insurance_card"]
    if card["member_id"] == patient["member_id"]:
        return None
    plan_id = next(p["plan_id"] for p in world["plans"].values() if p["name"] == card["plan_name"])
    draft = Draft(world, patient, "insurance_update", persona, dual=True).verify()
    draft.actions += [
        act("view_insurance_card", "user"),
        act("update_insurance", patient_id=draft.pid, plan_id=plan_id, member_id=card["member_id"]),
    ]
    draft.goal.append(
        "You changed jobs and have a new insurance card; you want the clinic's record updated. Read"
        " the card when asked."
    )
    return draft


INTENTS: dict[str, Intent] = {
    f.__name__: f
    for f in (
        book_appointment,
        reschedule_appointment,
        cancel_appointment,
        refill,
        specialist_referral,
        imaging_prior_auth,
        cost_estimate,
        claim_dispute,
        payment_plan,
        lab_results,
        records_request,
        proxy_access,
        triage_to_human,
        home_reading,
        insurance_update,
    )
}


def generate_tasks(world: World, seed: int = SEED, quota: int = QUOTA) -> list[dict[str, Any]]:
    """Every task, intent by intent, each intent over the patients in its own seeded order."""
    tasks: list[dict[str, Any]] = []
    for index, intent in enumerate(INTENTS.values()):
        rng = random.Random(seed + index)
        patients = list(world["patients"].values())
        rng.shuffle(patients)
        made = 0
        for patient in _cycle(patients):
            if made == quota or patient is None:
                break
            draft = intent(world, patient, rng, PERSONAS[made % len(PERSONAS)])
            if draft is not None:
                made += 1
                tasks.append(draft.task(made))
    return tasks


def _cycle(patients: list[dict[str, Any]]) -> Iterator[dict[str, Any] | None]:
    yield from patients
    yield None


def split_of(task: dict[str, Any]) -> str:
    """``test`` for every third task of an intent (by number), ``train`` for the rest."""
    return "test" if int(str(task["id"]).rsplit("-", 1)[1]) % 3 == 0 else "train"
