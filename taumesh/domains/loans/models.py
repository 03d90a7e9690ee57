"""The lender's database: one pydantic model per record, one field per table (``data/<table>.json``).

``portals`` is the borrower's side: their banking app (sign-in, messages, pay slip, mandates and consents they
approve). The lender's tools never read it; the borrower reads it out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

LoanStatus = Literal["current", "delinquent", "in_hardship"]
HandoffReason = Literal["collections", "hardship_review", "complaint", "other"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class LinkedAccount(Record):
    """A bank account the borrower linked; only a verified one may be debited (policy 9.2)."""

    account_last_four: str
    bank: str
    status: Literal["verified", "pending_verification"]


class Borrower(Record):
    borrower_id: str
    first_name: str
    last_name: str
    date_of_birth: str
    ssn_last_four: str
    postal_code: str
    phone: str
    email: str
    employer: str
    gross_monthly_income: float
    monthly_debt_payments: float
    """Other lenders' monthly payments on the credit report (the debt side of the ratio, policy 5.3)."""
    credit_score: int
    linked_accounts: list[LinkedAccount]


class Product(Record):
    """A loan product the lender offers: limits, terms, and the APR of each rate tier it lends to."""

    product_id: str
    name: str
    min_amount: int
    max_amount: int
    terms_months: list[int]
    min_credit_score: int
    max_debt_to_income: float
    apr_by_tier: dict[str, float]


class Autopay(Record):
    account_last_four: str
    mandate_reference: str


class Loan(Record):
    loan_id: str
    borrower_id: str
    product_id: str
    principal: float
    balance: float
    apr: float
    term_months: int
    monthly_payment: float
    originated: str
    paid_through: str
    """Interest is paid to this date (the last posted payment); a payoff accrues from it."""
    due_day: int
    next_due_date: str
    days_past_due: int
    past_due_amount: float
    status: LoanStatus
    autopay: Autopay | None
    last_fee_waiver: str | None
    last_due_date_change: str | None
    last_hardship_plan: str | None


class Fee(Record):
    fee_id: str
    loan_id: str
    kind: Literal["late_fee"]
    amount: float
    assessed: str
    status: Literal["open", "waived"]


class Payment(Record):
    payment_id: str
    loan_id: str
    amount: float
    date: str
    account_last_four: str
    status: Literal["posted", "scheduled", "cancelled"]


class Application(Record):
    application_id: str
    borrower_id: str
    product_id: str
    amount: float
    term_months: int
    apr: float
    monthly_payment: float
    submitted: str
    status: Literal["documents_needed", "under_review"]
    consent_reference: str
    verified_monthly_income: float | None
    income_document: str | None


class HardshipPlan(Record):
    plan_id: str
    loan_id: str
    reason: str
    months: int
    starts: str
    resumes: str


class PayoffQuote(Record):
    quote_id: str
    loan_id: str
    good_through: str
    amount: float


class Verification(Record):
    borrower_id: str
    method: Literal["identity", "app_code"]
    verified: bool
    codes_sent: int
    code: str | None


class Handoff(Record):
    handoff_id: str
    borrower_id: str
    reason: HandoffReason


class PaySlip(Record):
    reference: str
    employer: str
    pay_date: str
    gross_monthly_pay: float


class Portal(Record):
    """The borrower's banking app: what they see and approve there, which the lender's systems do not read."""

    borrower_id: str
    username: str
    pin: str
    signed_in: bool
    messages: list[str]
    pay_slip: PaySlip
    approvals: list[str]


class LoansDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    borrowers: dict[str, Borrower]
    products: dict[str, Product]
    loans: dict[str, Loan]
    fees: dict[str, Fee]
    payments: dict[str, Payment]
    applications: dict[str, Application]
    hardship_plans: dict[str, HardshipPlan]
    payoff_quotes: dict[str, PayoffQuote]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    portals: dict[str, Portal]
