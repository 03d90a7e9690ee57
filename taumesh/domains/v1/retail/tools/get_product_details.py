"""``get_product_details``: a product's record with all its variants."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class GetProductDetails(Tool):
    name = "get_product_details"

    @staticmethod
    def invoke(data: Data, product_id: str) -> str:
        products = data["products"]
        if product_id in products:
            return json.dumps(products[product_id])
        return "Error: product not found"
