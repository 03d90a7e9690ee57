"""The trial desk's tables: one pydantic model per record, one field of :class:`PharmaceuticalsDatabase` per table.

Every model forbids unknown fields, so a misspelt field in the generated data stops the load. A value the desk may
set more than once keeps its earlier values (``*_history``), so a wrong write that a later one overwrites still
shows in the graded state. A participant's treatment arm is a field here but no read tool shows it (blinding).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["coordinator", "participant"]
Seriousness = Literal["serious", "non_serious"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Caller(Record):
    """Someone the desk talks to: a site coordinator or a trial participant."""

    caller_id: str
    role: Role
    first_name: str
    last_name: str
    email: str
    site_id: str
    desk_passcode: str
    app_pin: str | None
    """The participant's study-app PIN (coordinators have no study app)."""


class Study(Record):
    study_id: str
    protocol_code: str
    medicine: str
    indication: str
    arms: list[str]
    consent_version: str
    consent_versions: list[str]
    min_age: int
    max_age: int
    min_egfr: int
    window_days: int


class Site(Record):
    site_id: str
    study_id: str
    name: str
    city: str
    coordinator_id: str
    enrolment_cap: int


class Participant(Record):
    participant_id: str
    caller_id: str
    study_id: str
    site_id: str
    date_of_birth: str
    egfr: int
    status: Literal["screening", "randomised", "screen_failed", "withdrawn"]
    status_history: list[str]
    screen_failure_reason: str | None
    kit_number: str | None
    kit_history: list[str]
    arm: str | None
    unblinded: bool
    consent_version: str
    consent_history: list[str]
    withdrawn_on: str | None
    diary_status: Literal["open", "locked", "closed"]
    diary_closes_on: str
    diary_unlocks: int


class Visit(Record):
    visit_id: str
    participant_id: str
    number: int
    name: str
    target_date: str
    status: Literal["completed", "booked", "to_book"]
    visit_date: str | None
    date_history: list[str]


class AdverseEvent(Record):
    ae_id: str
    participant_id: str
    term: str
    hospitalised: bool
    life_threatening: bool
    onset_date: str
    site_aware_date: str
    status: Literal["draft", "submitted"]
    seriousness: Seriousness | None
    submitted_on: str | None


class Sample(Record):
    sample_id: str
    participant_id: str
    site_id: str
    kind: str
    collected_on: str
    pickup_date: str | None
    pickup_history: list[str]


class ConsentForm(Record):
    """A consent form the desk sent to a participant's study app, and whether they signed it there."""

    form_id: str
    participant_id: str
    version: str
    sent_on: str
    signed_on: str | None
    filed: bool


class Receipt(Record):
    """A travel receipt a participant uploaded from their study app."""

    receipt_id: str
    participant_id: str
    visit_id: str
    amount: float


class TravelClaim(Record):
    claim_id: str
    visit_id: str
    participant_id: str
    amount: float
    paid_on: str


class Unblinding(Record):
    unblinding_id: str
    participant_id: str
    ae_id: str
    requested_by: str
    on: str


class Deviation(Record):
    deviation_id: str
    participant_id: str
    kind: str
    logged_on: str


class Verification(Record):
    """A caller the desk has verified, and when."""

    caller_id: str
    verified_at: str


class Handoff(Record):
    handoff_id: str
    caller_id: str
    reason: str


class AppSession(Record):
    """Whether a participant is signed in to their study app (the user's side, outside the graded state)."""

    caller_id: str
    signed_in: bool


class AppMessage(Record):
    """A message in a participant's study app, such as a diary unlock code (outside the graded state)."""

    message_id: str
    caller_id: str
    text: str


class AppReceipt(Record):
    """A travel receipt photographed into the study app, not yet sent to the desk (outside the graded state)."""

    receipt_id: str
    caller_id: str
    visit_id: str
    amount: float
    title: str


class PharmaceuticalsDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    callers: dict[str, Caller]
    studies: dict[str, Study]
    sites: dict[str, Site]
    participants: dict[str, Participant]
    visits: dict[str, Visit]
    adverse_events: dict[str, AdverseEvent]
    samples: dict[str, Sample]
    consent_forms: dict[str, ConsentForm]
    receipts: dict[str, Receipt]
    travel_claims: dict[str, TravelClaim]
    unblindings: dict[str, Unblinding]
    deviations: dict[str, Deviation]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    app_sessions: dict[str, AppSession]
    app_messages: dict[str, AppMessage]
    app_receipts: dict[str, AppReceipt]
