"""Healthcare v2's reference solvers: per intent, every outcome the policy allows, from a world and a patient.

Each intent reads the patient's record as v1's generator does, but answers with the factory's parts: the steps of
every allowed outcome (either verification method and a resent code where the patient holds their phone, ties
between providers, an urgent transfer with or without verification), the statements the agent must make (the date a
refill becomes possible, why a claim cannot be disputed), the forbidden writes of a trap and the clause that forbids
them. The instruction of an intent is one template for its trap and non-trap tasks alike: no sentence cues a trap.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Self

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, World, act
from taumesh.domains.healthcare.clock import (
    EARLY_REFILL_SHARE,
    MIN_MONTHLY_PAYMENT,
    NOW,
    at,
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
    dispute_reason,
    in_network,
    of_patient,
    one_of_patient,
    open_slots,
    reading_steps,
)
from taumesh.domains.healthcare.v2.world import ADULT, age

Patient = dict[str, Any]
MAX_CODES = 3
"""A code resent up to twice is still an allowed verification (policy 2.3)."""
TAIL = "Only confirm an action once the agent has said exactly what it will do."


@dataclass
class Draft(TaskDraft):
    """A task being solved for one patient: the factory's draft, with who calls and what the instruction says."""

    world: World
    patient: Patient
    persona: str
    goal: list[str] = field(default_factory=list)
    caller: str | None = None

    @property
    def pid(self) -> str:
        return str(self.patient["patient_id"])

    def find(self) -> Action:
        p = self.patient
        return act(
            "find_patient", first_name=p["first_name"], last_name=p["last_name"], date_of_birth=p["date_of_birth"]
        )

    def identity_paths(self) -> list[list[Action]]:
        """Every allowed verification: with the phone, a code (sent up to 3 times) or the identity check (2.2, 2.3)."""
        p = self.patient
        identity = [
            self.find(),
            act(
                "verify_identity",
                patient_id=self.pid,
                date_of_birth=p["date_of_birth"],
                phone_last_four=p["phone"][-4:],
            ),
        ]
        if not self.dual:
            return [identity]
        codes = [
            [
                self.find(),
                *[act("send_verification_code", patient_id=self.pid) for _ in range(sent)],
                act("read_sms_inbox", "user"),
                act("verify_one_time_code", patient_id=self.pid, code=one_time_code(self.pid, sent)),
            ]
            for sent in range(1, MAX_CODES + 1)
        ]
        return [codes[0], identity, *codes[1:]]

    def verify(self, optional: bool = False) -> Self:
        """The unlock (with the phone), then every allowed verification; ``optional``: none at all is allowed too."""
        if self.dual:
            self.do(act("unlock_phone", "user", passcode=self.world["devices"][self.pid]["passcode"]))
        paths = self.identity_paths()
        why = "verification: " + ("either method, a code resent or not (2.2, 2.3)" if self.dual else "identity (2.2)")
        if optional:
            paths.append([])
            why += "; none before a transfer (2.4)"
        self.cite("2.1", "2.2", *(("2.3",) if self.dual else ()))
        return self.step(why, *paths)

    def instruction(self) -> str:
        p = self.patient
        if self.caller is not None:
            who = self.caller
        else:
            who = (
                f"You are {p['first_name']} {p['last_name']}, born {p['date_of_birth']}; the last four digits of your"
                f" phone number are {p['phone'][-4:]}."
            )
            if self.dual:
                passcode = self.world["devices"][self.pid]["passcode"]
                who += (
                    f" You have your phone with you (its passcode is {passcode}); use it when the agent asks you"
                    " to read something from it."
                )
        return " ".join([who, self.persona, *self.goal, TAIL])

    def task(self, task_id: str) -> FactoryTask:
        agent_writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES]
        patient_steps = sum(1 for a in self.gold if a.requestor == "user")
        difficulty = tier(len(agent_writes), self.is_trap, patient_steps)
        return self.factory_task(task_id, self.pid, self.instruction(), difficulty)


