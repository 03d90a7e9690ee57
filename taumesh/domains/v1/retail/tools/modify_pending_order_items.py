"""``modify_pending_order_items``: swap items of a pending order for other variants of their product."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.retail.tools._orders import order_with_status, swap_price_difference


class ModifyPendingOrderItems(Tool):
    name = "modify_pending_order_items"
    writes = True

    @staticmethod
    def invoke(data: Data, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str) -> str:
        order = order_with_status(data, order_id, "pending", "non-pending order cannot be modified")
        items = order["items"]
        products = data["products"]
        # deliberately not rounded: the original stores the raw float sum
        diff_price = swap_price_difference(products, items, item_ids, new_item_ids)

        methods = data["users"][order["user_id"]]["payment_methods"]
        if payment_method_id not in methods:
            return "Error: payment method not found"
        method = methods[payment_method_id]
        if method["source"] == "gift_card" and method["balance"] < diff_price:
            return "Error: insufficient gift card balance to pay for the new item"

        order["payment_history"].append(
            {
                "transaction_type": "payment" if diff_price > 0 else "refund",
                "amount": abs(diff_price),
                "payment_method_id": payment_method_id,
            }
        )
        if method["source"] == "gift_card":
            method["balance"] = round(method["balance"] - diff_price, 2)

        # One pair at a time, each replacing the first item still carrying the old id, so a
        # duplicated id replaces successive copies. The new options are the variant's own dict.
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            item = [item for item in items if item["item_id"] == item_id][0]  # noqa: RUF015 - IndexError
            variant = products[item["product_id"]]["variants"][new_item_id]
            item["item_id"] = new_item_id
            item["price"] = variant["price"]
            item["options"] = variant["options"]
        order["status"] = "pending (item modified)"
        return json.dumps(order)
