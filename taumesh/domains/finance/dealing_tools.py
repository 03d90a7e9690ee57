"""The desk's dealing tools: order tickets and rebalancing, each raised by the desk and approved by the client.

A ticket or rebalance waits as ``awaiting_client`` until the client approves it in their own app; only then does the
desk place or execute it. Tools refuse what the books make impossible (selling units not held, paying with cash not
there); the policy's own limits (suitability, concentration, lock-ups) are the agent's to keep, as in τ-bench.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.finance.clock import TODAY, cents, dealing_charge, price
from taumesh.domains.finance.lookup_tools import ACCOUNT, TICKER
from taumesh.domains.finance.records import (
    dump,
    holding_value,
    holdings_of,
    invested,
    next_id,
    params,
    record,
    text,
    whole,
    world_tag,
)

TICKET = text("The ticket's id, such as 'tk-w1-004'.")
REBALANCE = text("The rebalancing request's id, such as 'rb-w1-002'.")


def _held(data: Data, account_id: str, ticker: str) -> Any:
    """The account's holding of ``ticker``, or None."""
    return next((h for h in holdings_of(data, account_id) if h["ticker"] == ticker), None)


class CreateOrderTicket(Tool):
    name = "create_order_ticket"
    writes = True
    description = (
        "Raise an order ticket to buy or sell whole units of a security in an account at the latest close, with"
        " its dealing charge. It waits for the client to approve it in their app. Returns the ticket."
    )
    parameters = params(
        account_id=ACCOUNT,
        side=text("Buy or sell.", ["buy", "sell"]),
        ticker=TICKER,
        units=whole("How many whole units, at least 1."),
    )

    @staticmethod
    def invoke(data: Data, account_id: str, side: str, ticker: str, units: int) -> str:
        record(data, "accounts", account_id, "account")
        security = record(data, "securities", ticker, "security")
        if side not in ("buy", "sell"):
            raise Refusal("side is buy or sell")
        if units < 1:
            raise Refusal("an order is for 1 unit or more")
        holding = _held(data, account_id, ticker)
        if side == "sell" and (holding is None or holding["units"] < units):
            raise Refusal("the account does not hold that many units")
        value = cents(units * price(security))
        ticket_id = next_id(data, "tickets", "tk", world_tag(account_id))
        ticket = {
            "ticket_id": ticket_id,
            "account_id": account_id,
            "side": side,
            "ticker": ticker,
            "units": units,
            "price": price(security),
            "value": value,
            "charge": dealing_charge(value),
            "status": "awaiting_client",
            "raised_on": TODAY.isoformat(),
        }
        data["tickets"][ticket_id] = ticket
        return dump(ticket)


class PlaceOrder(Tool):
    name = "place_order"
    writes = True
    description = (
        "Place an order ticket the client has approved: a buy takes its value and charge from the account's cash,"
        " a sell pays its value less the charge into it. Returns the ticket and the account's cash."
    )
    parameters = params(ticket_id=TICKET)

    @staticmethod
    def invoke(data: Data, ticket_id: str) -> str:
        ticket = record(data, "tickets", ticket_id, "ticket")
        if ticket["status"] != "approved":
            raise Refusal(
                f"the ticket is {ticket['status'].replace('_', ' ')}: only a ticket the client approved is placed"
            )
        account = data["accounts"][ticket["account_id"]]
        holding = _held(data, ticket["account_id"], ticket["ticker"])
        if ticket["side"] == "buy":
            cost = cents(ticket["value"] + ticket["charge"])
            if cost > account["cash"]:
                raise Refusal("the account's cash does not cover the order and its charge")
            account["cash"] = cents(account["cash"] - cost)
            if holding is None:
                holding_id = next_id(data, "holdings", "hd", world_tag(ticket["account_id"]))
                holding = {
                    "holding_id": holding_id,
                    "account_id": ticket["account_id"],
                    "ticker": ticket["ticker"],
                    "units": 0.0,
                    "locked_units": 0,
                    "lock_ends": None,
                }
                data["holdings"][holding_id] = holding
            holding["units"] = round(holding["units"] + ticket["units"], 4)
        else:
            if holding is None or holding["units"] < ticket["units"]:
                raise Refusal("the account no longer holds that many units")
            holding["units"] = round(holding["units"] - ticket["units"], 4)
            account["cash"] = cents(account["cash"] + ticket["value"] - ticket["charge"])
        ticket["status"] = "placed"
        return dump({"ticket": ticket, "cash": account["cash"]})


class ProposeRebalance(Tool):
    name = "propose_rebalance"
    writes = True
    description = (
        "Raise a request to bring an account that follows a model portfolio back to the model's target weights;"
        " it waits for the client to approve it in their app. Returns the request."
    )
    parameters = params(account_id=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_id: str) -> str:
        account = record(data, "accounts", account_id, "account")
        if account["model_id"] is None:
            raise Refusal("the account follows no model portfolio")
        rebalance_id = next_id(data, "rebalances", "rb", world_tag(account_id))
        request = {
            "rebalance_id": rebalance_id,
            "account_id": account_id,
            "model_id": account["model_id"],
            "status": "awaiting_client",
            "raised_on": TODAY.isoformat(),
        }
        data["rebalances"][rebalance_id] = request
        return dump(request)


class ExecuteRebalance(Tool):
    name = "execute_rebalance"
    writes = True
    description = (
        "Execute a rebalancing request the client has approved: each fund of the model is set to its target share"
        " of the value invested, at the latest close. Returns the account's new holdings."
    )
    parameters = params(rebalance_id=REBALANCE)

    @staticmethod
    def invoke(data: Data, rebalance_id: str) -> str:
        request = record(data, "rebalances", rebalance_id, "rebalancing request")
        if request["status"] != "approved":
            raise Refusal(
                f"the request is {request['status'].replace('_', ' ')}: only one the client approved is executed"
            )
        account_id = request["account_id"]
        value = invested(data, account_id)
        model = data["model_portfolios"][request["model_id"]]
        for holding in holdings_of(data, account_id):
            if holding["ticker"] not in model["weights"] and holding_value(data, holding):
                raise Refusal(f"the account holds {holding['ticker']}, which is not in its model")
        for ticker, weight in model["weights"].items():
            holding = _held(data, account_id, ticker)
            if holding is None:
                holding_id = next_id(data, "holdings", "hd", world_tag(account_id))
                holding = {
                    "holding_id": holding_id,
                    "account_id": account_id,
                    "ticker": ticker,
                    "units": 0.0,
                    "locked_units": 0,
                    "lock_ends": None,
                }
                data["holdings"][holding_id] = holding
            holding["units"] = round(value * weight / 100 / price(data["securities"][ticker]), 4)
        data["accounts"][account_id]["last_rebalanced"] = TODAY.isoformat()
        request["status"] = "executed"
        return dump(holdings_of(data, account_id))


DEALING_TOOLS = (CreateOrderTicket, PlaceOrder, ProposeRebalance, ExecuteRebalance)
