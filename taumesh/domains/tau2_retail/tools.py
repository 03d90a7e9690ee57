"""The retail domain's tools, behaving as τ²'s ``RetailTools`` (their descriptions come from the fetched texts).

Records are plain dicts here; where τ² builds a model (a payment, an address) we validate it with
the domain's model (:mod:`.models`), and where τ² assigns an attribute without validation we assign the raw value,
so the dump (and the hash) stays τ²'s. Changes are made in τ²'s order, so a call that fails half-way
leaves the same partial change τ²'s would.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Data, Tool
from taumesh.domains.tau2 import ModelDump, dump_json, to_json_str
from taumesh.domains.tau2._common_tools import Calculator, Transfer
from taumesh.domains.tau2._toolkit import own_schema, read, write
from taumesh.domains.tau2_retail.models import OrderPayment, UserAddress


def _new(model: type[BaseModel], **fields: Any) -> dict[str, Any]:
    """A record τ² would build as ``model(**fields)``: validated, with its defaults."""
    record: dict[str, Any] = dump_json(model.model_validate(fields))
    return record


def _order(data: Data, order_id: str) -> Any:
    if order_id not in data["orders"]:
        raise ValueError("Order not found")
    return data["orders"][order_id]


def _user(data: Data, user_id: str) -> Any:
    if user_id not in data["users"]:
        raise ValueError("User not found")
    return data["users"][user_id]


def _product(data: Data, product_id: str) -> Any:
    if product_id not in data["products"]:
        raise ValueError("Product not found")
    return data["products"][product_id]


def _variant(data: Data, product_id: str, variant_id: str) -> Any:
    product = _product(data, product_id)
    if variant_id not in product["variants"]:
        raise ValueError("Variant not found")
    return product["variants"][variant_id]


def _payment_method(data: Data, user_id: str, payment_method_id: str) -> Any:
    user = _user(data, user_id)
    if payment_method_id not in user["payment_methods"]:
        raise ValueError("Payment method not found")
    return user["payment_methods"][payment_method_id]


def _is_gift_card(method: Any) -> bool:
    return bool(method["source"] == "gift_card")


def _missing_items(order: Any, item_ids: list[str], message: str) -> None:
    all_item_ids = [item["item_id"] for item in order["items"]]
    for item_id in item_ids:
        if item_ids.count(item_id) > all_item_ids.count(item_id):
            raise ValueError(message.format(item_id=item_id))


def _find_item(order: Any, item_id: str) -> Any:
    item = next((item for item in order["items"] if item["item_id"] == item_id), None)
    if item is None:
        raise ValueError(f"Item {item_id} not found")
    return item


def _address(**fields: Any) -> dict[str, Any]:
    return _new(UserAddress, **fields)


class RetailTools(Calculator, Transfer):
    """τ²'s ``RetailTools``: products, users and their orders."""

    @write
    def cancel_pending_order(self, order_id: str, reason: str) -> str:
        data = self.data
        order = _order(data, order_id)
        if order["status"] != "pending":
            raise ValueError("Non-pending order cannot be cancelled")
        if reason not in {"no longer needed", "ordered by mistake"}:
            raise ValueError("Invalid reason")
        refunds = []
        for payment in order["payment_history"]:
            payment_id = payment["payment_method_id"]
            refunds.append(
                _new(OrderPayment, transaction_type="refund", amount=payment["amount"], payment_method_id=payment_id)
            )
            user = _user(data, order["user_id"])
            method = _payment_method(data, user["user_id"], payment_id)
            if _is_gift_card(method):
                method["balance"] = round(method["balance"] + payment["amount"], 2)
        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        order["payment_history"].extend(refunds)
        return to_json_str(ModelDump(order))

    @write
    def exchange_delivered_order_items(
        self, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str
    ) -> str:
        data = self.data
        order = _order(data, order_id)
        if order["status"] != "delivered":
            raise ValueError("Non-delivered order cannot be exchanged")
        _missing_items(order, item_ids, "Number of {item_id} not found.")
        if len(item_ids) != len(new_item_ids):
            raise ValueError("The number of items to be exchanged should match.")
        diff_price: Any = 0
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            item = _find_item(order, item_id)
            variant = _variant(data, item["product_id"], new_item_id)
            if not variant["available"]:
                raise ValueError(f"New item {new_item_id} not found or available")
            diff_price += variant["price"] - item["price"]
        diff_price = round(diff_price, 2)
        method = _payment_method(data, order["user_id"], payment_method_id)
        if _is_gift_card(method) and method["balance"] < diff_price:
            raise ValueError("Insufficient gift card balance to pay for the price difference")
        order["status"] = "exchange requested"
        order["exchange_items"] = sorted(item_ids)
        order["exchange_new_items"] = sorted(new_item_ids)
        order["exchange_payment_method_id"] = payment_method_id
        order["exchange_price_difference"] = diff_price
        return to_json_str(ModelDump(order))

    @read
    def find_user_id_by_name_zip(self, first_name: str, last_name: str, zip: str) -> str:
        data = self.data
        for user_id, user in data["users"].items():
            if (
                user["name"]["first_name"].lower() == first_name.lower()
                and user["name"]["last_name"].lower() == last_name.lower()
                and user["address"]["zip"] == zip
            ):
                return str(user_id)
        raise ValueError("User not found")

    @read
    def find_user_id_by_email(self, email: str) -> str:
        data = self.data
        for user_id, user in data["users"].items():
            if user["email"].lower() == email.lower():
                return str(user_id)
        raise ValueError("User not found")

    @read
    def get_order_details(self, order_id: str) -> str:
        data = self.data
        return to_json_str(ModelDump(_order(data, order_id)))

    @read
    def get_product_details(self, product_id: str) -> str:
        data = self.data
        return to_json_str(ModelDump(_product(data, product_id)))

    @read
    def get_user_details(self, user_id: str) -> str:
        data = self.data
        return to_json_str(ModelDump(_user(data, user_id)))

    @read
    def list_all_product_types(self) -> str:
        data = self.data
        products = {product["name"]: product["product_id"] for product in data["products"].values()}
        return json.dumps(products, sort_keys=True)

    @write
    def modify_pending_order_address(
        self,
        order_id: str,
        address1: str,
        address2: str,
        city: str,
        state: str,
        country: str,
        zip: str,
    ) -> str:
        data = self.data
        order = _order(data, order_id)
        if "pending" not in order["status"]:
            raise ValueError("Non-pending order cannot be modified")
        order["address"] = _address(
            address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
        )
        return to_json_str(ModelDump(order))

    @write
    def modify_pending_order_items(
        self, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str
    ) -> str:
        data = self.data
        order = _order(data, order_id)
        if order["status"] != "pending":
            raise ValueError("Non-pending order cannot be modified")
        _missing_items(order, item_ids, "{item_id} not found")
        if len(item_ids) != len(new_item_ids):
            raise ValueError("The number of items to be exchanged should match")
        diff_price: Any = 0
        variant: Any = None
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            if item_id == new_item_id:
                raise ValueError("The new item id should be different from the old item id")
            item = _find_item(order, item_id)
            variant = _variant(data, item["product_id"], new_item_id)
            if not variant["available"]:
                raise ValueError(f"New item {new_item_id} not found or available")
            diff_price += variant["price"] - item["price"]
        method = _payment_method(data, order["user_id"], payment_method_id)
        if _is_gift_card(method) and method["balance"] < diff_price:
            raise ValueError("Insufficient gift card balance to pay for the new item")
        kind = "payment" if diff_price > 0 else "refund"
        payment = _new(OrderPayment, transaction_type=kind, amount=abs(diff_price), payment_method_id=payment_method_id)
        order["payment_history"].append(payment)
        if _is_gift_card(method):
            method["balance"] = round(method["balance"] - diff_price, 2)
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            item = _find_item(order, item_id)
            item["item_id"] = new_item_id
            item["price"] = variant["price"]  # τ² gives every item the last variant's price and options
            item["options"] = dict(variant["options"])
        order["status"] = "pending (item modified)"
        return to_json_str(ModelDump(order))

    @write
    def modify_pending_order_payment(self, order_id: str, payment_method_id: str) -> str:
        data = self.data
        order = _order(data, order_id)
        if "pending" not in order["status"]:
            raise ValueError("Non-pending order cannot be modified")
        method = _payment_method(data, order["user_id"], payment_method_id)
        history = order["payment_history"]
        if len(history) != 1 or history[0]["transaction_type"] != "payment":
            raise ValueError("There should be exactly one payment for a pending order")
        if history[0]["payment_method_id"] == payment_method_id:
            raise ValueError("The new payment method should be different from the current one")
        amount = history[0]["amount"]
        if _is_gift_card(method) and method["balance"] < amount:
            raise ValueError("Insufficient gift card balance to pay for the order")
        old_id = history[0]["payment_method_id"]
        history.extend(
            [
                _new(OrderPayment, transaction_type="payment", amount=amount, payment_method_id=payment_method_id),
                _new(OrderPayment, transaction_type="refund", amount=amount, payment_method_id=old_id),
            ]
        )
        if _is_gift_card(method):
            method["balance"] = round(method["balance"] - amount, 2)
        old_method = _payment_method(data, order["user_id"], history[0]["payment_method_id"])
        if _is_gift_card(old_method):
            old_method["balance"] = round(old_method["balance"] + amount, 2)
        return to_json_str(ModelDump(order))

    @write
    def modify_user_address(
        self,
        user_id: str,
        address1: str,
        address2: str,
        city: str,
        state: str,
        country: str,
        zip: str,
    ) -> str:
        data = self.data
        user = _user(data, user_id)
        user["address"] = _address(
            address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
        )
        return to_json_str(ModelDump(user))

    @write
    def return_delivered_order_items(self, order_id: str, item_ids: list[str], payment_method_id: str) -> str:
        data = self.data
        order = _order(data, order_id)
        if order["status"] != "delivered":
            raise ValueError("Non-delivered order cannot be returned")
        user = _user(data, order["user_id"])
        method = _payment_method(data, user["user_id"], payment_method_id)
        if not _is_gift_card(method) and payment_method_id != order["payment_history"][0]["payment_method_id"]:
            raise ValueError("Payment method should be the original payment method")
        _missing_items(order, item_ids, "Some item not found")
        order["status"] = "return requested"
        order["return_items"] = sorted(item_ids)
        order["return_payment_method_id"] = payment_method_id
        return to_json_str(ModelDump(order))


