"""The general ledger side: staff, periods, the chart of accounts, tax codes, journals, budgets and hand-offs.

As on the payables side, the tools refuse only what the data rules out (an unknown account, a budget of another
company or quarter, a tax code the company does not use); closed periods, posting limits and what a budget can spare
are the policy's, for the agent to apply.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.accounting.clock import TAX_RATES, TODAY, cents, tax_on
from taumesh.domains.accounting.identity_tools import CALLER, caller_record
from taumesh.domains.accounting.records import dump, get, new_id
from taumesh.domains.accounting.schema import number, params, text

HANDOFF_REASONS = ["controller_approval", "supplier_dispute", "other"]
_COMPANY = text("The company's id, such as 'co-w1' (find_caller gives it).")
_STAFF = text("The staff member's id, such as 'stf-w1-04'.")


class GetStaff(Tool):
    name = "get_staff"
    description = "A staff member's record: role, cost center they hold (if any) and journal posting limit."
    parameters = params(staff_id=_STAFF)

    @staticmethod
    def invoke(data: Data, staff_id: str) -> str:
        return dump(get(data, "staff", staff_id, "staff member"))


class ListPeriods(Tool):
    name = "list_periods"
    description = "A company's accounting periods (months) and whether each is open or closed."
    parameters = params(company_id=_COMPANY)

    @staticmethod
    def invoke(data: Data, company_id: str) -> str:
        get(data, "companies", company_id, "company")
        found = [p for p in data["periods"].values() if p["company_id"] == company_id]
        return dump(sorted(found, key=lambda p: p["month"]))


class ListAccounts(Tool):
    name = "list_accounts"
    description = "The chart of accounts: each account's code, name and kind."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["accounts"].values()))


class ListTaxCodes(Tool):
    name = "list_tax_codes"
    description = "The tax codes in use and their rates."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["tax_codes"].values()))


class SetInvoiceTaxCode(Tool):
    name = "set_invoice_tax_code"
    writes = True
    description = "Correct an unpaid invoice's tax code; its tax and gross are computed again at the new rate."
    parameters = params(
        invoice_id=text("The invoice's id, such as 'inv-w1-012'."), tax_code=text("The new code.", sorted(TAX_RATES))
    )

    @staticmethod
    def invoke(data: Data, invoice_id: str, tax_code: str) -> str:
        invoice = get(data, "invoices", invoice_id, "invoice")
        if invoice["status"] == "paid":
            raise Refusal("the invoice is already paid")
        if tax_code not in TAX_RATES:
            raise Refusal(f"tax code must be one of {sorted(TAX_RATES)}")
        if tax_code == invoice["tax_code"]:
            raise Refusal("the invoice already has that tax code")
        tax = tax_on(invoice["net"], tax_code)
        invoice.update(tax_code=tax_code, tax=tax, gross=cents(invoice["net"] + tax))
        invoice["history"].append(f"tax_code:{tax_code}")
        return dump(invoice)


class PostJournalEntry(Tool):
    name = "post_journal_entry"
    writes = True
    description = (
        "Post a journal entry for a staff member: one debit and one credit account, in a period of their company."
    )
    parameters = params(
        staff_id=_STAFF,
        period_id=text("The period's id, such as 'per-w1-2025-09' (list_periods gives them)."),
        debit_account=text("The code of the account debited."),
        credit_account=text("The code of the account credited."),
        amount=number("The amount, positive."),
    )

    @staticmethod
    def invoke(
        data: Data, staff_id: str, period_id: str, debit_account: str, credit_account: str, amount: float
    ) -> str:
        staff = get(data, "staff", staff_id, "staff member")
        period = get(data, "periods", period_id, "period")
        if period["company_id"] != staff["company_id"]:
            raise Refusal("the period belongs to another company")
        for code in (debit_account, credit_account):
            get(data, "accounts", code, "account")
        if debit_account == credit_account:
            raise Refusal("the debit and credit accounts must differ")
        if amount <= 0:
            raise Refusal("the amount must be positive")
        entry_id = new_id(data, "journal_entries", "je")
        entry = {
            "entry_id": entry_id,
            "company_id": staff["company_id"],
            "period_id": period_id,
            "debit_account": debit_account,
            "credit_account": credit_account,
            "amount": cents(amount),
            "posted_by": staff_id,
            "posted_on": TODAY.isoformat(),
        }
        data["journal_entries"][entry_id] = entry
        return dump(entry)


class ListBudgets(Tool):
    name = "list_budgets"
    description = "A company's budget lines by cost center and quarter: amount, spent, committed and earlier moves."
    parameters = params(company_id=_COMPANY)

    @staticmethod
    def invoke(data: Data, company_id: str) -> str:
        get(data, "companies", company_id, "company")
        found = [b for b in data["budgets"].values() if b["company_id"] == company_id]
        return dump(sorted(found, key=lambda b: b["budget_id"]))


class TransferBudget(Tool):
    name = "transfer_budget"
    writes = True
    description = (
        "Move an amount from one budget line to another of the same company and quarter; both record the move."
    )
    parameters = params(
        from_budget_id=text("The line the amount leaves."),
        to_budget_id=text("The line the amount joins."),
        amount=number("The amount, positive."),
    )

    @staticmethod
    def invoke(data: Data, from_budget_id: str, to_budget_id: str, amount: float) -> str:
        source = get(data, "budgets", from_budget_id, "budget")
        target = get(data, "budgets", to_budget_id, "budget")
        if from_budget_id == to_budget_id:
            raise Refusal("the two lines must differ")
        if (source["company_id"], source["quarter"]) != (target["company_id"], target["quarter"]):
            raise Refusal("both lines must be of one company and quarter")
        if amount <= 0:
            raise Refusal("the amount must be positive")
        moved = cents(amount)
        source["amount"] = cents(source["amount"] - moved)
        target["amount"] = cents(target["amount"] + moved)
        source["moves"].append({"other_budget_id": to_budget_id, "amount": moved, "direction": "out"})
        target["moves"].append({"other_budget_id": from_budget_id, "amount": moved, "direction": "in"})
        return dump({"from": source, "to": target})


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = (
        "Hand the caller to a person (the financial controller, the supplier disputes team, ...); ends the call."
    )
    parameters = params(caller_id=CALLER, reason=text("Who takes it over, and why.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, caller_id: str, reason: str) -> str:
        caller_record(data, caller_id)
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {HANDOFF_REASONS}")
        handoff_id = new_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "caller_id": caller_id, "reason": reason}
        return "Transfer successful"


LEDGER_TOOLS: tuple[type[Tool], ...] = (
    GetStaff,
    ListPeriods,
    ListAccounts,
    ListTaxCodes,
    SetInvoiceTaxCode,
    PostJournalEntry,
    ListBudgets,
    TransferBudget,
    TransferToHumanAgents,
)
