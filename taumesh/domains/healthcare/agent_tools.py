"""The agent's tools: the clinic's systems (records, calendar, pharmacy, insurance, billing, labs).

Tools check what the data itself forbids (a booked slot, no refills left, a wrong code); the policy's other
rules (windows, referrals, proxies, traps) are the agent's to follow, as in τ-bench.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.healthcare.clock import NOW, one_time_code
from taumesh.domains.healthcare.schema import number, obj, text

SPECIALTIES = [
    "primary care",
    "cardiology",
    "dermatology",
    "orthopedics",
    "endocrinology",
    "gastroenterology",
    "neurology",
    "radiology",
]
DISPUTE_REASONS = ["provider_in_network", "referral_on_file", "service_covered", "billing_code_error"]
RECORD_TYPES = ["visit_notes", "lab_results", "immunizations", "imaging", "medication_list"]
HANDOFF_REASONS = ["urgent_symptoms", "medical_advice", "legal_or_complaint", "out_of_scope"]
PROXY_SCOPES = ["appointments", "prescriptions", "billing", "lab_results", "records"]
PRIOR_AUTH_SERVICES = ["mri", "ct_scan", "sleep_study", "physical_therapy"]
_PATIENT = text("The patient's id, such as 'pat-0001'.")


def _dump(value: Any) -> str:
    return json.dumps(value)


def _record(data: Data, table: str, key: str, what: str) -> Any:
    if key not in data[table]:
        raise Refusal(f"{what} not found")
    return data[table][key]


def _of(data: Data, table: str, patient_id: str) -> list[Any]:
    _record(data, "patients", patient_id, "patient")
    return [record for record in data[table].values() if record["patient_id"] == patient_id]


def _next_id(data: Data, table: str, prefix: str) -> str:
    return f"{prefix}-{len(data[table]) + 1:04d}"


class FindPatient(Tool):
    name = "find_patient"
    description = "Find a patient's id by full name and date of birth (YYYY-MM-DD)."
    parameters = obj(
        first_name=text("First name."), last_name=text("Last name."), date_of_birth=text("Date of birth, YYYY-MM-DD.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, date_of_birth: str) -> str:
        for patient in data["patients"].values():
            same = (patient["first_name"].lower(), patient["last_name"].lower(), patient["date_of_birth"])
            if same == (first_name.strip().lower(), last_name.strip().lower(), date_of_birth.strip()):
                return str(patient["patient_id"])
        raise Refusal("patient not found")


class GetPatientDetails(Tool):
    name = "get_patient_details"
    description = (
        "The patient's record: contact, plan and member id, allergies, conditions, primary care provider, proxies."
    )
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        return _dump(_record(data, "patients", patient_id, "patient"))


class VerifyIdentity(Tool):
    name = "verify_identity"
    writes = True
    description = "Verify the caller is the patient by date of birth and the last four digits of the phone on file."
    parameters = obj(patient_id=_PATIENT, date_of_birth=text("YYYY-MM-DD."), phone_last_four=text("Four digits."))

    @staticmethod
    def invoke(data: Data, patient_id: str, date_of_birth: str, phone_last_four: str) -> str:
        patient = _record(data, "patients", patient_id, "patient")
        if (
            patient["date_of_birth"] != date_of_birth
            or not patient["phone"].endswith(phone_last_four)
            or len(phone_last_four) != 4
        ):
            raise Refusal("identity could not be verified")
        record = {
            "patient_id": patient_id,
            "method": "identity",
            "verified": True,
            "codes_sent": 0,
            "code": None,
            "proxy_name": None,
        }
        data["verifications"][patient_id] = record
        return _dump(record)


class SendVerificationCode(Tool):
    name = "send_verification_code"
    writes = True
    description = "Text a six-digit one-time code to the patient's phone on file."
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        patient = _record(data, "patients", patient_id, "patient")
        verifications = data["verifications"]
        sent = verifications[patient_id]["codes_sent"] if patient_id in verifications else 0
        code = one_time_code(patient_id, sent + 1)
        verifications[patient_id] = {
            "patient_id": patient_id,
            "method": "one_time_code",
            "verified": False,
            "codes_sent": sent + 1,
            "code": code,
            "proxy_name": None,
        }
        data["devices"][patient_id]["sms_inbox"].append(
            {"from": "Clinic", "text": f"Your verification code is {code}. Do not share it except with the clinic."}
        )
        return f"A one-time code was texted to the phone ending in {patient['phone'][-4:]}."


class VerifyOneTimeCode(Tool):
    name = "verify_one_time_code"
    writes = True
    description = (
        "Check the one-time code the patient reads back; verifies the caller when it matches the last code sent."
    )
    parameters = obj(patient_id=_PATIENT, code=text("The six digits the caller read."))

    @staticmethod
    def invoke(data: Data, patient_id: str, code: str) -> str:
        record = data["verifications"].get(patient_id)
        if record is None or record["code"] is None:
            raise Refusal("no code was sent to this patient")
        if record["code"] != code.strip():
            raise Refusal("the code does not match")
        record["verified"] = True
        return _dump(record)


class VerifyProxy(Tool):
    name = "verify_proxy"
    writes = True
    description = "Verify the caller as a proxy listed on the patient's record; returns what the proxy may act on."
    parameters = obj(
        patient_id=_PATIENT,
        proxy_name=text("The caller's full name."),
        proxy_date_of_birth=text("The caller's date of birth, YYYY-MM-DD."),
    )

    @staticmethod
    def invoke(data: Data, patient_id: str, proxy_name: str, proxy_date_of_birth: str) -> str:
        patient = _record(data, "patients", patient_id, "patient")
        for proxy in patient["proxies"]:
            if proxy["name"].lower() == proxy_name.strip().lower() and proxy["date_of_birth"] == proxy_date_of_birth:
                data["verifications"][patient_id] = {
                    "patient_id": patient_id,
                    "method": "proxy",
                    "verified": True,
                    "codes_sent": 0,
                    "code": None,
                    "proxy_name": proxy["name"],
                }
                return _dump({"proxy": proxy["name"], "scopes": list(proxy["scopes"])})
        raise Refusal("no such proxy on this patient's record")


class SearchProviders(Tool):
    name = "search_providers"
    description = "Providers of a specialty, optionally only those accepting a plan."
    parameters = obj(["specialty"], specialty=text("The specialty.", SPECIALTIES), plan_id=text("A plan id."))

    @staticmethod
    def invoke(data: Data, specialty: str, plan_id: str | None = None) -> str:
        found = [p for p in data["providers"].values() if p["specialty"] == specialty]
        if plan_id is not None:
            found = [p for p in found if plan_id in p["accepted_plans"]]
        return _dump(found)


class ListAvailableSlots(Tool):
    name = "list_available_slots"
    description = "A provider's open slots, optionally on one date (YYYY-MM-DD)."
    parameters = obj(["provider_id"], provider_id=text("The provider's id."), date=text("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, provider_id: str, date: str | None = None) -> str:
        _record(data, "providers", provider_id, "provider")
        slots = [
            s
            for s in data["slots"].values()
            if s["provider_id"] == provider_id and s["status"] == "open" and (date is None or s["start"][:10] == date)
        ]
        return _dump(slots)


class GetPatientAppointments(Tool):
    name = "get_patient_appointments"
    description = "The patient's appointments, with status, provider, start and visit type."
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        return _dump(_of(data, "appointments", patient_id))


class BookAppointment(Tool):
    name = "book_appointment"
    writes = True
    description = "Book an open slot for the patient."
    parameters = obj(patient_id=_PATIENT, slot_id=text("An open slot's id."))

    @staticmethod
    def invoke(data: Data, patient_id: str, slot_id: str) -> str:
        _record(data, "patients", patient_id, "patient")
        slot = _record(data, "slots", slot_id, "slot")
        if slot["status"] != "open":
            raise Refusal("slot is not open")
        appointment_id = _next_id(data, "appointments", "appt")
        record = {
            "appointment_id": appointment_id,
            "patient_id": patient_id,
            "provider_id": slot["provider_id"],
            "slot_id": slot_id,
            "start": slot["start"],
            "visit_type": slot["visit_type"],
            "reason": "booked by phone",
            "status": "scheduled",
            "cancellation_fee": 0.0,
        }
        slot["status"] = "booked"
        data["appointments"][appointment_id] = record
        return _dump(record)


class RescheduleAppointment(Tool):
    name = "reschedule_appointment"
    writes = True
    description = "Move a scheduled appointment to another open slot of the same provider."
    parameters = obj(appointment_id=text("The appointment's id."), new_slot_id=text("An open slot's id."))

    @staticmethod
    def invoke(data: Data, appointment_id: str, new_slot_id: str) -> str:
        appointment = _record(data, "appointments", appointment_id, "appointment")
        slot = _record(data, "slots", new_slot_id, "slot")
        if appointment["status"] != "scheduled":
            raise Refusal("appointment is not scheduled")
        if slot["status"] != "open" or slot["provider_id"] != appointment["provider_id"]:
            raise Refusal("slot is not an open slot of the same provider")
        data["slots"][appointment["slot_id"]]["status"] = "open"
        slot["status"] = "booked"
        appointment.update(slot_id=new_slot_id, start=slot["start"])
        return _dump(appointment)


class CancelAppointment(Tool):
    name = "cancel_appointment"
    writes = True
    description = "Cancel a scheduled appointment, charging the cancellation fee the policy sets (0 when none)."
    parameters = obj(appointment_id=text("The appointment's id."), cancellation_fee=number("In dollars."))

    @staticmethod
    def invoke(data: Data, appointment_id: str, cancellation_fee: float) -> str:
        appointment = _record(data, "appointments", appointment_id, "appointment")
        if appointment["status"] != "scheduled":
            raise Refusal("appointment is not scheduled")
        data["slots"][appointment["slot_id"]]["status"] = "open"
        appointment.update(status="cancelled", cancellation_fee=float(cancellation_fee))
        return _dump(appointment)


class GetPrescriptions(Tool):
    name = "get_prescriptions"
    description = (
        "The patient's prescriptions: drug, dose, controlled schedule, refills left, days of supply, last fill."
    )
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        return _dump(_of(data, "prescriptions", patient_id))


class RequestRefill(Tool):
    name = "request_refill"
    writes = True
    description = "Send a refill of a prescription to its pharmacy (uses one refill)."
    parameters = obj(rx_id=text("The prescription's id, such as 'rx-0001'."))

    @staticmethod
    def invoke(data: Data, rx_id: str) -> str:
        rx = _record(data, "prescriptions", rx_id.lower(), "prescription")
        if rx["refills_left"] < 1:
            raise Refusal("no refills left")
        rx.update(refills_left=rx["refills_left"] - 1, status="refill_requested")
        return _dump(rx)


class RequestPrescriptionRenewal(Tool):
    name = "request_prescription_renewal"
    writes = True
    description = "Ask the prescriber to renew a prescription that has no refills left."
    parameters = obj(rx_id=text("The prescription's id."))

    @staticmethod
    def invoke(data: Data, rx_id: str) -> str:
        rx = _record(data, "prescriptions", rx_id.lower(), "prescription")
        rx["status"] = "renewal_requested"
        return _dump(rx)


class GetReferralsAndAuthorizations(Tool):
    name = "get_referrals_and_authorizations"
    description = "The patient's referrals (specialty, status, expiry) and prior authorizations."
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        return _dump(
            {
                "referrals": _of(data, "referrals", patient_id),
                "prior_authorizations": _of(data, "prior_auths", patient_id),
            }
        )


class RequestReferral(Tool):
    name = "request_referral"
    writes = True
    description = "Ask the patient's primary care provider for a referral to a specialty (it starts pending)."
    parameters = obj(patient_id=_PATIENT, specialty=text("The specialty.", SPECIALTIES[1:]))

    @staticmethod
    def invoke(data: Data, patient_id: str, specialty: str) -> str:
        _record(data, "patients", patient_id, "patient")
        referral_id = _next_id(data, "referrals", "ref")
        record = {
            "referral_id": referral_id,
            "patient_id": patient_id,
            "specialty": specialty,
            "status": "pending",
            "expires": "2025-09-30",
        }
        data["referrals"][referral_id] = record
        return _dump(record)


class SubmitPriorAuthorization(Tool):
    name = "submit_prior_authorization"
    writes = True
    description = "Submit a prior-authorization request to the patient's plan for a service (it starts pending)."
    parameters = obj(patient_id=_PATIENT, service=text("The service.", PRIOR_AUTH_SERVICES))

    @staticmethod
    def invoke(data: Data, patient_id: str, service: str) -> str:
        _record(data, "patients", patient_id, "patient")
        auth_id = _next_id(data, "prior_auths", "pa")
        record = {"auth_id": auth_id, "patient_id": patient_id, "service": service, "status": "pending"}
        data["prior_auths"][auth_id] = record
        return _dump(record)


class GetPlanDetails(Tool):
    name = "get_plan_details"
    description = (
        "An insurance plan: copays by visit type, allowed amounts, deductible, coinsurance, out-of-pocket maximum,"
        " referral and prior-authorization rules."
    )
    parameters = obj(plan_id=text("The plan's id."))

    @staticmethod
    def invoke(data: Data, plan_id: str) -> str:
        return _dump(_record(data, "plans", plan_id, "plan"))


class GetClaimsAndBills(Tool):
    name = "get_claims_and_bills"
    description = "The patient's insurance claims (service, dates, amounts, status, denial reason) and bills."
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        return _dump({"claims": _of(data, "claims", patient_id), "bills": _of(data, "bills", patient_id)})


class DisputeClaim(Tool):
    name = "dispute_claim"
    writes = True
    description = "Open a dispute of a denied claim with the plan, giving the reason that answers the denial."
    parameters = obj(claim_id=text("The claim's id."), reason=text("Why the denial is wrong.", DISPUTE_REASONS))

    @staticmethod
    def invoke(data: Data, claim_id: str, reason: str) -> str:
        claim = _record(data, "claims", claim_id, "claim")
        if claim["status"] != "denied":
            raise Refusal("only a denied claim can be disputed")
        if reason not in DISPUTE_REASONS:
            raise Refusal(f"reason must be one of {DISPUTE_REASONS}")
        claim.update(status="in_dispute", dispute_reason=reason)
        return _dump(claim)


class SetUpPaymentPlan(Tool):
    name = "set_up_payment_plan"
    writes = True
    description = "Split an open bill into monthly payments over 3, 6 or 12 months."
    parameters = obj(bill_id=text("The bill's id."), months=number("3, 6 or 12.", "integer"))

    @staticmethod
    def invoke(data: Data, bill_id: str, months: int) -> str:
        bill = _record(data, "bills", bill_id, "bill")
        if bill["status"] != "open":
            raise Refusal("bill is not open")
        if months not in (3, 6, 12):
            raise Refusal("months must be 3, 6 or 12")
        bill.update(status="payment_plan", plan_months=months)
        return _dump(bill)


class GetLabResults(Tool):
    name = "get_lab_results"
    description = "The patient's lab results, with whether the ordering provider has reviewed each."
    parameters = obj(patient_id=_PATIENT)

    @staticmethod
    def invoke(data: Data, patient_id: str) -> str:
        return _dump(_of(data, "lab_results", patient_id))


class ReleaseLabResult(Tool):
    name = "release_lab_result"
    writes = True
    description = "Release a lab result to the patient's portal."
    parameters = obj(lab_id=text("The lab result's id."))

    @staticmethod
    def invoke(data: Data, lab_id: str) -> str:
        lab = _record(data, "lab_results", lab_id, "lab result")
        if lab["status"] != "final":
            raise Refusal("result is not final")
        lab["released_to_portal"] = True
        return _dump(lab)


class RequestResultReview(Tool):
    name = "request_result_review"
    writes = True
    description = "Ask the ordering provider to review a lab result (the patient is told when it is released)."
    parameters = obj(lab_id=text("The lab result's id."))

    @staticmethod
    def invoke(data: Data, lab_id: str) -> str:
        lab = _record(data, "lab_results", lab_id, "lab result")
        lab["review_requested"] = True
        return _dump(lab)


class CreateRecordsRequest(Tool):
    name = "create_records_request"
    writes = True
    description = "Request copies of the patient's records for the patient ('self') or for a provider (by provider id)."
    parameters = obj(
        patient_id=_PATIENT,
        record_types={"type": "array", "items": text("A kind of record.", RECORD_TYPES)},
        recipient=text("'self' or a provider's id."),
        delivery=text("How they are sent.", ["portal", "mail", "fax"]),
    )

    @staticmethod
    def invoke(data: Data, patient_id: str, record_types: list[str], recipient: str, delivery: str) -> str:
        _record(data, "patients", patient_id, "patient")
        unknown = sorted(set(record_types) - set(RECORD_TYPES))
        if unknown or not record_types:
            raise Refusal(f"record types must be some of {RECORD_TYPES}")
        if recipient != "self":
            _record(data, "providers", recipient, "provider")
        request_id = _next_id(data, "records_requests", "rec")
        record = {
            "request_id": request_id,
            "patient_id": patient_id,
            "record_types": sorted(set(record_types)),
            "recipient": recipient,
            "delivery": delivery,
            "status": "submitted",
        }
        data["records_requests"][request_id] = record
        return _dump(record)


class SendProxyAuthorizationForm(Tool):
    name = "send_proxy_authorization_form"
    writes = True
    description = "Send the patient a form to sign that grants a person proxy access for some scopes."
    parameters = obj(
        patient_id=_PATIENT,
        proxy_name=text("The person's full name."),
        scopes={"type": "array", "items": text("A scope.", PROXY_SCOPES)},
    )

    @staticmethod
    def invoke(data: Data, patient_id: str, proxy_name: str, scopes: list[str]) -> str:
        _record(data, "patients", patient_id, "patient")
        if not scopes or set(scopes) - set(PROXY_SCOPES):
            raise Refusal(f"scopes must be some of {PROXY_SCOPES}")
        form_id = _next_id(data, "authorization_forms", "form")
        record = {
            "form_id": form_id,
            "patient_id": patient_id,
            "proxy_name": proxy_name.strip(),
            "scopes": sorted(set(scopes)),
        }
        data["authorization_forms"][form_id] = record
        return _dump(record)


class UpdateInsurance(Tool):
    name = "update_insurance"
    writes = True
    description = "Replace the patient's insurance on file with the plan and member id on their new card."
    parameters = obj(patient_id=_PATIENT, plan_id=text("The plan's id."), member_id=text("The member id on the card."))

    @staticmethod
    def invoke(data: Data, patient_id: str, plan_id: str, member_id: str) -> str:
        patient = _record(data, "patients", patient_id, "patient")
        _record(data, "plans", plan_id, "plan")
        patient.update(plan_id=plan_id, member_id=member_id.strip())
        return _dump(patient)


class RecordHomeReading(Tool):
    name = "record_home_reading"
    writes = True
    description = "Add a reading the patient took on their home monitor to their record ('142/88' or glucose '176')."
    parameters = obj(
        patient_id=_PATIENT,
        kind=text("Which monitor.", ["blood_pressure", "glucose"]),
        value=text("'systolic/diastolic' in mmHg, or glucose in mg/dL."),
    )

    @staticmethod
    def invoke(data: Data, patient_id: str, kind: str, value: str) -> str:
        patient = _record(data, "patients", patient_id, "patient")
        reading = {"kind": kind, "value": value.strip(), "taken": NOW.isoformat(timespec="minutes")}
        patient["home_readings"].append(reading)
        return _dump(reading)


class Calculate(Tool):
    name = "calculate"
    description = "Calculate an arithmetic expression (numbers, + - * / and parentheses)."
    parameters = obj(expression=text("Such as '(280 - 150) * 0.2 + 150'."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in "0123456789+-*/(). " for char in expression):
            raise Refusal("invalid characters in expression")
        check_powers(expression)
        return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))  # noqa: S307 - characters checked


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Transfer the caller to a human (a nurse for symptoms, staff for the rest); ends the conversation."
    parameters = obj(patient_id=text("The patient's id, or '' when unknown."), reason=text("Why.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, patient_id: str, reason: str) -> str:
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {HANDOFF_REASONS}")
        handoff_id = _next_id(data, "handoffs", "hand")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "patient_id": patient_id, "reason": reason}
        return "Transfer successful"


AGENT_TOOLS: tuple[type[Tool], ...] = (
    FindPatient,
    GetPatientDetails,
    VerifyIdentity,
    SendVerificationCode,
    VerifyOneTimeCode,
    VerifyProxy,
    SearchProviders,
    ListAvailableSlots,
    GetPatientAppointments,
    BookAppointment,
    RescheduleAppointment,
    CancelAppointment,
    GetPrescriptions,
    RequestRefill,
    RequestPrescriptionRenewal,
    GetReferralsAndAuthorizations,
    RequestReferral,
    SubmitPriorAuthorization,
    GetPlanDetails,
    GetClaimsAndBills,
    DisputeClaim,
    SetUpPaymentPlan,
    GetLabResults,
    ReleaseLabResult,
    RequestResultReview,
    CreateRecordsRequest,
    SendProxyAuthorizationForm,
    UpdateInsurance,
    RecordHomeReading,
    Calculate,
    TransferToHumanAgents,
)
