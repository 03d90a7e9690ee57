"""The CRM's tables, one pydantic model per record (``data/<table>.json``), validated when the domain loads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["account_executive", "senior_account_executive", "sales_manager"]
Stage = Literal["qualification", "proposal", "negotiation", "closed_won", "closed_lost"]
Forecast = Literal["pipeline", "best_case", "commit", "closed"]
QuoteStatus = Literal["draft", "pending_approval", "approved", "out_for_signature", "signed"]
BuyingRole = Literal["decision_maker", "champion", "influencer", "end_user"]
Channel = Literal["email", "call"]
LostReason = Literal["price", "competitor", "no_budget", "no_decision", "timing"]
ActivityKind = Literal["meeting", "call", "email"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class VolumeBreak(Record):
    min_quantity: int
    percent_off: int


class Product(Record):
    """A line of the price book, shared by every world."""

    product_id: str
    name: str
    family: str
    list_price: float
    unit: str
    volume_breaks: list[VolumeBreak]


class Rep(Record):
    """A member of the sales team: who they are, their authority, and who they report to."""

    rep_id: str
    first_name: str
    last_name: str
    email: str
    employee_number: str
    role: Role
    manager_id: str | None
    territory: str
    status: Literal["active", "departed"]


class Account(Record):
    account_id: str
    name: str
    industry: str
    territory: str
    owner_rep_id: str | None
    credit_hold: bool
    email_domain: str


class Contact(Record):
    contact_id: str
    account_id: str
    first_name: str
    last_name: str
    title: str
    email: str
    buying_role: BuyingRole
    do_not_email: bool
    do_not_call: bool


class Opportunity(Record):
    opportunity_id: str
    account_id: str
    name: str
    owner_rep_id: str | None
    stage: Stage
    amount: float
    close_date: str
    close_date_changes: int
    """How many times the close date was changed: the pipeline review watches deals that keep slipping."""
    forecast_category: Forecast
    last_activity_date: str
    lost_reason: LostReason | None
    won_quote_id: str | None


class QuoteLine(Record):
    product_id: str
    quantity: int
    unit_price: float


class Quote(Record):
    quote_id: str
    opportunity_id: str
    lines: list[QuoteLine]
    discount_percent: int
    total: float
    status: QuoteStatus
    valid_until: str


class Approval(Record):
    """A request to discount a quote beyond its rep's own authority, and what became of it."""

    approval_id: str
    quote_id: str
    requested_by: str
    approver_id: str
    discount_percent: int
    status: Literal["pending", "approved", "rejected", "escalated"]


class Envelope(Record):
    """A quote sent through the e-signature service to one signer."""

    envelope_id: str
    quote_id: str
    signer_contact_id: str
    signer_email: str
    status: Literal["sent", "signed"]


class Activity(Record):
    activity_id: str
    opportunity_id: str
    contact_id: str
    rep_id: str
    kind: ActivityKind
    date: str


class FollowUp(Record):
    follow_up_id: str
    opportunity_id: str
    contact_id: str
    rep_id: str
    channel: Channel
    due_date: str
    status: Literal["open", "cancelled"]


class CalendarEvent(Record):
    title: str
    date: str
    contact_email: str
    kind: Literal["meeting", "call"]


class Calendar(Record):
    """A rep's own calendar app: the desk cannot see it."""

    rep_id: str
    owner_email: str
    events: list[CalendarEvent]


class Message(Record):
    subject: str
    body: str


class Mailbox(Record):
    """A client contact's own email inbox: the desk cannot see it."""

    contact_id: str
    address: str
    messages: list[Message]


class Verification(Record):
    person_id: str
    method: Literal["employee_number", "emailed_code"]
    verified: bool
    codes_sent: int
    code: str | None


class Handoff(Record):
    handoff_id: str
    person_id: str
    reason: str


class SalesDatabase(BaseModel):
    """Every table of the CRM, the e-signature service, and the users' own apps."""

    products: dict[str, Product]
    reps: dict[str, Rep]
    accounts: dict[str, Account]
    contacts: dict[str, Contact]
    opportunities: dict[str, Opportunity]
    quotes: dict[str, Quote]
    approvals: dict[str, Approval]
    envelopes: dict[str, Envelope]
    activities: dict[str, Activity]
    follow_ups: dict[str, FollowUp]
    calendars: dict[str, Calendar]
    mailboxes: dict[str, Mailbox]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
