"""The project desk's tables: one pydantic model per record, one field of :class:`ConstructionDatabase` per table.

Every model forbids unknown fields, so a misspelt field in the generated data stops the load. Records whose value
the desk may set again keep their earlier values (``*_history``), so a wrong write that a later one overwrites still
shows in the graded state.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["owner", "site_manager", "subcontractor"]
DocumentKind = Literal["insurance_certificate", "lien_waiver"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Contact(Record):
    """A person the desk talks to: a project owner, one of the contractor's site managers, or a subcontractor."""

    contact_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    role: Role
    company_id: str | None
    passphrase: str


class Project(Record):
    project_id: str
    name: str
    address: str
    owner_contact_id: str
    site_manager_id: str
    contract_value: float
    contingency_remaining: float
    contract_completion: str
    value_history: list[float]
    completion_history: list[str]


class Subcontractor(Record):
    company_id: str
    name: str
    trade: str
    contact_id: str
    licence_number: str
    licence_expiry: str
    liability_cover: int
    insurance_expiry: str
    insurance_history: list[str]


class WorkPackage(Record):
    package_id: str
    project_id: str
    company_id: str
    scope: str
    start_date: str
    end_date: str
    value: float
    status: Literal["awaiting_clearance", "cleared", "compliance_hold", "on_site"]
    status_history: list[str]
    hold_reason: str | None


class Permit(Record):
    permit_id: str
    project_id: str
    kind: str
    valuation: float
    documents: list[str]
    status: Literal["draft", "submitted", "approved"]
    submitted_on: str | None
    fee_paid: float | None
    expires_on: str | None


class Inspection(Record):
    inspection_id: str
    permit_id: str
    kind: str
    date: str
    status: Literal["passed", "failed", "scheduled", "cancelled"]


class Milestone(Record):
    milestone_id: str
    project_id: str
    name: str
    due_date: str
    status: Literal["open", "complete"]
    date_history: list[str]


class ChangeOrder(Record):
    change_order_id: str
    project_id: str
    description: str
    amount: float
    days_added: int
    priced_on: str
    status: Literal["awaiting_owner", "executed"]
    owner_signed_on: str | None


class Invoice(Record):
    invoice_id: str
    package_id: str
    company_id: str
    amount: float
    status: Literal["submitted", "approved", "paid"]


class Payment(Record):
    payment_id: str
    invoice_id: str
    amount: float
    paid_on: str


class Worker(Record):
    worker_id: str
    company_id: str
    first_name: str
    last_name: str
    safety_card_expiry: str


class SitePass(Record):
    pass_id: str
    project_id: str
    worker_id: str
    issued_on: str


class Document(Record):
    """A document the desk holds on file, uploaded by a subcontractor from their portal."""

    document_id: str
    company_id: str
    kind: DocumentKind
    liability_cover: int | None
    expires_on: str | None
    invoice_id: str | None
    status: Literal["received", "accepted", "rejected"]
    rejection_reason: str | None


class PortalFile(Record):
    """A file in a subcontractor's own portal, not yet with the desk (the user's side, outside the graded state)."""

    file_id: str
    contact_id: str
    kind: DocumentKind
    title: str
    liability_cover: int | None
    expires_on: str | None
    invoice_id: str | None


class PortalSession(Record):
    """Whether a contact is signed in to their portal (the user's side, outside the graded state)."""

    contact_id: str
    signed_in: bool


class DeskCheck(Record):
    """A caller the desk has verified, and when."""

    contact_id: str
    checked_at: str


class Notice(Record):
    notice_id: str
    project_id: str
    contact_id: str
    topic: str
    sent_on: str


class Escalation(Record):
    escalation_id: str
    contact_id: str
    topic: str


class ConstructionDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    contacts: dict[str, Contact]
    projects: dict[str, Project]
    subcontractors: dict[str, Subcontractor]
    work_packages: dict[str, WorkPackage]
    permits: dict[str, Permit]
    inspections: dict[str, Inspection]
    milestones: dict[str, Milestone]
    change_orders: dict[str, ChangeOrder]
    invoices: dict[str, Invoice]
    payments: dict[str, Payment]
    workers: dict[str, Worker]
    site_passes: dict[str, SitePass]
    documents: dict[str, Document]
    portal_files: dict[str, PortalFile]
    portal_sessions: dict[str, PortalSession]
    desk_checks: dict[str, DeskCheck]
    notices: dict[str, Notice]
    escalations: dict[str, Escalation]
