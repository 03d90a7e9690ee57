"""The healthcare database: one pydantic model per record, one field per table (``data/<table>.json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

VisitType = Literal["primary", "specialist", "telehealth", "imaging", "lab"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Proxy(Record):
    """Someone the patient's record allows to act for them, and on what."""

    name: str
    relationship: str
    date_of_birth: str
    scopes: list[Literal["appointments", "prescriptions", "billing", "lab_results", "records"]]


class Patient(Record):
    patient_id: str
    first_name: str
    last_name: str
    date_of_birth: str
    phone: str
    email: str
    plan_id: str
    member_id: str
    allergies: list[str]
    conditions: list[str]
    pcp_id: str
    proxies: list[Proxy]
    deductible_met: float
    out_of_pocket_spent: float
    home_readings: list[dict[str, int | str]] = Field(default_factory=list)


class Provider(Record):
    provider_id: str
    name: str
    specialty: str
    location: str
    accepted_plans: list[str]


class Slot(Record):
    slot_id: str
    provider_id: str
    start: str
    visit_type: VisitType
    status: Literal["open", "booked"]


class Appointment(Record):
    appointment_id: str
    patient_id: str
    provider_id: str
    slot_id: str
    start: str
    visit_type: VisitType
    reason: str
    status: Literal["scheduled", "cancelled", "completed"]
    cancellation_fee: float = 0


class Prescription(Record):
    rx_id: str
    patient_id: str
    drug: str
    dose: str
    controlled_schedule: str | None
    refills_left: int
    days_supply: int
    last_fill_date: str
    prescriber_id: str
    pharmacy: str
    status: Literal["active", "refill_requested", "renewal_requested"]


class Plan(Record):
    plan_id: str
    name: str
    kind: Literal["HMO", "PPO", "HDHP"]
    copays: dict[str, float]
    """Copay per visit type; absent: the visit is paid from the deductible, then coinsurance."""
    allowed_amounts: dict[str, float]
    deductible: float
    coinsurance: float
    out_of_pocket_max: float
    referral_required: bool
    prior_auth_services: list[str]
    covered_services: list[str]


class Referral(Record):
    referral_id: str
    patient_id: str
    specialty: str
    status: Literal["approved", "pending", "denied", "expired"]
    expires: str


class PriorAuth(Record):
    auth_id: str
    patient_id: str
    service: str
    status: Literal["approved", "pending", "denied"]


class Claim(Record):
    claim_id: str
    patient_id: str
    provider_id: str
    service_date: str
    service: str
    billed: float
    plan_paid: float
    patient_owes: float
    status: Literal["paid", "denied", "in_dispute"]
    denial_reason: str | None
    dispute_reason: str | None = None


class Bill(Record):
    bill_id: str
    patient_id: str
    claim_id: str
    amount_due: float
    status: Literal["open", "payment_plan", "paid"]
    plan_months: int | None = None


class LabResult(Record):
    lab_id: str
    patient_id: str
    test: str
    collected: str
    status: Literal["pending", "final"]
    reviewed_by_provider: bool
    released_to_portal: bool
    review_requested: bool = False
    summary: str


class RecordsRequest(Record):
    request_id: str
    patient_id: str
    record_types: list[str]
    recipient: str
    delivery: Literal["portal", "mail", "fax"]
    status: Literal["submitted"]


class Verification(Record):
    patient_id: str
    method: Literal["identity", "one_time_code", "proxy"]
    verified: bool
    codes_sent: int = 0
    code: str | None = None
    proxy_name: str | None = None


class Handoff(Record):
    handoff_id: str
    patient_id: str
    reason: str


class AuthorizationForm(Record):
    form_id: str
    patient_id: str
    proxy_name: str
    scopes: list[str]


class Device(Record):
    """What the patient holds and the clinic cannot see: their phone, card, monitor and apps."""

    patient_id: str
    passcode: str
    unlocked: bool = False
    insurance_card: dict[str, str]
    sms_inbox: list[dict[str, str]]
    monitor: dict[str, str]
    monitor_queue: list[dict[str, int | str]]
    monitor_history: list[dict[str, int | str]]
    pharmacy_app: list[dict[str, str | int]]
    calendar: list[dict[str, str]]


class HealthcareDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    patients: dict[str, Patient]
    providers: dict[str, Provider]
    slots: dict[str, Slot]
    appointments: dict[str, Appointment]
    prescriptions: dict[str, Prescription]
    plans: dict[str, Plan]
    referrals: dict[str, Referral]
    prior_auths: dict[str, PriorAuth]
    claims: dict[str, Claim]
    bills: dict[str, Bill]
    lab_results: dict[str, LabResult]
    records_requests: dict[str, RecordsRequest]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    authorization_forms: dict[str, AuthorizationForm]
    devices: dict[str, Device]