Solver = Callable[[World, Patient, random.Random, str], Draft | None]


def _earliest(world: World, provider_ids: list[str]) -> list[dict[str, Any]]:
    """The open slots at the earliest open time among ``provider_ids`` (several on a tie)."""
    slots = [s for pid in provider_ids for s in open_slots(world, pid)]
    if not slots:
        return []
    first = min(s["start"] for s in slots)
    return sorted((s for s in slots if s["start"] == first), key=lambda s: s["slot_id"])


def _when(start: str) -> str:
    return start.replace("T", " at ")


def book_appointment(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Primary care on a named day at its earliest time; with the phone, the earliest that misses the calendar."""
    pcp = patient["pcp_id"]
    days = sorted({s["start"][:10] for s in open_slots(world, pcp) if s["start"][:10] > "2025-03-11"})
    if not days:
        return None
    day = rng.choice(days)
    dual = rng.random() < 0.5
    busy = {e["start"] for e in world["devices"][patient["patient_id"]]["calendar"]} if dual else set()
    slots = sorted(open_slots(world, pcp, day, busy), key=lambda s: s["start"])
    if not slots:
        return None
    draft = Draft(world, patient, persona, intent="book_appointment", dual=dual).verify().cite("3.1", "4.1")
    draft.do(act("list_available_slots", provider_id=pcp, date=day))
    if dual:
        draft.do(act("view_calendar", "user"))
        draft.goal.append(
            f"You want a visit with your primary care doctor on {day}, at the earliest time that day that does not"
            " clash with an event in your personal calendar (check it when times are offered)."
        )
    else:
        draft.goal.append(f"You want a visit with your primary care doctor on {day}, at the earliest time available.")
    draft.do(act("book_appointment", patient_id=draft.pid, slot_id=slots[0]["slot_id"]))
    if dual:
        title = f"Appointment with {world['providers'][pcp]['name']}"
        draft.do(act("add_calendar_event", "user", title=title, start=slots[0]["start"]))
        draft.goal.append("Once it is booked, add it to your personal calendar.")
    return draft


def reschedule_appointment(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Move a visit to a named day; within 24 hours it cannot move: cancel (late fee) and book the new time."""
    for appointment in of_patient(world, "appointments", patient):
        provider = appointment["provider_id"]
        days = sorted({s["start"][:10] for s in open_slots(world, provider)} - {appointment["start"][:10]})
        if appointment["status"] != "scheduled" or not days:
            continue
        day = rng.choice(days)
        target = min(open_slots(world, provider, day), key=lambda s: s["start"])
        draft = Draft(world, patient, persona, intent="reschedule_appointment").verify().cite("3.1", "4.5")
        draft.do(act("get_patient_appointments", patient_id=draft.pid))
        draft.goal.append(
            f"Your appointment on {_when(appointment['start'])} no longer works; you want it moved to {day}, at the"
            " earliest time available with the same doctor. If it cannot be moved, you want it cancelled and that"
            " new time booked instead, whatever it costs."
        )
        move = act(
            "reschedule_appointment", appointment_id=appointment["appointment_id"], new_slot_id=target["slot_id"]
        )
        listing = act("list_available_slots", provider_id=provider, date=day)
        if within_late_window(appointment["start"]):
            fee = late_fee(appointment["start"], appointment["visit_type"])
            draft.trap(
                "4.5: it starts within 24 hours, so it cannot be rescheduled; it is cancelled with the late fee"
                " (4.6) and the new time booked",
                move,
            ).cite("4.6", "4.1")
            cancel = act("cancel_appointment", appointment_id=appointment["appointment_id"], cancellation_fee=fee)
            draft.do(cancel, listing, act("book_appointment", patient_id=draft.pid, slot_id=target["slot_id"]))
        else:
            draft.do(listing, move)
        return draft
    return None


def cancel_appointment(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Cancel a visit, with the late fee when it starts within 24 hours (the fee is in the record: 4.6)."""
    scheduled = [a for a in of_patient(world, "appointments", patient) if a["status"] == "scheduled"]
    if not scheduled:
        return None
    appointment = rng.choice(scheduled)
    fee = late_fee(appointment["start"], appointment["visit_type"])
    draft = Draft(world, patient, persona, intent="cancel_appointment").verify().cite("3.1", "4.6")
    draft.do(
        act("get_patient_appointments", patient_id=draft.pid),
        act("cancel_appointment", appointment_id=appointment["appointment_id"], cancellation_fee=fee),
    )
    draft.goal.append(
        f"You want to cancel your appointment on {_when(appointment['start'])}. You accept any fee the clinic"
        " charges, and want to know how much it is."
    )
    return draft


def refill_from(rx: dict[str, Any]) -> str:
    """The first date a refill may be requested (75 % of the days of supply after the last fill: 5.1)."""
    return (
        (at(rx["last_fill_date"]) + timedelta(days=math.ceil(EARLY_REFILL_SHARE * rx["days_supply"])))
        .date()
        .isoformat()
    )


def refill(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Refill when due; renewal with none left; the date when early; a prescriber's visit for a controlled drug."""
    rx = one_of_patient(world, "prescriptions", patient, rng)
    if rx is None:
        return None
    draft = Draft(world, patient, persona, intent="refill").verify().cite("5.1")
    draft.do(act("get_prescriptions", patient_id=draft.pid))
    draft.goal.append(
        f"You want a refill of your {rx['drug']} sent to your pharmacy. If that cannot be done now, you want to know"
        " from what date it can. If the agent says you need a visit, you want the earliest one with the doctor who"
        " prescribed it."
    )
    ask = act("request_refill", rx_id=rx["rx_id"])
    if rx["controlled_schedule"] is not None:
        slots = _earliest(world, [rx["prescriber_id"]])
        if not slots:
            return None
        draft.trap(
            "5.2: a controlled substance is never refilled or renewed by phone; the prescriber's earliest visit is"
            " booked instead",
            act("request_prescription_renewal", rx_id=rx["rx_id"]),  # a refill the tool refuses: none are left
        ).cite("5.2", "4.1", "3.1")
        draft.do(
            act("list_available_slots", provider_id=rx["prescriber_id"]),
            act("book_appointment", patient_id=draft.pid, slot_id=slots[0]["slot_id"]),
        )
    elif rx["refills_left"] == 0:
        draft.cite("5.3").do(act("request_prescription_renewal", rx_id=rx["rx_id"]))
    elif not refill_due(rx["last_fill_date"], rx["days_supply"]):
        draft.trap("5.1: less than 75 % of the last fill's supply has passed; the agent says from when", ask)
        draft.say("date", refill_from(rx), "5.1: the date from which the refill can be requested")
    else:
        draft.cite("3.1").do(ask)
    return draft


def _book_earliest(draft: Draft, slots: list[dict[str, Any]], why: str) -> Draft:
    return draft.step(why, *[[act("book_appointment", patient_id=draft.pid, slot_id=s["slot_id"])] for s in slots])


def specialist_referral(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """The earliest in-network specialist (any of a tie); a referral first where the plan needs one, none if pending."""
    plan = world["plans"][patient["plan_id"]]
    specialty = rng.choice(
        sorted({p["specialty"] for p in world["providers"].values()} - {"primary care", "radiology"})
    )
    providers = sorted(p["provider_id"] for p in in_network(world, specialty, plan["plan_id"]))
    slots = _earliest(world, providers)
    if not slots:
        return None
    draft = Draft(world, patient, persona, intent="specialist_referral").verify().cite("4.2", "4.3")
    draft.do(
        act("get_referrals_and_authorizations", patient_id=draft.pid),
        act("search_providers", specialty=specialty, plan_id=plan["plan_id"]),
    )
    draft.goal.append(
        f"You want to see a {specialty} specialist at the earliest time any {specialty} specialist who takes your"
        " insurance has open. If you cannot be booked yet, you accept what the agent can do instead."
    )
    books = [act("book_appointment", patient_id=draft.pid, slot_id=s["slot_id"]) for s in slots]
    approved = [
        r for r in of_patient(world, "referrals", patient) if r["specialty"] == specialty and r["status"] == "approved"
    ]
    pending = [
        r for r in of_patient(world, "referrals", patient) if r["specialty"] == specialty and r["status"] == "pending"
    ]
    if not plan["referral_required"] or approved:
        draft.cite("3.1", "4.1").do(act("list_available_slots", provider_id=slots[0]["provider_id"]))
        _book_earliest(draft, slots, "the earliest open time; any provider sharing it (4.2)")
    elif pending:
        draft.trap("4.3: the plan needs a referral and the patient's is still pending: no booking", *books)
        draft.say("text", "pending", "4.3: the referral is pending")
    else:
        draft.trap("4.3: the plan needs a referral and none is approved: a referral is requested instead", *books)
        draft.cite("3.1").do(act("request_referral", patient_id=draft.pid, specialty=specialty))
    return draft


def imaging_prior_auth(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """The earliest in-network MRI (any of a tie) with an approved authorization; else submit one, none if pending."""
    plan = world["plans"][patient["plan_id"]]
    providers = sorted(p["provider_id"] for p in in_network(world, "radiology", plan["plan_id"]))
    slots = _earliest(world, providers)
    if not slots:
        return None
    auths = [a for a in of_patient(world, "prior_auths", patient) if a["service"] == "mri"]
    status = auths[0]["status"] if auths else None
    draft = Draft(world, patient, persona, intent="imaging_prior_auth").verify().cite("4.4")
    draft.do(
        act("get_plan_details", plan_id=plan["plan_id"]),
        act("get_referrals_and_authorizations", patient_id=draft.pid),
    )
    draft.goal.append(
        "Your doctor ordered an MRI; you want it booked at the earliest open time at an imaging center that takes"
        " your insurance. If it cannot be booked yet, you accept what the agent can do instead."
    )
    books = [act("book_appointment", patient_id=draft.pid, slot_id=s["slot_id"]) for s in slots]
    if "mri" not in plan["prior_auth_services"] or status == "approved":
        draft.cite("3.1", "4.1", "4.2").do(act("search_providers", specialty="radiology", plan_id=plan["plan_id"]))
        _book_earliest(draft, slots, "the earliest open imaging time; any center sharing it (4.2)")
    elif status == "pending":
        draft.trap("4.4: the MRI needs a prior authorization and it is pending: no booking", *books)
        draft.say("text", "pending", "4.4: the authorization is pending")
    else:
        draft.trap("4.4: the MRI needs a prior authorization and none is on file: one is submitted instead", *books)
        draft.cite("3.1").do(act("submit_prior_authorization", patient_id=draft.pid, service="mri"))
    return draft


def cost_estimate(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """What a visit costs the patient, by the plan's numbers (a statement: the amount, to the cent)."""
    plan = world["plans"][patient["plan_id"]]
    visit = rng.choice(sorted(VISITS))
    cost = visit_cost(plan, patient, visit)
    if cost <= 0:
        return None  # "nothing" is said many ways, and guessed: only amounts an agent must compute
    draft = Draft(world, patient, persona, intent="cost_estimate").verify().cite("6.1", "6.2")
    draft.do(act("get_patient_details", patient_id=draft.pid), act("get_plan_details", plan_id=plan["plan_id"]))
    draft.say("amount", f"{cost:.2f}", "6.1: the patient's share of the visit, in dollars")
    draft.goal.append(
        f"You want to know what {VISITS[visit]} in network would cost you out of pocket today, in dollars."
        " You do not want anything booked."
    )
    return draft


_WHY_NOT = {
    "late": "180 days|180-day|six months",
    "out_of_network": "network",
    "missing_referral": "referral",
    "not_covered": "not covered|doesn't cover|does not cover|isn't covered|not a covered",
}


def claim_dispute(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Dispute a wrong denial with its reason; else say why not (a statement) and split its bill as the patient asks."""
    denied = [c for c in of_patient(world, "claims", patient) if c["status"] == "denied"]
    if not denied:
        return None
    claim = rng.choice(denied)
    bills = [
        b for b in of_patient(world, "bills", patient) if b["claim_id"] == claim["claim_id"] and b["status"] == "open"
    ]
    if not bills or bills[0]["amount_due"] / 6 < MIN_MONTHLY_PAYMENT:
        return None
    reason = dispute_reason(world, patient, claim)
    late = (NOW.date() - at(claim["service_date"]).date()).days > 180
    draft = Draft(world, patient, persona, intent="claim_dispute").verify().cite("7.1")
    draft.do(act("get_claims_and_bills", patient_id=draft.pid))
    draft.goal.append(
        f"Your insurance denied the claim for your {claim['service']} on {claim['service_date']}; you think that is"
        " wrong and want it disputed. If it cannot be disputed, you want to know why, and to pay its bill over 6"
        " months."
    )
    asked = act("dispute_claim", claim_id=claim["claim_id"], reason=reason or "service_covered")
    if reason is None or late:
        why = "late" if late else str(claim["denial_reason"])
        draft.trap(f"7.2: the denial stands ({why.replace('_', ' ')}): no dispute; the bill is split instead", asked)
        draft.cite("7.2", "7.3", "3.1").say("text", _WHY_NOT[why], "7.2: why the claim cannot be disputed")
        draft.do(act("set_up_payment_plan", bill_id=bills[0]["bill_id"], months=6))
    else:
        draft.cite("3.1").do(asked)
    return draft


def payment_plan(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """The months asked when payments stay at $25 or more; else the longest plan that keeps them there."""
    bills = [b for b in of_patient(world, "bills", patient) if b["status"] == "open" and b["amount_due"] >= 75]
    if not bills:
        return None
    bill = rng.choice(bills)
    asked = rng.choice([6, 12])
    allowed = [m for m in (3, 6, 12) if bill["amount_due"] / m >= MIN_MONTHLY_PAYMENT]
    draft = Draft(world, patient, persona, intent="payment_plan").verify().cite("7.3", "3.1")
    draft.do(act("get_claims_and_bills", patient_id=draft.pid))
    draft.goal.append(
        f"You cannot pay your bill of ${money(bill['amount_due'])} at once and want to pay it over {asked} months."
        " If that is not possible, you take the longest plan the agent offers."
    )
    ask = act("set_up_payment_plan", bill_id=bill["bill_id"], months=asked)
    if asked in allowed:
        draft.do(ask)
    else:
        draft.trap(f"7.3: {asked} months would make payments under $25; the longest allowed plan instead", ask)
        draft.do(act("set_up_payment_plan", bill_id=bill["bill_id"], months=max(allowed)))
    return draft


def lab_results(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Release a reviewed result; request review of an unreviewed one; say a pending one is not ready."""
    lab = one_of_patient(world, "lab_results", patient, rng)
    if lab is None:
        return None
    draft = Draft(world, patient, persona, intent="lab_results").verify().cite("8.1")
    draft.do(act("get_lab_results", patient_id=draft.pid))
    draft.goal.append(
        f"You want the result of your {lab['test']} from {lab['collected']}, and you want it put on your patient"
        " portal."
    )
    release = act("release_lab_result", lab_id=lab["lab_id"])
    review = act("request_result_review", lab_id=lab["lab_id"])
    if lab["status"] == "pending":
        draft.trap("8.2: the result is pending: no review is requested", review).cite("8.2")  # release: refused
        draft.say("text", "not ready|isn't ready|not back|pending|not available yet|not yet", "8.2: not ready yet")
    elif not lab["reviewed_by_provider"]:
        draft.trap("8.2: final but not reviewed: the review is requested, nothing released", release)
        draft.cite("8.2", "3.1").do(review)
    else:
        draft.cite("3.1").do(release)
    return draft


def records_request(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Records to the patient (portal or mail) or faxed to a provider of the network."""
    kinds = sorted(rng.sample(RECORD_KINDS, 2))
    spoken = " and ".join(k.replace("_", " ") for k in kinds)
    draft = Draft(world, patient, persona, intent="records_request").verify().cite("9.1", "3.1")
    choice = rng.random()
    if choice < 0.6:
        delivery = "portal" if choice < 0.3 else "mail"
        draft.do(
            act("create_records_request", patient_id=draft.pid, record_types=kinds, recipient="self", delivery=delivery)
        )
        where = "on your patient portal" if delivery == "portal" else "mailed to your home address"
        draft.goal.append(f"You want copies of your {spoken} {where}.")
    else:
        specialists = [p for p in world["providers"].values() if p["specialty"] not in ("primary care", "radiology")]
        provider = rng.choice(sorted(specialists, key=lambda p: p["provider_id"]))
        draft.do(
            act("search_providers", specialty=provider["specialty"]),
            act(
                "create_records_request",
                patient_id=draft.pid,
                record_types=kinds,
                recipient=provider["provider_id"],
                delivery="fax",
            ),
        )
        draft.goal.append(
            f"You want your {spoken} faxed to {provider['name']} ({provider['specialty']}), whom you are seeing soon."
        )
    return draft


def proxy_access(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """A proxy acts within their scopes; outside them, the patient is sent an authorization form."""
    if not patient["proxies"]:
        return None
    proxy = patient["proxies"][0]
    slots = _earliest(world, [patient["pcp_id"]])
    labs = [
        x for x in of_patient(world, "lab_results", patient) if x["status"] == "final" and x["reviewed_by_provider"]
    ]
    bills = [b for b in of_patient(world, "bills", patient) if b["status"] == "open" and b["amount_due"] >= 300]
    name = patient["first_name"]
    wants: list[tuple[str, Action, str]] = []
    if slots:
        book = act("book_appointment", patient_id=patient["patient_id"], slot_id=slots[0]["slot_id"])
        wants.append(("appointments", book, f"book {name}'s earliest open visit with their primary care doctor"))
    if labs:
        release = act("release_lab_result", lab_id=labs[0]["lab_id"])
        wants.append(("lab_results", release, f"have {name}'s {labs[0]['test']} result put on their portal"))
    if bills:
        plan = act("set_up_payment_plan", bill_id=bills[0]["bill_id"], months=12)
        wants.append(
            ("billing", plan, f"put {name}'s open bill of ${money(bills[0]['amount_due'])} on a 12-month plan")
        )
    if not wants:
        return None
    scope, action, what = rng.choice(wants)
    draft = Draft(world, patient, persona, intent="proxy_access").cite("2.5", "3.1")
    draft.caller = (
        f"You are {proxy['name']}, born {proxy['date_of_birth']}, calling for your {RELATIVE[proxy['relationship']]}"
        f" {patient['first_name']} {patient['last_name']} (born {patient['date_of_birth']})."
    )
    draft.do(
        draft.find(),
        act("verify_proxy", patient_id=draft.pid, proxy_name=proxy["name"], proxy_date_of_birth=proxy["date_of_birth"]),
    )
    draft.goal.append(f"You want to {what}. If you are not allowed to, you want whatever would let you do it later.")
    if scope in proxy["scopes"]:
        draft.do(action)
    else:
        draft.trap(f"2.5: the proxy's scopes do not include {scope}: the patient is sent a form instead", action)
        draft.do(act("send_proxy_authorization_form", patient_id=draft.pid, proxy_name=proxy["name"], scopes=[scope]))
    return draft


def triage_to_human(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """Symptoms, complaints, insisted advice, out-of-scope asks: a transfer, verified or not (2.4)."""
    reason, story = rng.choice(TRIAGE)
    draft = Draft(world, patient, persona, intent="triage_to_human").verify(optional=True).cite("2.4", "12.1", "12.2")
    draft.goal += [story, "You want to be put through to someone who can help with it."]
    draft.step(
        "the transfer, with the patient's id once known, else '' (12.2)",
        [act("transfer_to_human_agents", patient_id=draft.pid, reason=reason)],
        [act("transfer_to_human_agents", patient_id="", reason=reason)],
    )
    return draft


def home_reading(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """The patient takes a reading and reads it out; an urgent one is recorded, then transferred to a nurse at once."""
    device = world["devices"][patient["patient_id"]]
    reading = device["monitor_queue"][0]
    draft = Draft(world, patient, persona, intent="home_reading", dual=True).verify().cite("10.1", "3.1")
    take, kind, value = reading_steps(reading)
    draft.do(act(take, "user"), act("record_home_reading", patient_id=draft.pid, kind=kind, value=value))
    monitor = device["monitor"]["kind"]
    draft.goal.append(
        f"Your doctor asked you to report a {kind.replace('_', ' ')} reading from your home {monitor};"
        " take one when the agent asks and read it out exactly. If the agent wants to transfer you, you accept."
    )
    if urgent_reading(reading):
        draft.cite("10.2", "12.1").do(act("transfer_to_human_agents", patient_id=draft.pid, reason="urgent_symptoms"))
    return draft


_NOT_ACCEPTED = (
    "not accept|don't accept|do not accept|not in our system|isn't accepted|not accepted|don't take|do not take"
)


def insurance_update(world: World, patient: Patient, rng: random.Random, persona: str) -> Draft | None:
    """The patient reads a new card; a plan in the system is recorded, any other is refused and nothing changes."""
    card = world["devices"][patient["patient_id"]]["insurance_card"]
    if card["member_id"] == patient["member_id"] or age(patient["date_of_birth"]) < ADULT:
        return None
    plans = {p["name"]: p["plan_id"] for p in world["plans"].values()}
    draft = Draft(world, patient, persona, intent="insurance_update", dual=True).verify().cite("11.1")
    draft.do(act("view_insurance_card", "user"))
    draft.goal.append("You have a new insurance card and want the clinic's record updated; read the card when asked.")
    if card["plan_name"] in plans:
        draft.cite("3.1").do(
            act("update_insurance", patient_id=draft.pid, plan_id=plans[card["plan_name"]], member_id=card["member_id"])
        )
    else:
        near = next((i for n, i in plans.items() if n.split()[0] == card["plan_name"].split()[0]), patient["plan_id"])
        forbidden = act("update_insurance", patient_id=draft.pid, plan_id=near, member_id=card["member_id"])
        draft.trap(f"11.2: {card['plan_name']} is not a plan the clinic takes: nothing changes", forbidden)
        draft.cite("11.2").say("text", _NOT_ACCEPTED, "11.2: the plan on the card is not accepted")
    return draft


SOLVERS: dict[str, Solver] = {
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
"""The reference solver of each intent."""
PER_WORLD = 4
"""Tasks per intent and world: 8 train (w1, w2) and 4 test (w3) per intent."""
TRAPS_PER_WORLD = 2
"""Of which traps, where the world has them."""


CANDIDATES = 12
"""Drafts of each kind (trap, not) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first (a renewal beside the refills)."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    chosen += [task for task in candidates if task not in chosen][: count - len(chosen)]
    return chosen


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over ``world``'s patients (minors only through a proxy), varied in the clauses they test.

    Two traps per intent where the world has them; within each kind, the cases testing other clauses first.
    """
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        patients = [p for p in world["patients"].values() if p["patient_id"].split("-")[1] == tag]
        rng.shuffle(patients)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for patient in patients:
            if intent != "proxy_access" and age(patient["date_of_birth"]) < ADULT:
                continue  # children do not call for themselves
            draft = solve(world, patient, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        chosen = _varied(traps, TRAPS_PER_WORLD)
        chosen += _varied(plain, PER_WORLD - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
