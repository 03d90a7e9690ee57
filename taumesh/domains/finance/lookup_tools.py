"""The desk's identity check and read tools: clients, accounts and their holdings, securities, models, tickets.

Reads change nothing. A client's date of birth and postcode are never shown: they are what verifies the caller.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.finance.clock import LATEST, PROFILE_MAX_RATING, TODAY, cents, price, profile_is_current
from taumesh.domains.finance.records import dump, holding_value, holdings_of, invested, params, record, text

CLIENT = text("The client's id, such as 'cl-w1-007'.")
ACCOUNT = text("The account's id, such as 'ac-w1-012'.")
TICKER = text("The security's ticker, such as 'HLGE'.")
SECRETS = ("date_of_birth", "postcode")


class FindClient(Tool):
    name = "find_client"
    description = "Find a client of the desk by the email address they give; returns their client id and name."
    parameters = params(email=text("The client's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for client in data["clients"].values():
            if client["email"] == email.strip().lower():
                return dump({"client_id": client["client_id"], "name": f"{client['first_name']} {client['last_name']}"})
        raise Refusal("no client has that email address")


class VerifyClient(Tool):
    name = "verify_client"
    writes = True
    description = (
        "Verify that the caller is the client, by the date of birth (YYYY-MM-DD) and postcode they give;"
        " both must match the file."
    )
    parameters = params(
        client_id=CLIENT,
        date_of_birth=text("The date of birth the caller gives, YYYY-MM-DD."),
        postcode=text("The postcode the caller gives."),
    )

    @staticmethod
    def invoke(data: Data, client_id: str, date_of_birth: str, postcode: str) -> str:
        client = record(data, "clients", client_id, "client")
        if client["date_of_birth"] != date_of_birth.strip():
            raise Refusal("the date of birth does not match the file")
        if client["postcode"].replace(" ", "").upper() != postcode.replace(" ", "").upper():
            raise Refusal("the postcode does not match the file")
        check = {"client_id": client_id, "passed_on": TODAY.isoformat(), "checked": list(SECRETS)}
        data["identity_checks"][client_id] = check
        return dump(check)


class GetClient(Tool):
    name = "get_client"
    description = (
        "A client's risk profile (with the highest risk rating it allows and whether it is still current), when it"
        " was reviewed, its history, any questionnaire score submitted in their app, and their bank's last digits."
    )
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        client = record(data, "clients", client_id, "client")
        shown = {k: v for k, v in client.items() if k not in SECRETS}
        shown["profile_max_risk_rating"] = PROFILE_MAX_RATING[client["risk_profile"]]
        shown["profile_current"] = profile_is_current(client["profile_reviewed"])
        return dump(shown)


class ListAccounts(Tool):
    name = "list_accounts"
    description = "The client's accounts: kind (general, isa, pension), opening date, cash, model portfolio."
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        record(data, "clients", client_id, "client")
        return dump([a for a in data["accounts"].values() if a["client_id"] == client_id])


class GetAccount(Tool):
    name = "get_account"
    description = (
        "An account with its holdings valued at the latest close (units, locked units and when the lock ends),"
        " its cash, the value invested and the account's total value."
    )
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        account = record(data, "accounts", account_id, "account")
        holdings = [
            {**h, "price": price(data["securities"][h["ticker"]]), "value": holding_value(data, h)}
            for h in holdings_of(data, account_id)
        ]
        value = invested(data, account_id)
        total = cents(value + account["cash"])
        return dump({**account, "prices_as_of": LATEST, "holdings": holdings, "invested": value, "total_value": total})


class SearchSecurities(Tool):
    name = "search_securities"
    description = "Funds and shares whose name contains the text given (case ignored), with ticker, rating and price."
    parameters = params(name=text("All or part of the security's name."))

    @staticmethod
    def invoke(data: Data, name: str) -> str:
        wanted = name.strip().lower()
        found = [s for s in data["securities"].values() if wanted and wanted in s["name"].lower()]
        return dump(
            [{k: s[k] for k in ("ticker", "name", "instrument", "risk_rating")} | {"price": price(s)} for s in found]
        )


class GetSecurity(Tool):
    name = "get_security"
    description = "A security: asset class, risk rating (1 to 5), and its closing prices at each month end and latest."
    parameters = params(ticker=TICKER)

    @staticmethod
    def invoke(data: Data, ticker: str) -> str:
        return dump(record(data, "securities", ticker.strip().upper(), "security"))


class ListModelPortfolios(Tool):
    name = "list_model_portfolios"
    description = "Every model portfolio the desk offers, with its risk rating and its funds' target weights."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["model_portfolios"].values()))


class GetAllocation(Tool):
    name = "get_allocation"
    description = (
        "How an account's invested value is spread now: each holding's weight in percent of the value invested"
        " (cash left out), beside the account's model portfolio, its targets and when it was last rebalanced."
    )
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        account = record(data, "accounts", account_id, "account")
        value = invested(data, account_id)
        weights = {h["ticker"]: round(holding_value(data, h) / value * 100, 2) for h in holdings_of(data, account_id)}
        model = data["model_portfolios"].get(account["model_id"] or "")
        return dump(
            {
                "account_id": account_id,
                "model_id": account["model_id"],
                "invested": value,
                "weights_percent": weights,
                "target_percent": model["weights"] if model else None,
                "last_rebalanced": account["last_rebalanced"],
            }
        )


class ListTickets(Tool):
    name = "list_tickets"
    description = "An account's order tickets and rebalancing requests, with their status."
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        record(data, "accounts", account_id, "account")
        tickets = [t for t in data["tickets"].values() if t["account_id"] == account_id]
        rebalances = [r for r in data["rebalances"].values() if r["account_id"] == account_id]
        return dump({"tickets": tickets, "rebalances": rebalances})


class ListAlerts(Tool):
    name = "list_alerts"
    description = "The client's price alerts."
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        record(data, "clients", client_id, "client")
        return dump([a for a in data["alerts"].values() if a["client_id"] == client_id])


LOOKUP_TOOLS = (
    FindClient,
    VerifyClient,
    GetClient,
    ListAccounts,
    GetAccount,
    SearchSecurities,
    GetSecurity,
    ListModelPortfolios,
    GetAllocation,
    ListTickets,
    ListAlerts,
)
