"""The plant's database: one pydantic model per record, one field per table (``data/<table>.json``).

``handhelds`` is the operator's side: the shop-floor terminal they sign in to, scan labels and confirm lock-outs
on. The desk's tools never read it; what it shows reaches the desk when the operator reads it out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["operator", "planner", "buyer"]
Severity = Literal["minor", "major", "critical"]
DefectClass = Literal["cosmetic", "dimensional", "assembly", "material"]
OrderStatus = Literal["planned", "in_production", "completed", "cancelled"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Part(Record):
    """A part the plant makes: what a unit costs to make and what a customer pays for it."""

    part_id: str
    name: str
    unit_cost: float
    unit_price: float


class Customer(Record):
    customer_id: str
    name: str


class Contact(Record):
    """Someone who calls the desk: a plant operator or planner, or a customer's buyer."""

    contact_id: str
    first_name: str
    last_name: str
    role: Role
    contact_number: str
    """The badge number of plant staff, the account number of a buyer."""
    desk_pin: str
    customer_id: str | None
    """The buyer's company; None for plant staff."""
    home_line: str | None
    """The line an operator works on; None for planners and buyers."""
    lockout_certified_until: str | None
    """The last day an operator's lock-out/tag-out certification is valid; None: never certified."""


class Line(Record):
    line_id: str
    name: str


class Machine(Record):
    machine_id: str
    line_id: str
    name: str
    status: Literal["running", "idle", "down"]
    last_preventive: str


class WorkOrder(Record):
    work_order_id: str
    customer_id: str
    part_id: str
    line_id: str
    quantity: int
    quantity_done: int
    due_date: str
    status: OrderStatus
    priority: Literal["standard", "rush"]
    revisions: int
    """How many times the quantity was changed: each change leaves a trace."""
    expedite_fee: float | None
    cancellation: str | None
    """The reason an order was cancelled; None while it is not."""
    cancellation_fee: float | None


class Lot(Record):
    lot_id: str
    work_order_id: str
    quantity: int
    produced: str
    status: Literal["in_stock", "on_hold", "shipped", "scrapped"]


class QualityHold(Record):
    hold_id: str
    lot_id: str
    ncr_id: str
    placed: str
    status: Literal["active", "released"]
    release_scan: str | None


class Ncr(Record):
    """A non-conformance report: what is wrong with a lot, how bad, and what was decided."""

    ncr_id: str
    lot_id: str
    defect_class: DefectClass
    severity: Severity
    quantity_affected: int
    opened: str
    status: Literal["open", "closed"]
    disposition: Literal["rework", "scrap", "use_as_is"] | None
    customer_escape: bool
    """Found after the lot shipped: the customer holds the parts."""


class ShiftRun(Record):
    run_id: str
    line_id: str
    date: str
    shift: Literal["day", "night"]
    planned_minutes: int
    downtime_minutes: int
    ideal_units_per_minute: float
    units_made: int
    units_good: int
    status: Literal["open", "closed"]
    published_oee: float | None


class MaintenanceWindow(Record):
    window_id: str
    machine_id: str
    kind: Literal["preventive", "repair"]
    date: str
    lockout_tag: str | None
    status: Literal["scheduled", "in_progress", "done"]


class Verification(Record):
    contact_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    contact_id: str
    team: str


class Handheld(Record):
    """An operator's shop-floor handheld: what they see on it, which the desk's systems do not read."""

    contact_id: str
    badge_number: str
    pin: str
    signed_in: bool
    screen: list[str]


class ManufacturingDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    parts: dict[str, Part]
    customers: dict[str, Customer]
    contacts: dict[str, Contact]
    lines: dict[str, Line]
    machines: dict[str, Machine]
    work_orders: dict[str, WorkOrder]
    lots: dict[str, Lot]
    quality_holds: dict[str, QualityHold]
    ncrs: dict[str, Ncr]
    shift_runs: dict[str, ShiftRun]
    maintenance_windows: dict[str, MaintenanceWindow]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    handhelds: dict[str, Handheld]
