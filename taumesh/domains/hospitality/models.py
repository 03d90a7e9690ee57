"""The hotel group's database: one pydantic model per record, one field per table (``data/<table>.json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

RoomType = Literal["standard", "deluxe", "suite"]
Tier = Literal["member", "silver", "gold", "platinum"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Hotel(Record):
    hotel_id: str
    name: str
    city: str
    base_rates: dict[RoomType, float]
    """The flexible rate of each room type, per night; the other plans discount it."""


class Room(Record):
    room_id: str
    hotel_id: str
    number: str
    floor: int
    room_type: RoomType
    housekeeping: Literal["clean", "dirty"]
    open_issue: str | None
    """A maintenance fault logged on the room and not yet fixed (the ground for a free move)."""
    occupied_by: str | None
    """The in-house reservation in the room, if any."""


class RatePlan(Record):
    plan_id: Literal["flex", "member", "advance"]
    name: str
    discount: float
    refundable: bool
    members_only: bool
    min_days_ahead: int


class Guest(Record):
    guest_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    postal_code: str
    card_last_four: str
    loyalty_tier: Tier
    member_number: str
    points: int
    preferences: list[str]
    revision: int
    """Bumped by every change the desk makes to the record, as the property system versions its records."""


class Reservation(Record):
    reservation_id: str
    guest_id: str
    hotel_id: str
    room_type: RoomType
    room_id: str | None
    check_in: str
    check_out: str
    nightly_rate: float
    rate_plan: Literal["flex", "member", "advance"]
    channel: Literal["direct", "third_party"]
    status: Literal["booked", "checked_in", "checked_out", "cancelled"]
    cancellation_fee: float | None
    checkout_time: str
    late_checkout_fee: float
    points_earned: int | None
    """Points credited for the stay; None until credited (third-party stays never earn any)."""
    digital_key: bool
    revision: int
    """Bumped by every change the desk makes to the stay."""


class Charge(Record):
    charge_id: str
    reservation_id: str
    description: str
    category: Literal["minibar", "room_service", "parking", "spa", "laundry", "restaurant"]
    amount: float
    posted: str
    status: Literal["posted", "reversed", "under_review"]


class Feedback(Record):
    feedback_id: str
    guest_id: str
    reservation_id: str
    topic: str
    severity: Literal["minor", "major", "safety"]
    logged: str
    status: Literal["open", "resolved"]
    compensation_kind: Literal["points", "night_credit"] | None
    compensation_amount: float | None
    revision: int
    """Bumped by every change the desk makes to the complaint."""


class AppMessage(Record):
    sender: str
    text: str


class DigitalKey(Record):
    reservation_id: str
    room_number: str | None
    status: Literal["pending", "active"]


class Phone(Record):
    """The guest's phone with the hotel app: what the desk cannot see, only hear about."""

    guest_id: str
    app_pin: str
    device_code: str
    """Shown in the app's settings; the desk issues a mobile key to the phone with this code."""
    signed_in: bool
    inbox: list[AppMessage]
    keys: list[DigitalKey]


class Verification(Record):
    guest_id: str
    method: Literal["card", "app_code"]
    verified: bool
    codes_sent: int
    code: str | None


class Handoff(Record):
    handoff_id: str
    guest_id: str
    reason: str


class HospitalityDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    hotels: dict[str, Hotel]
    rooms: dict[str, Room]
    rate_plans: dict[str, RatePlan]
    guests: dict[str, Guest]
    reservations: dict[str, Reservation]
    charges: dict[str, Charge]
    feedback: dict[str, Feedback]
    phones: dict[str, Phone]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
