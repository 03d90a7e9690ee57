"""The operations desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

``consoles`` is the operator's side: the authenticator console they sign in to and read two-person approval codes
from. The desk's tools never read it; what it shows reaches the desk when the operator reads it out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["operator", "customer"]
Mode = Literal["nominal", "safe"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Customer(Record):
    """A payload owner under contract: the imaging area the month's fee covers, and the rate beyond it."""

    customer_id: str
    name: str
    account_number: str
    quota_km2: float
    used_km2: float
    overage_per_km2: float


class Caller(Record):
    """Someone who calls the desk: a mission operator, or a customer's contact."""

    caller_id: str
    first_name: str
    last_name: str
    role: Role
    reference: str
    """The operator number of an operator, the account number of a customer's contact."""
    passphrase: str
    customer_id: str | None
    """The contact's company; None for operators."""


class Spacecraft(Record):
    spacecraft_id: str
    name: str
    customer_id: str
    mode: Mode
    mode_changes: int
    """How many times the mode was commanded: each change leaves a trace."""
    propellant_kg: float
    reserve_kg: float
    """Propellant kept back for end-of-life disposal; no burn may dip into it."""


class GroundStation(Record):
    station_id: str
    name: str
    rate_per_min: float


class Pass(Record):
    """A window in which a spacecraft is in view of a ground station."""

    pass_id: str
    spacecraft_id: str
    station_id: str
    date: str
    start_utc: str
    duration_min: int
    max_elevation_deg: float
    status: Literal["open", "booked", "released"]
    booking_cost: float | None
    cancellation_charge: float | None


class Channel(Record):
    """A telemetry channel of a spacecraft and its limits."""

    channel_id: str
    spacecraft_id: str
    channel: str
    unit: str
    low: float
    high: float


class Reading(Record):
    reading_id: str
    channel_id: str
    time_utc: str
    value: float


class Alarm(Record):
    alarm_id: str
    channel_id: str
    raised_utc: str
    status: Literal["active", "acknowledged"]
    acknowledged_by: str | None


class Conjunction(Record):
    """A close approach of another object that the screening service warned of."""

    conjunction_id: str
    spacecraft_id: str
    object_name: str
    tca_date: str
    """The date of closest approach."""
    miss_distance_m: int
    probability: float
    status: Literal["monitoring", "closed"]


class Maneuver(Record):
    maneuver_id: str
    spacecraft_id: str
    conjunction_id: str
    burn_date: str
    delta_v_ms: float
    propellant_kg: float
    status: Literal["proposed", "approved"]
    approval_code: str | None


class ImagingRequest(Record):
    request_id: str
    spacecraft_id: str
    target: str
    area_km2: float
    date: str
    charge: float


class QueuedCommand(Record):
    command_id: str
    spacecraft_id: str
    pass_id: str
    command: str
    approval_code: str


class Verification(Record):
    caller_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    caller_id: str
    team: str


class Console(Record):
    """An operator's authenticator console: what they see on it, which the desk's systems do not read."""

    caller_id: str
    operator_number: str
    console_pin: str
    signed_in: bool
    shown: list[str]


class SpaceDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    customers: dict[str, Customer]
    callers: dict[str, Caller]
    spacecraft: dict[str, Spacecraft]
    ground_stations: dict[str, GroundStation]
    passes: dict[str, Pass]
    channels: dict[str, Channel]
    readings: dict[str, Reading]
    alarms: dict[str, Alarm]
    conjunctions: dict[str, Conjunction]
    maneuvers: dict[str, Maneuver]
    imaging_requests: dict[str, ImagingRequest]
    command_queue: dict[str, QueuedCommand]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    consoles: dict[str, Console]
