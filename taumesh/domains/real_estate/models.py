"""The agency's tables as pydantic records: the files in ``data/`` are validated against them when the domain loads.

Every record forbids unknown fields, so a generator or tool that writes a misspelt key fails loudly.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PreApproval(Record):
    """A mortgage pre-approval the agency has verified: which letter, which lender, how much, until when."""

    document_id: str
    lender: str
    amount: int
    expires: str


class Client(Record):
    client_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    postcode: str
    role: str
    """``buyer`` or ``renter``."""
    agent_id: str
    adults: int
    """Adults who would live in a rental (each pays the application fee)."""
    has_pets: bool
    pre_approval: PreApproval | None
    verified_monthly_income: float | None


class Agent(Record):
    agent_id: str
    name: str
    team: str
    phone: str


class Listing(Record):
    listing_id: str
    address: str
    neighborhood: str
    kind: str
    """``sale`` (price is the asking price) or ``rent`` (price is the monthly rent)."""
    property_type: str
    bedrooms: int
    bathrooms: float
    square_feet: int
    year_built: int
    price: int
    hoa_monthly: float
    property_tax_annual: float
    status: str
    """``active``, ``coming_soon`` or ``under_contract``."""
    listing_agent_id: str
    occupied: bool
    """Someone lives there now: showings need a day's notice (policy section 4)."""
    pre_approval_required: bool
    pets_allowed: bool


class Showing(Record):
    """A showing window of a listing: open, or booked by a tour."""

    slot_id: str
    listing_id: str
    start: str
    status: str


class Tour(Record):
    tour_id: str
    client_id: str
    listing_id: str
    slot_id: str
    start: str
    status: str
    """``scheduled`` or ``cancelled``."""


class Offer(Record):
    offer_id: str
    client_id: str
    listing_id: str
    amount: int
    earnest_money: int
    status: str
    """``submitted``, ``countered``, ``accepted`` or ``withdrawn``."""
    submitted_on: str
    counter_amount: int | None
    counter_expires: str | None
    inspection_deadline: str | None
    """An accepted offer's inspection contingency ends on this date."""


class Document(Record):
    """A listing's document (floor plan, disclosure, report) or a file a client uploaded (letter, pay stub)."""

    document_id: str
    kind: str
    title: str
    listing_id: str | None
    client_id: str | None
    status: str
    """Listing documents are ``on_file``; uploads are ``received``, then ``verified`` or ``rejected``."""
    shared_with: list[str]
    rejection_reason: str | None
    lender: str | None
    amount: int | None
    expires: str | None
    monthly_income: float | None


class Signature(Record):
    """A disclosure sent to a client's portal for acknowledgement, and whether they have signed it."""

    signature_id: str
    document_id: str
    client_id: str
    status: str
    """``awaiting`` or ``signed``."""


class Application(Record):
    application_id: str
    client_id: str
    listing_id: str
    application_fee: float
    status: str


class Message(Record):
    """What the agency told a party: a summary sent to a client, a notice sent to a listing agent."""

    message_id: str
    to: str
    topic: str
    listing_id: str
    client_id: str


class Handoff(Record):
    handoff_id: str
    client_id: str
    reason: str


class Verification(Record):
    client_id: str
    verified: bool


class PortalFile(Record):
    """A file on the client's own device, not yet given to the agency."""

    file_id: str
    kind: str
    title: str
    lender: str | None
    amount: int | None
    expires: str | None
    monthly_income: float | None
    uploaded: bool


class Portal(Record):
    """The client's portal: only they can sign in (with their password), upload files and sign disclosures."""

    client_id: str
    password: str
    signed_in: bool
    files: list[PortalFile]


class RealEstateDatabase(BaseModel):
    """Every table, by record id."""

    clients: dict[str, Client]
    agents: dict[str, Agent]
    listings: dict[str, Listing]
    showings: dict[str, Showing]
    tours: dict[str, Tour]
    offers: dict[str, Offer]
    documents: dict[str, Document]
    signatures: dict[str, Signature]
    applications: dict[str, Application]
    messages: dict[str, Message]
    handoffs: dict[str, Handoff]
    verifications: dict[str, Verification]
    portals: dict[str, Portal]
