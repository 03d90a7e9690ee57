"""The box office's tables as pydantic records: the files are validated against them when the domain loads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

EventStatus = Literal["scheduled", "postponed", "cancelled"]
OrderStatus = Literal["active", "refunded", "transferred"]
TransferStatus = Literal["awaiting_release", "offered", "accepted"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Organiser(Record):
    """A company that runs events through the box office; its contact calls for it."""

    organiser_id: str
    company: str
    contact_first_name: str
    contact_last_name: str
    email: str
    passphrase: str


class Room(Record):
    name: str
    capacity: int


class Venue(Record):
    venue_id: str
    name: str
    city: str
    capacity: int
    step_free: bool
    day_rate: float
    rooms: list[Room]


class VenueBooking(Record):
    """A day a venue is taken: by an event, or held by an organiser who paid a deposit."""

    booking_id: str
    venue_id: str
    date: str
    organiser_id: str
    deposit: float
    kind: Literal["event", "hold"]


class Event(Record):
    event_id: str
    title: str
    kind: Literal["concert", "theatre", "festival", "conference"]
    organiser_id: str
    venue_id: str
    start: str
    end: str
    status: EventStatus


class TicketClass(Record):
    class_id: str
    event_id: str
    name: str
    price: float
    allocation: int
    sold: int
    refundable: bool
    transferable: bool
    includes_workshops: bool


class Attendee(Record):
    attendee_id: str
    first_name: str
    last_name: str
    email: str
    postcode: str


class Order(Record):
    order_id: str
    reference: str
    """The booking reference printed on the confirmation, which the holder quotes."""
    attendee_id: str
    event_id: str
    class_id: str
    quantity: int
    unit_price: float
    status: OrderStatus
    transfers_made: int
    accessibility: list[str]
    charges: list[float]


class Session(Record):
    """A talk or workshop of a conference, in one of its venue's rooms."""

    session_id: str
    event_id: str
    title: str
    speaker: str
    room: str
    start: str
    end: str
    capacity: int
    seats_taken: int
    registered_orders: list[str]


class Transfer(Record):
    transfer_id: str
    order_id: str
    sender_id: str
    recipient_email: str
    status: TransferStatus
    offer_expires: str | None
    reissues: int


class Notification(Record):
    kind: Literal["release_code", "transfer_offer"]
    text: str


class Wallet(Record):
    """The attendee's ticket app: what the user sees on their own phone, and the box office does not."""

    attendee_id: str
    account_email: str
    notifications: list[Notification]
    tickets: list[str]
    """Booking references of the orders the app shows."""


class Verification(Record):
    person_id: str
    method: Literal["booking_reference", "app_code", "passphrase"]
    verified: bool


class Refund(Record):
    refund_id: str
    order_id: str
    amount: float


class Notice(Record):
    """A message the box office sent to the holders registered for a session."""

    notice_id: str
    session_id: str
    kind: str
    recipients: int


class Handoff(Record):
    handoff_id: str
    person_id: str
    topic: str


class EventsDatabase(BaseModel):
    """Every table, by record id."""

    organisers: dict[str, Organiser]
    venues: dict[str, Venue]
    venue_bookings: dict[str, VenueBooking]
    events: dict[str, Event]
    ticket_classes: dict[str, TicketClass]
    attendees: dict[str, Attendee]
    orders: dict[str, Order]
    sessions: dict[str, Session]
    transfers: dict[str, Transfer]
    wallets: dict[str, Wallet]
    verifications: dict[str, Verification]
    refunds: dict[str, Refund]
    notices: dict[str, Notice]
    handoffs: dict[str, Handoff]
