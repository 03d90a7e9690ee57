"""The retail database's data model: validates ``orders.json``, ``products.json`` and ``users.json`` at load."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record: unknown fields are errors, so a misspelled field in the data is caught at load."""

    model_config = ConfigDict(extra="forbid")


class Address(Record):
    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class OrderItem(Record):
    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


class Fulfillment(Record):
    tracking_id: list[str]
    item_ids: list[str]


class Payment(Record):
    transaction_type: str
    amount: float
    payment_method_id: str


class Order(Record):
    order_id: str
    user_id: str
    address: Address
    items: list[OrderItem]
    fulfillments: list[Fulfillment]
    status: str
    payment_history: list[Payment]
    cancel_reason: str | None = None
    exchange_items: list[str] | None = None
    exchange_new_items: list[str] | None = None
    exchange_payment_method_id: str | None = None
    exchange_price_difference: float | None = None
    return_items: list[str] | None = None
    return_payment_method_id: str | None = None


class Variant(Record):
    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class Product(Record):
    name: str
    product_id: str
    variants: dict[str, Variant]


class Name(Record):
    first_name: str
    last_name: str


class PaymentMethod(Record):
    source: str
    id: str
    brand: str | None = None
    last_four: str | None = None
    balance: float | None = None


class User(Record):
    name: Name
    address: Address
    email: str
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]


class RetailDatabase(BaseModel):
    """The retail tables, by record id."""

    orders: dict[str, Order]
    products: dict[str, Product]
    users: dict[str, User]
