"""The telecom carrier's database: plans, customers, lines, bills, devices (tables that are lists)."""

from __future__ import annotations

import datetime
from enum import Enum

from pydantic import Field

from taumesh.domains.tau2._models import Database, StrictRecord

DEFAULT_START_DATE = datetime.date(2025, 1, 1)
"""A customer's ``created_at`` when the data gives none: a date, left unvalidated, so it dumps as ``2025-01-01``."""


class Address(StrictRecord):
    street: str
    city: str
    state: str
    zip_code: str


class Plan(StrictRecord):
    plan_id: str
    name: str
    data_limit_gb: float
    price_per_month: float
    data_refueling_price_per_gb: float


class DeviceType(str, Enum):  # noqa: UP042 - τ²'s mixin: str() and repr() as τ²'s
    PHONE = "phone"
    ROUTER = "router"
    TABLET = "tablet"
    WATCH = "watch"
    OTHER = "other"


class Device(StrictRecord):
    device_id: str
    device_type: DeviceType
    model: str
    imei: str | None = None
    is_esim_capable: bool
    activated: bool = False
    activation_date: datetime.datetime | None = None
    last_esim_transfer_date: datetime.datetime | None = None


class LineStatus(str, Enum):  # noqa: UP042 - τ²'s mixin: str() and repr() as τ²'s
    ACTIVE = "Active"
    SUSPENDED = "Suspended"
    PENDING_ACTIVATION = "Pending Activation"
    CLOSED = "Closed"


class Line(StrictRecord):
    line_id: str
    phone_number: str
    status: LineStatus = LineStatus.PENDING_ACTIVATION
    plan_id: str
    device_id: str | None = None
    data_used_gb: float = 0.0
    data_refueling_gb: float = 0.0
    roaming_enabled: bool = False
    contract_end_date: datetime.date | None = None
    last_plan_change_date: datetime.date | None = None
    last_sim_replacement_date: datetime.date | None = None
    suspension_start_date: datetime.date | None = None


class LineItem(StrictRecord):
    description: str
    amount: float
    date: datetime.date
    item_type: str


class BillStatus(str, Enum):  # noqa: UP042 - τ²'s mixin: str() and repr() as τ²'s
    DRAFT = "Draft"
    ISSUED = "Issued"
    AWAITING_PAYMENT = "Awaiting Payment"
    PAID = "Paid"
    OVERDUE = "Overdue"
    DISPUTED = "Disputed"


class Bill(StrictRecord):
    bill_id: str
    customer_id: str
    period_start: datetime.date
    period_end: datetime.date
    issue_date: datetime.date
    total_due: float
    due_date: datetime.date
    line_items: list[LineItem] = Field(default_factory=list)
    status: BillStatus = BillStatus.DRAFT


class AccountStatus(str, Enum):  # noqa: UP042 - τ²'s mixin: str() and repr() as τ²'s
    ACTIVE = "Active"
    SUSPENDED = "Suspended"
    PENDING_VERIFICATION = "Pending Verification"
    CLOSED = "Closed"


class PaymentMethodType(str, Enum):  # noqa: UP042 - τ²'s mixin: str() and repr() as τ²'s
    CREDIT_CARD = "Credit Card"
    DEBIT_CARD = "Debit Card"
    PAYPAL = "PayPal"


class PaymentMethod(StrictRecord):
    method_type: PaymentMethodType
    account_number_last_4: str
    expiration_date: str


class Customer(StrictRecord):
    customer_id: str
    full_name: str
    date_of_birth: str
    email: str
    phone_number: str
    address: Address
    account_status: AccountStatus = AccountStatus.PENDING_VERIFICATION
    payment_methods: list[PaymentMethod] = Field(default_factory=list)
    line_ids: list[str] = Field(default_factory=list)
    bill_ids: list[str] = Field(default_factory=list)
    created_at: datetime.datetime = DEFAULT_START_DATE  # type: ignore[assignment]  # τ²'s default is a date
    last_extension_date: datetime.date | None = None
    goodwill_credit_used_this_year: float = 0.0


class TelecomDB(Database):
    plans: list[Plan] = Field(default_factory=list)
    customers: list[Customer] = Field(default_factory=list)
    lines: list[Line] = Field(default_factory=list)
    bills: list[Bill] = Field(default_factory=list)
    devices: list[Device] = Field(default_factory=list)
