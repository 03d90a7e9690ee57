"""The desk's writes for depot operators (stock counts, recounts, incidents) and its hand-off to specialist teams.

Which depot an operator may act for, how far a count may stray, and how severe an incident is are the policy's
rules, the agent's to apply; the tools refuse only what the data rules out.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.logistics.lookup_tools import SHIPMENT
from taumesh.domains.logistics.records import dump, fetch, new_id
from taumesh.domains.logistics.schema import params, text, whole

OPERATOR = text("The operator's id, such as 'op-w1-03'.")
STOCK = text("The stock item's id, such as 'stk-w1-012'.")
KINDS = ["damage", "delay", "loss"]
SEVERITIES = ["minor", "major", "critical"]
TEAMS = ["claims_review", "hazardous_goods", "inventory_control", "other"]


class AdjustStock(Tool):
    name = "adjust_stock"
    writes = True
    description = "Set a stock item's recorded quantity to what an operator counted; the change is kept in its history."
    parameters = params(stock_id=STOCK, operator_id=OPERATOR, counted_quantity=whole("Units counted."))

    @staticmethod
    def invoke(data: Data, stock_id: str, operator_id: str, counted_quantity: int) -> str:
        item = fetch(data, "stock", stock_id, "stock item")
        fetch(data, "operators", operator_id, "operator")
        if counted_quantity < 0:
            raise Refusal("a count cannot be negative")
        item["adjustments"].append(
            {"from_quantity": item["quantity"], "to_quantity": counted_quantity, "operator_id": operator_id}
        )
        item["quantity"] = counted_quantity
        return dump(item)


class RequestRecount(Tool):
    name = "request_recount"
    writes = True
    description = "Ask the depot's supervisor for a recount of a stock item; its quantity stays as recorded meanwhile."
    parameters = params(stock_id=STOCK, operator_id=OPERATOR)

    @staticmethod
    def invoke(data: Data, stock_id: str, operator_id: str) -> str:
        item = fetch(data, "stock", stock_id, "stock item")
        fetch(data, "operators", operator_id, "operator")
        item["recount_requested"] = True
        return dump({"stock_id": stock_id, "recount_requested": True})


class LogIncident(Tool):
    name = "log_incident"
    writes = True
    description = "Log an incident on a shipment at the operator's depot: its kind and severity."
    parameters = params(
        shipment_id=SHIPMENT,
        operator_id=OPERATOR,
        kind=text("What happened.", KINDS),
        severity=text("How severe it is.", SEVERITIES),
    )

    @staticmethod
    def invoke(data: Data, shipment_id: str, operator_id: str, kind: str, severity: str) -> str:
        fetch(data, "shipments", shipment_id, "shipment")
        operator = fetch(data, "operators", operator_id, "operator")
        if kind not in KINDS or severity not in SEVERITIES:
            raise Refusal(f"kind must be one of {KINDS} and severity one of {SEVERITIES}")
        incident_id = new_id(data, "incidents", "inc")
        incident = {
            "incident_id": incident_id,
            "shipment_id": shipment_id,
            "depot_id": operator["depot_id"],
            "operator_id": operator_id,
            "kind": kind,
            "severity": severity,
        }
        data["incidents"][incident_id] = incident
        return dump(incident)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the caller over to a specialist team (claims review, hazardous goods, ...); ends the call."
    parameters = params(party_id=text("The client's or operator's id."), team=text("The team.", TEAMS))

    @staticmethod
    def invoke(data: Data, party_id: str, team: str) -> str:
        if party_id not in data["clients"] and party_id not in data["operators"]:
            raise Refusal(f"no client or operator {party_id!r}")
        if team not in TEAMS:
            raise Refusal(f"team must be one of {TEAMS}")
        handoff_id = new_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "party_id": party_id, "team": team}
        return "Transfer successful"


DEPOT_TOOLS: tuple[type[Tool], ...] = (AdjustStock, RequestRecount, LogIncident, TransferToHumanAgents)
