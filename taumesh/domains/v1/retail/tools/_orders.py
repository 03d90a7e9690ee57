"""Checks several retail tools share: an order in the right status, a valid swap of items.

They raise :class:`Refusal`; the session turns it into the observation ``"Error: <message>"``,
exactly the text the tools would otherwise return.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal


def order_with_status(data: Data, order_id: str, status: str, refusal: str) -> Any:
    """The order ``order_id``, refused when missing or when its status is not ``status``."""
    orders = data["orders"]
    if order_id not in orders:
        raise Refusal("order not found")
    order = orders[order_id]
    if order["status"] != status:
        raise Refusal(refusal)
    return order


def check_items_in_order(items: list[Any], item_ids: list[str], refusal: str | None = None) -> None:
    """Every id of ``item_ids`` names an item of the order (as often as it is repeated)."""
    in_order = [item["item_id"] for item in items]
    for item_id in item_ids:
        # ``count`` on the argument itself: a string argument counts substrings, like the original.
        if item_ids.count(item_id) > in_order.count(item_id):
            raise Refusal(refusal or f"{item_id} not found")


def swap_price_difference(products: Any, items: list[Any], item_ids: list[str], new_item_ids: list[str]) -> Any:
    """Price of the new variants minus the old items (unrounded), refusing unknown or unavailable variants."""
    check_items_in_order(items, item_ids)
    if len(item_ids) != len(new_item_ids):
        raise Refusal("the number of items to be exchanged should match")
    difference: Any = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        item = [item for item in items if item["item_id"] == item_id][0]  # noqa: RUF015 - IndexError, as the original
        variants = products[item["product_id"]]["variants"]
        if not (new_item_id in variants and variants[new_item_id]["available"]):
            raise Refusal(f"new item {new_item_id} not found or available")
        difference += variants[new_item_id]["price"] - item["price"]
    return difference
