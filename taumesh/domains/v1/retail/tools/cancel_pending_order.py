"""``cancel_pending_order``: cancel a pending order and refund every payment (gift cards at once)."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.retail.tools._orders import order_with_status

_REASONS = ("no longer needed", "ordered by mistake")


class CancelPendingOrder(Tool):
    name = "cancel_pending_order"
    writes = True

    @staticmethod
    def invoke(data: Data, order_id: str, reason: str) -> str:
        order = order_with_status(data, order_id, "pending", "non-pending order cannot be cancelled")
        if reason not in _REASONS:
            return "Error: invalid reason"

        refunds = []
        for payment in order["payment_history"]:
            method_id = payment["payment_method_id"]
            refunds.append({"transaction_type": "refund", "amount": payment["amount"], "payment_method_id": method_id})
            if "gift_card" in method_id:
                gift_card = data["users"][order["user_id"]]["payment_methods"][method_id]
                gift_card["balance"] = round(gift_card["balance"] + payment["amount"], 2)

        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        order["payment_history"].extend(refunds)
        return json.dumps(order)
