"""``exchange_delivered_order_items``: request an exchange of items of a delivered order."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.retail.tools._orders import order_with_status, swap_price_difference


class ExchangeDeliveredOrderItems(Tool):
    name = "exchange_delivered_order_items"
    writes = True

    @staticmethod
    def invoke(data: Data, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str) -> str:
        order = order_with_status(data, order_id, "delivered", "non-delivered order cannot be exchanged")
        diff_price = round(swap_price_difference(data["products"], order["items"], item_ids, new_item_ids), 2)

        methods = data["users"][order["user_id"]]["payment_methods"]
        if payment_method_id not in methods:
            return "Error: payment method not found"
        method = methods[payment_method_id]
        if method["source"] == "gift_card" and method["balance"] < diff_price:
            return "Error: insufficient gift card balance to pay for the price difference"

        order["status"] = "exchange requested"
        order["exchange_items"] = sorted(item_ids)
        order["exchange_new_items"] = sorted(new_item_ids)
        order["exchange_payment_method_id"] = payment_method_id
        order["exchange_price_difference"] = diff_price
        return json.dumps(order)
