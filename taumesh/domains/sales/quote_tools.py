"""The desk's quote tools: pricing, discounts and their approvals, e-signature and the won deal.

Tools refuse what the data makes impossible (a signed quote changed, a deal won on an unsigned quote); the policy's
own limits (authority, who may sign, validity) are the agent's to keep, as in τ-bench.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.sales.clock import QUOTE_VALID_DAYS, TODAY, quote_total, unit_price
from taumesh.domains.sales.lookup_tools import OPPORTUNITY, QUOTE
from taumesh.domains.sales.records import dump, next_id, record, world_tag
from taumesh.domains.sales.schema import integer, params, string

OPEN_STAGES = ("qualification", "proposal", "negotiation")
FIXED = ("out_for_signature", "signed")
"""Quote statuses no change may touch: the client has it, or has signed it."""
PRODUCT = string("The product's id from the price book, such as 'sku-analytics'.")
QUANTITY = integer("How many units (seats, licences or days), at least 1.")


def _line(data: Data, product_id: str, quantity: int) -> dict[str, Any]:
    product = record(data, "products", product_id, "product")
    if quantity < 1:
        raise Refusal("quantity must be at least 1")
    return {"product_id": product_id, "quantity": quantity, "unit_price": unit_price(product, quantity)}


def _changeable(data: Data, quote_id: str) -> Any:
    quote = record(data, "quotes", quote_id, "quote")
    if quote["status"] in FIXED:
        raise Refusal(f"the quote is {quote['status'].replace('_', ' ')}: it cannot change")
    return quote


def _discount(percent: int) -> int:
    if not 0 <= percent <= 100:
        raise Refusal("a discount is a percent from 0 to 100")
    return percent


class CreateQuote(Tool):
    name = "create_quote"
    writes = True
    description = (
        "Start a draft quote on an open opportunity with one product line, priced from the price book;"
        " valid 30 days. Returns the quote."
    )
    parameters = params(opportunity_id=OPPORTUNITY, product_id=PRODUCT, quantity=QUANTITY)

    @staticmethod
    def invoke(data: Data, opportunity_id: str, product_id: str, quantity: int) -> str:
        opportunity = record(data, "opportunities", opportunity_id, "opportunity")
        if opportunity["stage"] not in OPEN_STAGES:
            raise Refusal("the opportunity is closed")
        lines = [_line(data, product_id, quantity)]
        quote_id = next_id(data, "quotes", "qt", world_tag(opportunity_id))
        quote = {
            "quote_id": quote_id,
            "opportunity_id": opportunity_id,
            "lines": lines,
            "discount_percent": 0,
            "total": quote_total(lines, 0),
            "status": "draft",
            "valid_until": (TODAY + timedelta(days=QUOTE_VALID_DAYS)).isoformat(),
        }
        data["quotes"][quote_id] = quote
        return dump(quote)


class AddQuoteLine(Tool):
    name = "add_quote_line"
    writes = True
    description = (
        "Add a product line to a draft quote (one line per product, kept in price-book order); returns the quote"
        " with its new total."
    )
    parameters = params(quote_id=QUOTE, product_id=PRODUCT, quantity=QUANTITY)

    @staticmethod
    def invoke(data: Data, quote_id: str, product_id: str, quantity: int) -> str:
        quote = record(data, "quotes", quote_id, "quote")
        if quote["status"] != "draft":
            raise Refusal("lines are added to draft quotes only")
        if any(line["product_id"] == product_id for line in quote["lines"]):
            raise Refusal("the quote has a line of that product already")
        lines = [*quote["lines"], _line(data, product_id, quantity)]
        quote["lines"] = sorted(
            lines, key=lambda line: str(line["product_id"])
        )  # the order lines are added is no choice
        quote["total"] = quote_total(quote["lines"], quote["discount_percent"])
        return dump(quote)


class SetQuoteDiscount(Tool):
    name = "set_quote_discount"
    writes = True
    description = "Set a quote's discount (percent) and approve it for sending; returns the quote with its new total."
    parameters = params(quote_id=QUOTE, discount_percent=integer("The discount, in whole percent."))

    @staticmethod
    def invoke(data: Data, quote_id: str, discount_percent: int) -> str:
        quote = _changeable(data, quote_id)
        quote["discount_percent"] = _discount(discount_percent)
        quote["total"] = quote_total(quote["lines"], discount_percent)
        quote["status"] = "approved"
        return dump(quote)


class RequestDiscountApproval(Tool):
    name = "request_discount_approval"
    writes = True
    description = (
        "Ask the opportunity owner's manager to approve a discount beyond the owner's authority;"
        " the quote waits as pending_approval."
    )
    parameters = params(quote_id=QUOTE, discount_percent=integer("The discount asked for, in whole percent."))

    @staticmethod
    def invoke(data: Data, quote_id: str, discount_percent: int) -> str:
        quote = _changeable(data, quote_id)
        owner_id = data["opportunities"][quote["opportunity_id"]]["owner_rep_id"]
        owner = record(data, "reps", owner_id or "", "opportunity owner")
        if owner["manager_id"] is None:
            raise Refusal("the owner has no manager to ask: they decide their team's requests themselves")
        approval_id = next_id(data, "approvals", "apr", world_tag(quote_id))
        approval = {
            "approval_id": approval_id,
            "quote_id": quote_id,
            "requested_by": owner_id,
            "approver_id": owner["manager_id"],
            "discount_percent": _discount(discount_percent),
            "status": "pending",
        }
        data["approvals"][approval_id] = approval
        quote["status"] = "pending_approval"
        return dump(approval)


def _pending(data: Data, approval_id: str) -> Any:
    approval = record(data, "approvals", approval_id, "approval")
    if approval["status"] != "pending":
        raise Refusal(f"the request is {approval['status']} already")
    return approval


class DecideDiscountApproval(Tool):
    name = "decide_discount_approval"
    writes = True
    description = (
        "Record a manager's decision on a pending discount request: approved applies the discount and approves"
        " the quote; rejected returns it to draft."
    )
    parameters = params(
        approval_id=string("The request's id, such as 'apr-w1-003'."),
        decision=string("The decision.", ["approved", "rejected"]),
    )

    @staticmethod
    def invoke(data: Data, approval_id: str, decision: str) -> str:
        approval = _pending(data, approval_id)
        if decision not in ("approved", "rejected"):
            raise Refusal("the decision is approved or rejected")
        quote = record(data, "quotes", approval["quote_id"], "quote")
        approval["status"] = decision
        if decision == "approved":
            quote["discount_percent"] = approval["discount_percent"]
            quote["total"] = quote_total(quote["lines"], approval["discount_percent"])
            quote["status"] = "approved"
        else:
            quote["status"] = "draft"
        return dump({"approval": approval, "quote": quote})


class EscalateToDealDesk(Tool):
    name = "escalate_to_deal_desk"
    writes = True
    description = "Send a pending discount request to the deal desk, which decides discounts beyond a manager's."
    parameters = params(approval_id=string("The request's id."))

    @staticmethod
    def invoke(data: Data, approval_id: str) -> str:
        approval = _pending(data, approval_id)
        approval["status"] = "escalated"
        return dump(approval)


class SendForSignature(Tool):
    name = "send_for_signature"
    writes = True
    description = (
        "Send a quote through the e-signature service to a contact of its account, who signs in their own"
        " e-signature app. Returns the envelope."
    )
    parameters = params(quote_id=QUOTE, contact_id=string("The signer's contact id."))

    @staticmethod
    def invoke(data: Data, quote_id: str, contact_id: str) -> str:
        quote = _changeable(data, quote_id)
        contact = record(data, "contacts", contact_id, "contact")
        account_id = data["opportunities"][quote["opportunity_id"]]["account_id"]
        if contact["account_id"] != account_id:
            raise Refusal("the signer must be a contact of the quote's account")
        envelope_id = next_id(data, "envelopes", "env", world_tag(quote_id))
        envelope = {
            "envelope_id": envelope_id,
            "quote_id": quote_id,
            "signer_contact_id": contact_id,
            "signer_email": contact["email"],
            "status": "sent",
        }
        data["envelopes"][envelope_id] = envelope
        quote["status"] = "out_for_signature"
        body = f"Envelope {envelope_id}: quote {quote_id} for {quote['total']:.2f} USD is ready for your signature."
        data["mailboxes"][contact_id]["messages"].append({"subject": "Please sign your quote", "body": body})
        return dump(envelope)


class MarkOpportunityWon(Tool):
    name = "mark_opportunity_won"
    writes = True
    description = "Close an opportunity as won on its signed quote; the amount becomes the quote's total."
    parameters = params(opportunity_id=OPPORTUNITY, quote_id=QUOTE)

    @staticmethod
    def invoke(data: Data, opportunity_id: str, quote_id: str) -> str:
        opportunity = record(data, "opportunities", opportunity_id, "opportunity")
        quote = record(data, "quotes", quote_id, "quote")
        if quote["opportunity_id"] != opportunity_id:
            raise Refusal("the quote belongs to another opportunity")
        if quote["status"] != "signed":
            raise Refusal("a deal is won on a signed quote only: this one is not signed")
        if opportunity["stage"] not in OPEN_STAGES:
            raise Refusal("the opportunity is closed already")
        opportunity.update(stage="closed_won", forecast_category="closed", won_quote_id=quote_id, amount=quote["total"])
        return dump(opportunity)


QUOTE_TOOLS = (
    CreateQuote,
    AddQuoteLine,
    SetQuoteDiscount,
    RequestDiscountApproval,
    DecideDiscountApproval,
    EscalateToDealDesk,
    SendForSignature,
    MarkOpportunityWon,
)
