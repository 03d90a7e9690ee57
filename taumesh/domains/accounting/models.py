"""The accounting desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

``portals`` is the caller's side: the supplier or staff portal on their own device (sign-in, inbox, the credit notes
a supplier issued, the bank changes they approved). The desk's tools never read it; the caller reads it out.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["ap_clerk", "accountant", "budget_holder"]
InvoiceStatus = Literal["received", "approved", "on_hold", "paid"]
HoldReason = Literal["quantity_not_received", "price_over_tolerance"]
HandoffReason = Literal["controller_approval", "supplier_dispute", "other"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Company(Record):
    """A legal entity whose books the desk keeps; every other record of a world belongs to one."""

    company_id: str
    name: str
    currency: str


class Staff(Record):
    company_id: str
    staff_id: str
    first_name: str
    last_name: str
    email: str
    employee_number: str
    role: Role
    cost_center: str | None
    posting_limit: float


class BankAccount(Record):
    sort_code: str
    account_number: str


class BankChange(Record):
    """An earlier change of remittance account: kept so that each change leaves a trace (policy 8.4)."""

    changed_on: str
    account_number: str
    reference: str


class Supplier(Record):
    supplier_id: str
    company_id: str
    name: str
    contact_name: str
    contact_email: str
    tax_id: str
    bank: BankAccount
    bank_history: list[BankChange]
    last_bank_change: str | None


class PurchaseOrder(Record):
    po_id: str
    supplier_id: str
    item: str
    quantity: int
    unit_price: float
    received_quantity: int


class Invoice(Record):
    invoice_id: str
    invoice_number: str
    supplier_id: str
    po_id: str
    invoice_date: str
    period: str
    quantity: int
    unit_price: float
    net: float
    tax_code: str
    tax: float
    gross: float
    credited_net: float
    status: InvoiceStatus
    hold_reason: HoldReason | None
    due_date: str
    payment_date: str | None
    early_discount: float
    history: list[str]


class CreditNote(Record):
    credit_note_id: str
    invoice_id: str
    credit_note_number: str
    net: float
    tax: float
    gross: float
    recorded_on: str


class Period(Record):
    period_id: str
    company_id: str
    month: str
    status: Literal["open", "closed"]


class Account(Record):
    code: str
    name: str
    kind: Literal["asset", "liability", "expense", "income", "equity"]


class TaxCode(Record):
    code: str
    rate: float
    description: str


class BudgetMove(Record):
    other_budget_id: str
    amount: float
    direction: Literal["in", "out"]


class Budget(Record):
    budget_id: str
    company_id: str
    cost_center: str
    quarter: str
    amount: float
    spent: float
    committed: float
    moves: list[BudgetMove]


class JournalEntry(Record):
    entry_id: str
    company_id: str
    period_id: str
    debit_account: str
    credit_account: str
    amount: float
    posted_by: str
    posted_on: str


class Reconciliation(Record):
    reconciliation_id: str
    supplier_id: str
    statement_balance: float
    ledger_balance: float
    difference: float
    recorded_on: str


class Verification(Record):
    caller_id: str
    method: Literal["security_detail", "portal_code"]
    verified: bool


class Handoff(Record):
    handoff_id: str
    caller_id: str
    reason: HandoffReason


class IssuedCreditNote(Record):
    """A credit note as the supplier issued it, in their own portal: what they read out to the desk."""

    credit_note_number: str
    invoice_number: str
    net: float
    issued: str


class Portal(Record):
    caller_id: str
    username: str
    pin: str
    signed_in: bool
    inbox: list[str]
    credit_notes: list[IssuedCreditNote]
    approvals: list[str]


class AccountingDatabase(BaseModel):
    companies: dict[str, Company]
    staff: dict[str, Staff]
    suppliers: dict[str, Supplier]
    purchase_orders: dict[str, PurchaseOrder]
    invoices: dict[str, Invoice]
    credit_notes: dict[str, CreditNote]
    periods: dict[str, Period]
    accounts: dict[str, Account]
    tax_codes: dict[str, TaxCode]
    budgets: dict[str, Budget]
    journal_entries: dict[str, JournalEntry]
    reconciliations: dict[str, Reconciliation]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    portals: dict[str, Portal]
