"""``modify_pending_order_address``: replace the shipping address of a pending order."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.retail.tools._orders import order_with_status


class ModifyPendingOrderAddress(Tool):
    name = "modify_pending_order_address"
    writes = True

    @staticmethod
    def invoke(
        data: Data,
        order_id: str,
        address1: str,
        address2: str,
        city: str,
        state: str,
        country: str,
        zip: str,
    ) -> str:
        order = order_with_status(data, order_id, "pending", "non-pending order cannot be modified")
        order["address"] = {
            "address1": address1,
            "address2": address2,
            "city": city,
            "state": state,
            "country": country,
            "zip": zip,
        }
        return json.dumps(order)
