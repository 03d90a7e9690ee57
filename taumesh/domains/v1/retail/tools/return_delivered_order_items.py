"""``return_delivered_order_items``: request the return of items of a delivered order."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.retail.tools._orders import check_items_in_order, order_with_status


class ReturnDeliveredOrderItems(Tool):
    name = "return_delivered_order_items"
    writes = True

    @staticmethod
    def invoke(data: Data, order_id: str, item_ids: list[str], payment_method_id: str) -> str:
        order = order_with_status(data, order_id, "delivered", "non-delivered order cannot be returned")
        if payment_method_id not in data["users"][order["user_id"]]["payment_methods"]:
            return "Error: payment method not found"
        # The original payment is only looked up for a non-gift-card method (short-circuit kept).
        if "gift_card" not in payment_method_id and (
            payment_method_id != order["payment_history"][0]["payment_method_id"]
        ):
            return "Error: payment method should be either the original payment method or a gift card"
        check_items_in_order(order["items"], item_ids, refusal="some item not found")

        order["status"] = "return requested"
        order["return_items"] = sorted(item_ids)
        order["return_payment_method_id"] = payment_method_id
        return json.dumps(order)
