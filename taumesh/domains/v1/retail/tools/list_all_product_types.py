"""``list_all_product_types``: product name -> product id, sorted by name."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class ListAllProductTypes(Tool):
    name = "list_all_product_types"

    @staticmethod
    def invoke(data: Data) -> str:
        by_name = {product["name"]: product["product_id"] for product in data["products"].values()}
        return json.dumps({name: by_name[name] for name in sorted(by_name)})
