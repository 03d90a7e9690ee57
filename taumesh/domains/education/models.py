"""The student-services desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

``portals`` is the student's side: the learning portal they sign in to, where they accept a tutoring offer and
upload work. The desk's tools never read it, and it stays outside the graded state; what a student uploads lands in
``submissions``, which is graded.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["student", "instructor"]
Term = Literal["summer-2026", "autumn-2026"]
EnrolmentStatus = Literal["enrolled", "waitlisted", "dropped", "withdrawn", "completed"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Person(Record):
    """A student or an instructor of the university; students carry the credit load their standing allows."""

    person_id: str
    first_name: str
    last_name: str
    role: Role
    university_number: str
    date_of_birth: str
    department: str
    credit_limit: int | None
    """The most credits a student may carry in the current term; None for instructors."""


class Account(Record):
    """A student's fee account: what is owed this term, what is overdue from before, and the fee band."""

    student_id: str
    balance: float
    overdue: float
    fee_band: Literal["home", "international"]
    bursary: bool
    """A bursary holder pays half the price of a course pack."""


class Course(Record):
    """A course in one term, with the dates of its add, drop and withdrawal windows."""

    course_id: str
    code: str
    title: str
    term: Term
    instructor_id: str
    credits: int
    capacity: int
    enrolled: int
    add_by: str
    drop_by: str
    withdraw_by: str
    grades_posted: str | None
    """When final grades were posted (past terms only)."""
    prerequisite_id: str | None
    pack_price: float


class Enrolment(Record):
    enrolment_id: str
    student_id: str
    course_id: str
    status: EnrolmentStatus
    grade: str | None
    waitlist_position: int | None
    tuition_charged: float
    withdrawal_fee: float


class Assignment(Record):
    assignment_id: str
    course_id: str
    title: str
    due: str
    weight: int
    """Percent of the course mark."""


class Submission(Record):
    submission_id: str
    assignment_id: str
    student_id: str
    submitted_on: str
    file_name: str
    mark: float | None


class Extension(Record):
    extension_id: str
    assignment_id: str
    student_id: str
    days: int
    new_due: str
    reason: str


class LateWindow(Record):
    """A window the desk opened for work handed in after its due date, with the penalty it carries."""

    window_id: str
    assignment_id: str
    student_id: str
    days_late: int
    penalty_percent: int


class GradeChange(Record):
    """A grade change an instructor asked for; it waits for the head of department's approval."""

    request_id: str
    enrolment_id: str
    requested_by: str
    from_grade: str
    to_grade: str
    reason: str
    status: Literal["pending_approval", "approved"]


class TutoringSlot(Record):
    slot_id: str
    course_id: str
    tutor: str
    date: str
    start: str
    status: Literal["open", "booked"]
    student_id: str | None
    confirmation_code: str | None


class PackOrder(Record):
    order_id: str
    student_id: str
    course_id: str
    charge: float


class Verification(Record):
    person_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    person_id: str
    team: str


class Portal(Record):
    """A student's learning portal: signed in or not, and what it has shown them."""

    person_id: str
    university_number: str
    portal_pin: str
    signed_in: bool
    shown: list[str]


class EducationDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    people: dict[str, Person]
    accounts: dict[str, Account]
    courses: dict[str, Course]
    enrolments: dict[str, Enrolment]
    assignments: dict[str, Assignment]
    submissions: dict[str, Submission]
    extensions: dict[str, Extension]
    late_windows: dict[str, LateWindow]
    grade_changes: dict[str, GradeChange]
    tutoring_slots: dict[str, TutoringSlot]
    pack_orders: dict[str, PackOrder]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    portals: dict[str, Portal]
