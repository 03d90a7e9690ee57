"""``modify_pending_order_payment``: pay a pending order with another method and refund the old one."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.retail.tools._orders import order_with_status


class ModifyPendingOrderPayment(Tool):
    name = "modify_pending_order_payment"
    writes = True

    @staticmethod
    def invoke(data: Data, order_id: str, payment_method_id: str) -> str:
        order = order_with_status(data, order_id, "pending", "non-pending order cannot be modified")
        methods = data["users"][order["user_id"]]["payment_methods"]
        if payment_method_id not in methods:
            return "Error: payment method not found"
        history = order["payment_history"]
        if len(history) > 1 or history[0]["transaction_type"] != "payment":
            return "Error: there should be exactly one payment for a pending order"
        old_method_id = history[0]["payment_method_id"]
        if old_method_id == payment_method_id:
            return "Error: the new payment method should be different from the current one"
        amount = history[0]["amount"]
        new_method = methods[payment_method_id]
        if new_method["source"] == "gift_card" and new_method["balance"] < amount:
            return "Error: insufficient gift card balance to pay for the order"

        history.extend(
            [
                {"transaction_type": "payment", "amount": amount, "payment_method_id": payment_method_id},
                {"transaction_type": "refund", "amount": amount, "payment_method_id": old_method_id},
            ]
        )
        if new_method["source"] == "gift_card":
            new_method["balance"] = round(new_method["balance"] - amount, 2)
        if "gift_card" in old_method_id:
            old_method = methods[old_method_id]
            old_method["balance"] = round(old_method["balance"] + amount, 2)
        return json.dumps(order)
