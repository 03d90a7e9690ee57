"""The desk's read tools: the CRM's reps, accounts, contacts, opportunities, quotes, approvals and history.

None of them changes anything; a rep's employee number is never shown (it is what verifies them).
"""

from __future__ import annotations

from taumesh.domains import Data, Tool
from taumesh.domains.sales.clock import DISCOUNT_AUTHORITY
from taumesh.domains.sales.records import dump, record
from taumesh.domains.sales.schema import params, string

ACCOUNT = string("The account's id, such as 'acc-w1-012'.")
OPPORTUNITY = string("The opportunity's id, such as 'opp-w1-020'.")
QUOTE = string("The quote's id, such as 'qt-w1-007'.")


class GetRep(Tool):
    name = "get_rep"
    description = "A rep's role, discount authority (percent), manager, territory and whether they are still active."
    parameters = params(rep_id=string("The rep's id."))

    @staticmethod
    def invoke(data: Data, rep_id: str) -> str:
        rep = {k: v for k, v in record(data, "reps", rep_id, "rep").items() if k != "employee_number"}
        return dump({**rep, "discount_authority_percent": DISCOUNT_AUTHORITY[rep["role"]]})


class SearchAccounts(Tool):
    name = "search_accounts"
    description = "Accounts whose name contains the text given (case ignored), with their owner and territory."
    parameters = params(name=string("All or part of the account's name."))

    @staticmethod
    def invoke(data: Data, name: str) -> str:
        wanted = name.strip().lower()
        return dump([a for a in data["accounts"].values() if wanted and wanted in a["name"].lower()])


class GetAccount(Tool):
    name = "get_account"
    description = "An account: owner rep, territory, industry, credit hold and email domain."
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        return dump(record(data, "accounts", account_id, "account"))


class ListAccountContacts(Tool):
    name = "list_account_contacts"
    description = "The contacts of an account, with their buying role and contact preferences."
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        record(data, "accounts", account_id, "account")
        return dump([c for c in data["contacts"].values() if c["account_id"] == account_id])


class ListOpportunities(Tool):
    name = "list_opportunities"
    description = "The opportunities of an account: stage, amount, close date, forecast category and owner."
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        record(data, "accounts", account_id, "account")
        return dump([o for o in data["opportunities"].values() if o["account_id"] == account_id])


class GetOpportunity(Tool):
    name = "get_opportunity"
    description = "One opportunity, with the ids of its quotes."
    parameters = params(opportunity_id=OPPORTUNITY)

    @staticmethod
    def invoke(data: Data, opportunity_id: str) -> str:
        opportunity = record(data, "opportunities", opportunity_id, "opportunity")
        quotes = [q["quote_id"] for q in data["quotes"].values() if q["opportunity_id"] == opportunity_id]
        return dump({**opportunity, "quote_ids": quotes})


class GetQuote(Tool):
    name = "get_quote"
    description = "A quote: its lines, discount, total, status and the date it is valid until."
    parameters = params(quote_id=QUOTE)

    @staticmethod
    def invoke(data: Data, quote_id: str) -> str:
        return dump(record(data, "quotes", quote_id, "quote"))


class GetPriceBook(Tool):
    name = "get_price_book"
    description = "Every product: list price per unit and volume breaks (percent off from a minimum quantity)."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["products"].values()))


class ListApprovals(Tool):
    name = "list_approvals"
    description = "The discount approval requests of a quote: who asked, who decides, the percent and status."
    parameters = params(quote_id=QUOTE)

    @staticmethod
    def invoke(data: Data, quote_id: str) -> str:
        record(data, "quotes", quote_id, "quote")
        return dump([a for a in data["approvals"].values() if a["quote_id"] == quote_id])


class ListFollowUps(Tool):
    name = "list_follow_ups"
    description = "The follow-ups scheduled on an opportunity (open and cancelled)."
    parameters = params(opportunity_id=OPPORTUNITY)

    @staticmethod
    def invoke(data: Data, opportunity_id: str) -> str:
        record(data, "opportunities", opportunity_id, "opportunity")
        return dump([f for f in data["follow_ups"].values() if f["opportunity_id"] == opportunity_id])


class ListActivities(Tool):
    name = "list_activities"
    description = "The meetings, calls and emails logged on an opportunity."
    parameters = params(opportunity_id=OPPORTUNITY)

    @staticmethod
    def invoke(data: Data, opportunity_id: str) -> str:
        record(data, "opportunities", opportunity_id, "opportunity")
        return dump([a for a in data["activities"].values() if a["opportunity_id"] == opportunity_id])


LOOKUP_TOOLS = (
    GetRep,
    SearchAccounts,
    GetAccount,
    ListAccountContacts,
    ListOpportunities,
    GetOpportunity,
    GetQuote,
    GetPriceBook,
    ListApprovals,
    ListFollowUps,
    ListActivities,
)
