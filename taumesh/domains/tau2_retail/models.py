"""The retail domain's database: products and their variants, users, orders."""

from __future__ import annotations

from typing import Literal

from taumesh.domains.tau2._models import Database, Record


class Variant(Record):
    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class Product(Record):
    name: str
    product_id: str
    variants: dict[str, Variant]


class UserName(Record):
    first_name: str
    last_name: str


class UserAddress(Record):
    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class PaymentMethodBase(Record):
    source: str
    id: str


class CreditCard(PaymentMethodBase):
    source: Literal["credit_card"]
    brand: str
    last_four: str


class Paypal(PaymentMethodBase):
    source: Literal["paypal"]


class GiftCard(PaymentMethodBase):
    source: Literal["gift_card"]
    balance: float


PaymentMethod = CreditCard | GiftCard | Paypal


class User(Record):
    user_id: str
    name: UserName
    address: UserAddress
    email: str
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]


class OrderFullfilment(Record):
    """One shipment of an order (τ²'s class name keeps its spelling)."""

    tracking_id: list[str]
    item_ids: list[str]


class OrderItem(Record):
    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


OrderPaymentType = Literal["payment", "refund"]
OrderStatus = Literal[
    "processed",
    "pending",
    "pending (item modified)",
    "delivered",
    "cancelled",
    "exchange requested",
    "return requested",
]
CancelReason = Literal["no longer needed", "ordered by mistake"]


class OrderPayment(Record):
    transaction_type: OrderPaymentType
    amount: float
    payment_method_id: str


class Order(Record):
    order_id: str
    user_id: str
    address: UserAddress
    items: list[OrderItem]
    status: OrderStatus
    fulfillments: list[OrderFullfilment]
    payment_history: list[OrderPayment]
    cancel_reason: CancelReason | None = None
    exchange_items: list[str] | None = None
    exchange_new_items: list[str] | None = None
    exchange_payment_method_id: str | None = None
    exchange_price_difference: float | None = None
    return_items: list[str] | None = None
    return_payment_method_id: str | None = None


class RetailDB(Database):
    products: dict[str, Product]
    users: dict[str, User]
    orders: dict[str, Order]
