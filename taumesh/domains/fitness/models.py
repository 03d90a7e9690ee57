"""The club's database: one pydantic model per record, one field per table (``data/<table>.json``).

Every record forbids unknown fields, so a misspelled field in a generated world or a tool's write fails at load
time instead of hiding from the policy's rules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from taumesh.domains.fitness.safety import Condition

Level = Literal["low", "moderate", "high"]
Focus = Literal["legs", "core", "cardio", "upper_body", "mobility"]
Certification = Literal["rehab", "cardiac", "prenatal"]


class Record(BaseModel):
    """A record of the club's systems: no field beyond those declared."""

    model_config = ConfigDict(extra="forbid")


class Plan(Record):
    """A membership tier with its prices and allowances."""

    plan_id: str
    name: str
    monthly_fee: float
    guest_passes_per_month: int
    freeze_fee_per_month: float
    session_price: float


class Club(Record):
    club_id: str
    name: str
    city: str


class Cancellation(Record):
    """A member's notice to leave: the last day and the early-termination fee charged."""

    effective_date: str
    termination_fee: float


class Member(Record):
    member_id: str
    first_name: str
    last_name: str
    email: str
    date_of_birth: str
    postcode: str
    home_club_id: str
    plan_id: str
    status: Literal["active", "frozen", "cancelling"]
    joined: str
    billing_day: int
    commitment_end: str
    conditions: list[Condition]
    cleared_conditions: list[Condition]
    balance_due: float
    trainer_credits: int
    weekly_goal_minutes: int
    goal_history: list[int]
    """The goals set before the current one, oldest first: every change is kept."""
    last_fee_waiver: str | None
    cancellation: Cancellation | None = None


class FitnessClass(Record):
    """A scheduled group class and the traits the safety rules read."""

    class_id: str
    club_id: str
    title: str
    start: str
    minutes: int
    intensity: Level
    impact: Literal["low", "high"]
    spinal_load: Literal["low", "high"]
    heated: bool
    capacity: int
    booked: int


class Booking(Record):
    booking_id: str
    member_id: str
    class_id: str
    status: Literal["booked", "cancelled"]
    late_fee: float
    fee_waived: bool


class Charge(Record):
    charge_id: str
    member_id: str
    kind: Literal["late_cancel", "freeze", "day_pass", "training_session", "termination"]
    amount: float
    status: Literal["open", "waived"]


class Trainer(Record):
    trainer_id: str
    club_id: str
    name: str
    certifications: list[Certification]


class TrainerSlot(Record):
    slot_id: str
    trainer_id: str
    start: str
    status: Literal["open", "booked"]
    member_id: str | None
    paid_with: Literal["credit", "charge"] | None


class Routine(Record):
    """A routine of a club's programming library, with the same traits as a class."""

    routine_id: str
    club_id: str
    name: str
    focus: Focus
    minutes: int
    intensity: Level
    impact: Literal["low", "high"]
    spinal_load: Literal["low", "high"]
    heated: bool


class RoutineAssignment(Record):
    assignment_id: str
    member_id: str
    routine_id: str
    assigned_on: str


class Activity(Record):
    activity_id: str
    member_id: str
    date: str
    kind: str
    minutes: int
    source: Literal["check_in", "watch"]


class Freeze(Record):
    freeze_id: str
    member_id: str
    start_date: str
    months: int
    resume_date: str


class GuestVisit(Record):
    visit_id: str
    member_id: str
    guest_name: str
    visit_date: str
    kind: Literal["guest_pass", "day_pass"]


class WatchWorkout(Record):
    share_code: str
    recorded: str
    kind: str
    minutes: int


class Wearable(Record):
    """The member's own watch and app: the club sees a workout only when the member shares its code."""

    member_id: str
    account_email: str
    workouts: list[WatchWorkout]


class Verification(Record):
    member_id: str
    method: Literal["date_of_birth_and_postcode"]


class Escalation(Record):
    escalation_id: str
    member_id: str
    reason: str


class FitnessDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    plans: dict[str, Plan]
    clubs: dict[str, Club]
    members: dict[str, Member]
    classes: dict[str, FitnessClass]
    bookings: dict[str, Booking]
    charges: dict[str, Charge]
    trainers: dict[str, Trainer]
    trainer_slots: dict[str, TrainerSlot]
    routines: dict[str, Routine]
    routine_assignments: dict[str, RoutineAssignment]
    activities: dict[str, Activity]
    freezes: dict[str, Freeze]
    guest_visits: dict[str, GuestVisit]
    wearables: dict[str, Wearable]
    verifications: dict[str, Verification]
    escalations: dict[str, Escalation]
