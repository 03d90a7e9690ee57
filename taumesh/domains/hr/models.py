"""The HR desk's tables: one pydantic model per record, one field per table (``data/<table>.json``).

Every model forbids unknown fields, so a misspelt field in the generated data stops the load instead of hiding.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PayGrade(Record):
    """A salary band: shared reference data, the same in every world."""

    pay_grade: str
    label: str
    salary_min: int
    salary_max: int


class Blackout(Record):
    """Dates a department takes no annual leave (a stock count, a year-end close)."""

    start: str
    end: str
    reason: str


class Department(Record):
    department_id: str
    name: str
    manager_id: str
    budgeted_headcount: int
    shift_based: bool
    roles: list[str]
    blackouts: list[Blackout]


class Employee(Record):
    employee_id: str
    first_name: str
    last_name: str
    work_email: str
    date_of_birth: str
    ssn_last_four: str
    department_id: str
    role: str
    manager_id: str | None
    employment_type: Literal["full_time", "part_time"]
    hire_date: str
    pay_grade: str
    annual_salary: int
    last_pay_change: str | None
    home_address: str
    phone: str
    emergency_contact: str


class LeaveBalance(Record):
    employee_id: str
    annual_days: float
    sick_days: float
    accrual_days_per_month: float
    cashed_out_this_year: float


class LeaveRequest(Record):
    request_id: str
    employee_id: str
    leave_type: Literal["annual", "sick"]
    start_date: str
    end_date: str
    days: int
    status: Literal["approved", "cancelled"]


class Shift(Record):
    shift_id: str
    employee_id: str
    department_id: str
    role: str
    start: str
    end: str


class SwapRequest(Record):
    swap_id: str
    shift_id: str
    from_employee_id: str
    covering_employee_id: str
    status: Literal["awaiting_employee", "confirmed", "completed"]


class OnboardingItem(Record):
    item_id: str
    employee_id: str
    name: str
    kind: Literal["signature", "in_person", "training"]
    document_id: str | None
    training_score: int | None
    due_date: str
    status: Literal["open", "complete"]


class Document(Record):
    document_id: str
    employee_id: str
    title: str
    signed: bool


class PortalAccount(Record):
    """The employee's self-service portal: the desk cannot sign in; only the employee, with their PIN."""

    employee_id: str
    pin: str
    signed_in: bool
    codes_sent: int
    messages: list[str]


class JobOpening(Record):
    opening_id: str
    department_id: str
    title: str
    pay_grade: str
    salary_min: int
    salary_max: int
    posted_on: str
    closing_date: str
    status: Literal["open", "closed"]


class PayChange(Record):
    change_id: str
    employee_id: str
    old_salary: int
    new_salary: int
    effective_date: str
    approval_level: Literal["manager", "director"]
    status: Literal["approved", "awaiting_director"]


class Verification(Record):
    employee_id: str
    verified_at: str
    code_confirmed: bool
    """The employee read back the code sent to their portal (needed before a contact change: policy 10.1)."""


class RecordChange(Record):
    change_id: str
    employee_id: str
    field: str
    old_value: str
    new_value: str


class Handoff(Record):
    handoff_id: str
    employee_id: str
    reason: str


class HrDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    pay_grades: dict[str, PayGrade]
    departments: dict[str, Department]
    employees: dict[str, Employee]
    leave_balances: dict[str, LeaveBalance]
    leave_requests: dict[str, LeaveRequest]
    shifts: dict[str, Shift]
    swap_requests: dict[str, SwapRequest]
    onboarding_items: dict[str, OnboardingItem]
    documents: dict[str, Document]
    portal_accounts: dict[str, PortalAccount]
    job_openings: dict[str, JobOpening]
    pay_changes: dict[str, PayChange]
    verifications: dict[str, Verification]
    record_changes: dict[str, RecordChange]
    handoffs: dict[str, Handoff]