class RetailHeadTools(RetailTools):
    """Upstream τ²'s HEAD ``RetailTools``: the wheel's, and ``get_item_details``.

    Its observation is τ²'s ``Variant`` dump, its error ``Item not found``, as HEAD's vectors record them. The
    wheel has no source for its schema and τ²'s own text is not ours to copy, so the description below is
    taumesh's wording (docs/data.md).
    """

    @read
    @own_schema(
        "Look up one item (a specific variant of a product) by its item id: its options, whether it is "
        "available, and its price. An item id is not a product id.",
        {
            "type": "object",
            "properties": {"item_id": {"type": "string", "description": "The item id, such as '1008292230'."}},
            "required": ["item_id"],
        },
    )
    def get_item_details(self, item_id: str) -> str:
        for product in self.data["products"].values():
            if item_id in product["variants"]:
                return to_json_str(ModelDump(product["variants"][item_id]))
        raise ValueError("Item not found")


TOOLS: tuple[type[Tool], ...] = RetailTools.tools()

HEAD_TOOLS: tuple[type[Tool], ...] = tuple(tool for tool in RetailHeadTools.tools() if tool.name == "get_item_details")
"""Tools of upstream τ²'s HEAD toolkit that the wheel lacks (offered over a ``--data-dir`` τ² folder only)."""
