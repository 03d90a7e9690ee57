"""``exchange_delivered_order_items``: request an exchange of items of a delivered order."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains._tool import Data, Tool


class ExchangeDeliveredOrderItems(Tool):
    name = "exchange_delivered_order_items"
    writes = True

    @staticmethod
    def invoke(data: Data, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str) -> str:
        orders = data["orders"]
        if order_id not in orders:
            return "Error: order not found"
        order = orders[order_id]
        if order["status"] != "delivered":
            return "Error: non-delivered order cannot be exchanged"
        in_order = [item["item_id"] for item in order["items"]]
        for item_id in item_ids:
            # ``count`` on the argument itself: a string argument counts substrings, like the original.
            if item_ids.count(item_id) > in_order.count(item_id):
                return f"Error: {item_id} not found"
        if len(item_ids) != len(new_item_ids):
            return "Error: the number of items to be exchanged should match"

        products = data["products"]
        diff_price: Any = 0
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            item = [item for item in order["items"] if item["item_id"] == item_id][0]  # noqa: RUF015 - IndexError
            variants = products[item["product_id"]]["variants"]
            if not (new_item_id in variants and variants[new_item_id]["available"]):
                return f"Error: new item {new_item_id} not found or available"
            diff_price += variants[new_item_id]["price"] - item["price"]
        diff_price = round(diff_price, 2)

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
