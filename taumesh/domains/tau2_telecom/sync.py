"""τ²'s ``TelecomEnvironment.sync_tools``: what the carrier's systems change on the user's phone, and back."""

from __future__ import annotations

from typing import Any

from taumesh.domains import Session
from taumesh.domains.tau2 import dump_json
from taumesh.domains.tau2_telecom.agent_tools import (
    bills_awaiting_payment,
    customer_by_phone,
    line_by_phone,
    plan_by_id,
    set_bill_to_paid,
)
from taumesh.domains.tau2_telecom.phone import surroundings
from taumesh.domains.tau2_telecom.phone_models import PaymentRequest


def _payment_request(bill: Any) -> Any:
    """τ²'s ``PaymentRequest(bill_id, amount_due)``, validated (the amount becomes a float)."""
    return dump_json(PaymentRequest.model_validate({"bill_id": bill["bill_id"], "amount_due": bill["total_due"]}))


def sync_tools(session: Session) -> None:
    """Copy the line's state to the phone's surroundings; settle a paid request; raise a request for a bill due."""
    with session.switch.writing():
        data = session.data
        place = surroundings(data)
        phone_number = place["phone_number"]
        if phone_number is None:
            return
        line = line_by_phone(data, phone_number)
        place["line_active"] = line["status"] == "Active"
        place["roaming_allowed"] = bool(line["roaming_enabled"])
        plan = plan_by_id(data, line["plan_id"])
        place["mobile_data_usage_exceeded"] = line["data_used_gb"] >= plan["data_limit_gb"] + line["data_refueling_gb"]
        request = place["payment_request"]
        if request is not None and request["paid"]:
            set_bill_to_paid(data, request["bill_id"])
            place["payment_request"] = None
        if place["payment_request"] is None:
            bills = bills_awaiting_payment(data, customer_by_phone(data, phone_number))
            if bills:
                place["payment_request"] = _payment_request(bills[0])
