"""The insurer's tables as pydantic records: what the domain loads is validated against them (``extra="forbid"``).

Tables written only by tools (verifications, letters, appeals, hand-offs) ship empty; the policyholder's phone is a
table too (``devices``), which only the policyholder's own tools read.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record whose misspelt field is an error rather than silently dropped."""

    model_config = ConfigDict(extra="forbid")


class Product(Record):
    """An insurance product: what it covers (limit per peril), what it excludes, waiting periods, deductibles."""

    product_id: str
    line: str
    name: str
    coverages: dict[str, float]
    exclusions: list[str]
    waiting_days: dict[str, int]
    deductible_options: list[float]


class BankAccount(Record):
    routing_number: str
    account_last4: str


class Policyholder(Record):
    policyholder_id: str
    first_name: str
    last_name: str
    date_of_birth: str
    zip_code: str
    phone: str
    email: str
    bank_account: BankAccount | None
    card_last4: str


class Policy(Record):
    policy_id: str
    policyholder_id: str
    product_id: str
    insured_item: str
    status: str
    start_date: str
    end_date: str
    deductible: float
    base_rate: float
    annual_premium: float
    lapse_date: str | None
    cancellation: dict[str, str | float] | None


class Invoice(Record):
    invoice_id: str
    policy_id: str
    amount: float
    due_date: str
    status: str
    paid_on: str | None


class Payout(Record):
    method: str
    amount: float
    paid_on: str


class PayoutAccount(Record):
    routing_number: str
    account_number: str


class Claim(Record):
    claim_id: str
    policy_id: str
    policyholder_id: str
    peril: str
    incident_date: str
    reported_date: str
    estimated_loss: float
    status: str
    required_documents: list[str]
    documents_received: list[str]
    upload_link_sent: bool
    review_due: str
    approved_amount: float | None
    decision_date: str | None
    denial_reason: str | None
    payout_account: PayoutAccount | None
    payout: Payout | None


class Verification(Record):
    policyholder_id: str
    method: str
    verified: bool
    codes_sent: int
    code: str | None


class CoverageLetter(Record):
    letter_id: str
    policy_id: str
    peril: str
    limit: float
    issued_on: str


class Appeal(Record):
    appeal_id: str
    claim_id: str
    grounds: str
    filed_on: str
    decision_due: str


class Handoff(Record):
    handoff_id: str
    policyholder_id: str
    reason: str


class Photo(Record):
    photo_id: str
    caption: str
    document_type: str


class Message(Record):
    sender: str
    text: str


class Device(Record):
    """The policyholder's phone: locked by a passcode, with their texts and the photos of their paperwork."""

    policyholder_id: str
    passcode: str
    unlocked: bool
    text_messages: list[Message]
    photos: list[Photo]


class InsuranceDatabase(BaseModel):
    """Every table, by record id (``data/<table>.json``)."""

    products: dict[str, Product]
    policyholders: dict[str, Policyholder]
    policies: dict[str, Policy]
    invoices: dict[str, Invoice]
    claims: dict[str, Claim]
    devices: dict[str, Device]
    verifications: dict[str, Verification]
    coverage_letters: dict[str, CoverageLetter]
    appeals: dict[str, Appeal]
    handoffs: dict[str, Handoff]
