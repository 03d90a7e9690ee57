"""The desk's tables, one pydantic model per record (``data/<table>.json``), validated when the domain loads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Profile = Literal["cautious", "balanced", "growth", "adventurous"]
AccountKind = Literal["general", "isa", "pension"]
Side = Literal["buy", "sell"]


class Row(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Security(Row):
    """A fund or share the desk deals in, shared by every world, with its month-end and latest closing prices."""

    ticker: str
    name: str
    asset_class: Literal["equity", "bond", "property", "commodity", "money_market"]
    instrument: Literal["fund", "share"]
    risk_rating: int
    """1 (lowest) to 5 (highest): what a client's risk profile is compared with."""
    prices: dict[str, float]


class ModelPortfolio(Row):
    """A ready-made mix of funds a client may have an account follow, with the risk rating of the mix."""

    model_id: str
    name: str
    risk_rating: int
    weights: dict[str, int]
    """Fund ticker -> target weight in whole percent (they add up to 100)."""


class ProfileChange(Row):
    profile: Profile
    recorded_on: str
    score: int | None
    """The questionnaire score the profile was recorded from (None: no questionnaire was submitted)."""


class Client(Row):
    client_id: str
    first_name: str
    last_name: str
    email: str
    date_of_birth: str
    postcode: str
    risk_profile: Profile
    profile_reviewed: str
    profile_history: list[ProfileChange]
    """Every profile recorded for the client, oldest first: a profile recorded twice leaves both entries."""
    questionnaire_score: int | None
    """The score of a questionnaire the client submitted in their app and the desk has not yet recorded."""
    bank_last4: str
    """The last four digits of the bank account withdrawals are paid to."""


class Account(Row):
    account_id: str
    client_id: str
    kind: AccountKind
    opened: str
    cash: float
    model_id: str | None
    model_changes: int
    """How many times the account's model was changed: a change made twice is not a change made once."""
    isa_paid_in: float
    """Paid into this ISA in the current tax year (0 for other accounts)."""
    last_rebalanced: str | None


class Holding(Row):
    holding_id: str
    account_id: str
    ticker: str
    units: float
    locked_units: int
    """Units from an employee share plan that may not be sold before ``lock_ends``."""
    lock_ends: str | None


class Ticket(Row):
    """An order ticket: raised by the desk, approved by the client in their app, then placed by the desk."""

    ticket_id: str
    account_id: str
    side: Side
    ticker: str
    units: int
    price: float
    value: float
    charge: float
    status: Literal["awaiting_client", "approved", "placed", "cancelled"]
    raised_on: str


class Rebalance(Row):
    """A request to bring a model account back to its target weights; the client approves it in their app."""

    rebalance_id: str
    account_id: str
    model_id: str
    status: Literal["awaiting_client", "approved", "executed"]
    raised_on: str


class Withdrawal(Row):
    withdrawal_id: str
    account_id: str
    amount: float
    paid_to_last4: str
    requested_on: str


class CashTransfer(Row):
    transfer_id: str
    from_account_id: str
    to_account_id: str
    amount: float
    made_on: str


class Report(Row):
    report_id: str
    account_id: str
    start_date: str
    end_date: str
    start_value: float
    end_value: float
    return_percent: float
    emailed_to: str


class Alert(Row):
    alert_id: str
    client_id: str
    ticker: str
    direction: Literal["above", "below"]
    level: float


class IdentityCheck(Row):
    client_id: str
    passed_on: str
    checked: list[str]


class Referral(Row):
    referral_id: str
    client_id: str
    reason: str
    raised_on: str


class FinanceDatabase(BaseModel):
    """Every table of the wealth desk's books, and what the client's app holds."""

    securities: dict[str, Security]
    model_portfolios: dict[str, ModelPortfolio]
    clients: dict[str, Client]
    accounts: dict[str, Account]
    holdings: dict[str, Holding]
    tickets: dict[str, Ticket]
    rebalances: dict[str, Rebalance]
    withdrawals: dict[str, Withdrawal]
    cash_transfers: dict[str, CashTransfer]
    reports: dict[str, Report]
    alerts: dict[str, Alert]
    identity_checks: dict[str, IdentityCheck]
    referrals: dict[str, Referral]
