"""``banking_knowledge``'s transactional database: 23 tables of untyped records, each ``{data, notes}``.

Records stay as the data has them (``25`` and ``25.0`` hash differently). Six tables are absent from ``db.json``
and default to an empty table, so the raw file hashes differently from the database
(:func:`taumesh.domains.tau2_banking_knowledge.state.db_hash`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Table(BaseModel):
    """One table: records by id, and the table's notes."""

    model_config = ConfigDict(extra="ignore")

    data: dict[str, dict[str, Any]] = Field(default_factory=dict)
    notes: str = ""


class TransactionalDB(BaseModel):
    """Every table of the bank, as upstream's model declares them (a table absent from the file is empty)."""

    model_config = ConfigDict(extra="ignore")

    users: Table = Field(default_factory=Table)
    accounts: Table = Field(default_factory=Table)
    debit_cards: Table = Field(default_factory=Table)
    referrals: Table = Field(default_factory=Table)
    credit_card_applications: Table = Field(default_factory=Table)
    user_discoverable_tools: Table = Field(default_factory=Table)
    user_discoverable_tool_calls: Table = Field(default_factory=Table)
    verification_history: Table = Field(default_factory=Table)
    credit_card_transaction_history: Table = Field(default_factory=Table)
    cash_back_disputes: Table = Field(default_factory=Table)
    bank_account_transaction_history: Table = Field(default_factory=Table)
    credit_card_accounts: Table = Field(default_factory=Table)
    agent_discoverable_tools: Table = Field(default_factory=Table)
    task_config: Table = Field(default_factory=Table)
    human_transfer_requests: Table = Field(default_factory=Table)
    transaction_disputes: Table = Field(default_factory=Table)
    credit_card_orders: Table = Field(default_factory=Table)
    debit_card_orders: Table = Field(default_factory=Table)
    credit_card_closure_reasons: Table = Field(default_factory=Table)
    credit_card_account_flags: Table = Field(default_factory=Table)
    credit_limit_increase_requests: Table = Field(default_factory=Table)
    payment_history: Table = Field(default_factory=Table)
    debit_card_disputes: Table = Field(default_factory=Table)
