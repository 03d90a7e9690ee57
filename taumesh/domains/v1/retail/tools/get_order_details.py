"""``get_order_details``: an order's full record."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class GetOrderDetails(Tool):
    name = "get_order_details"

    @staticmethod
    def invoke(data: Data, order_id: str) -> str:
        orders = data["orders"]
        if order_id in orders:
            return json.dumps(orders[order_id])
        return "Error: order not found"
