"""The matter-management desk's tables: one pydantic model per record, one field of :class:`LegalDatabase` per table.

``extra="forbid"`` everywhere, so that a misspelled field in a generated file stops the domain from loading.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Attorney(_Record):
    """A lawyer of the firm; ``screened_parties`` are parties they once acted for, walled off from them now."""

    attorney_id: str
    first_name: str
    last_name: str
    email: str
    bar_number: str
    role: Literal["partner", "senior_associate", "associate"]
    practice_group: str
    hourly_rate: int
    status: Literal["active", "departed"]
    screened_parties: list[str]


class Client(_Record):
    """A person or an organisation the firm acts for (or is asked to)."""

    client_id: str
    name: str
    kind: Literal["individual", "organisation"]
    client_number: str


class Contact(_Record):
    """Someone who speaks for a client; only a signatory binds an organisation to an engagement."""

    contact_id: str
    client_id: str
    first_name: str
    last_name: str
    email: str
    postcode: str
    signatory: bool


class Matter(_Record):
    """A piece of work for a client: opened at intake, open once engaged, closed with a disposition."""

    matter_id: str
    client_id: str
    title: str
    practice_area: str
    responsible_attorney_id: str
    team: list[str]
    adverse_party: str
    status: Literal["intake", "open", "closed"]
    opened_on: str
    conflict_check_id: str | None
    engagement_letter_id: str | None
    citations: list[str]
    closed_on: str | None
    disposition: str | None


class ConflictCheck(_Record):
    """A search of the firm's clients for a proposed adverse party; a conflict stays on record once escalated."""

    check_id: str
    client_id: str
    adverse_party: str
    run_by: str
    result: Literal["clear", "conflict"]
    hits: list[str]
    escalated: bool


class Deadline(_Record):
    """A date a matter must meet; ``moves`` keeps every date it was moved away from, oldest first."""

    deadline_id: str
    matter_id: str
    kind: str
    description: str
    due_on: str
    original_due_on: str
    status: Literal["open", "met"]
    moves: list[str]


class Document(_Record):
    """A document on a matter's file; privileged ones are logged, never produced."""

    document_id: str
    matter_id: str
    title: str
    kind: str
    privilege: Literal["none", "attorney_client", "work_product"]
    status: Literal["draft", "final"]
    produced: bool
    source: Literal["firm", "client"]
    template_id: str | None
    author_id: str | None
    reviewer_id: str | None


class EngagementLetter(_Record):
    """The terms a client signs in their portal before work starts."""

    letter_id: str
    matter_id: str
    contact_id: str
    fee_basis: Literal["hourly", "fixed", "contingency"]
    retainer: int
    status: Literal["sent", "signed"]
    signed_on: str | None


class Template(_Record):
    """A document template the desk drafts from; ``partner_review`` drafts go to the matter's partner."""

    template_id: str
    name: str
    practice_areas: list[str]
    partner_review: bool


class Authority(_Record):
    """A statute, case or model clause of the research corpus; only good law is cited."""

    authority_id: str
    citation: str
    title: str
    kind: Literal["statute", "case", "clause"]
    jurisdiction: str
    topics: list[str]
    summary: str
    status: Literal["good_law", "overruled", "repealed"]
    superseded_by: str | None


class Verification(_Record):
    person_id: str
    method: Literal["bar_number", "client_number"]
    verified: bool


class PrivilegeLogEntry(_Record):
    entry_id: str
    matter_id: str
    document_id: str
    basis: Literal["attorney_client", "work_product"]


class UploadRequest(_Record):
    """A slot in a client's portal for one document; the client's upload fills it."""

    request_id: str
    matter_id: str
    contact_id: str
    description: str
    status: Literal["open", "received"]
    document_id: str | None


class Handoff(_Record):
    handoff_id: str
    person_id: str
    reason: str


class LegalDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    attorneys: dict[str, Attorney]
    clients: dict[str, Client]
    contacts: dict[str, Contact]
    matters: dict[str, Matter]
    conflict_checks: dict[str, ConflictCheck]
    deadlines: dict[str, Deadline]
    documents: dict[str, Document]
    engagement_letters: dict[str, EngagementLetter]
    templates: dict[str, Template]
    authorities: dict[str, Authority]
    verifications: dict[str, Verification]
    privilege_log: dict[str, PrivilegeLogEntry]
    upload_requests: dict[str, UploadRequest]
    handoffs: dict[str, Handoff]
