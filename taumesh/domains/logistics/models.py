"""The operations desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

``tracking_apps`` is the client's side: their tracking app (sign-in, inbox, the safe places they chose and the
photos they uploaded). The desk's tools never read it; the client reads it out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

ShipmentStatus = Literal[
    "awaiting_pickup", "in_transit", "at_depot", "out_for_delivery", "failed_attempt", "delivered", "cancelled"
]
Service = Literal["standard", "express"]
Slot = Literal["morning", "afternoon"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Carrier(Record):
    """A carrier the desk books: its tariff, the weights and goods it takes, the regions it serves, its liability."""

    carrier_id: str
    name: str
    base_fee: float
    per_kg: float
    express_surcharge: float
    max_kg: float
    takes_hazardous: bool
    liability_per_kg: float
    regions: list[str]


class Depot(Record):
    depot_id: str
    name: str
    city: str
    region: str
    max_parcel_kg: float


class Client(Record):
    """A client of the desk: they ship parcels, receive them, or both."""

    client_id: str
    first_name: str
    last_name: str
    company: str
    email: str
    account_number: str
    postal_code: str
    region: str


class Operator(Record):
    """A depot operator: they count the depot's stock and log its incidents through the desk."""

    operator_id: str
    first_name: str
    last_name: str
    depot_id: str
    badge_pin: str


class Window(Record):
    date: str
    slot: Slot


class Charge(Record):
    kind: Literal["redirect", "redelivery", "cancellation_refund"]
    amount: float


class Booking(Record):
    carrier_id: str
    pickup_date: str


class Shipment(Record):
    shipment_id: str
    """The tracking number on the label."""
    shipper_id: str
    consignee_id: str
    origin_depot: str
    destination_depot: str
    current_depot: str | None
    carrier_id: str | None
    service: Service
    weight_kg: float
    declared_value: float
    hazardous: bool
    signature_required: bool
    status: ShipmentStatus
    price: float | None
    pickup_date: str | None
    delivery: Window | None
    """The delivery date and slot the carrier works to; for a delivered parcel, when it was delivered."""
    window_history: list[Window]
    """Every earlier delivery window, oldest first: each change the consignee asked for (policy 4.3)."""
    booking_history: list[Booking]
    redirected_to: str | None
    safe_place: str | None
    failed_attempts: int
    charges: list[Charge]


class Claim(Record):
    claim_id: str
    shipment_id: str
    client_id: str
    amount: float
    photo_reference: str
    filed: str


class StockAdjustment(Record):
    from_quantity: int
    to_quantity: int
    operator_id: str


class StockItem(Record):
    """A client's goods stored at a depot, counted by its operators."""

    stock_id: str
    depot_id: str
    owner_id: str
    sku: str
    description: str
    quantity: int
    adjustments: list[StockAdjustment]
    recount_requested: bool


class Incident(Record):
    incident_id: str
    shipment_id: str
    depot_id: str
    operator_id: str
    kind: Literal["damage", "delay", "loss"]
    severity: Literal["minor", "major", "critical"]


class Verification(Record):
    party_id: str
    method: Literal["account", "app_passcode", "badge"]
    verified: bool
    passcodes_sent: int
    passcode: str | None


class Handoff(Record):
    handoff_id: str
    party_id: str
    team: str


class TrackingApp(Record):
    """The client's tracking app: what they see and do there, which the desk's systems do not read."""

    client_id: str
    username: str
    pin: str
    signed_in: bool
    inbox: list[str]
    safe_place_choices: list[str]
    uploaded_photos: list[str]


class LogisticsDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    carriers: dict[str, Carrier]
    depots: dict[str, Depot]
    clients: dict[str, Client]
    operators: dict[str, Operator]
    shipments: dict[str, Shipment]
    claims: dict[str, Claim]
    stock: dict[str, StockItem]
    incidents: dict[str, Incident]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    tracking_apps: dict[str, TrackingApp]
