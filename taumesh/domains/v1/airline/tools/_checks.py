"""Checks several airline tools share: a flight bookable on a date, a payment method for an update.

They raise :class:`Refusal`; the session turns it into the observation ``"Error: <message>"``.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal


def bookable_day(data: Data, flight_number: str, date: str, cabin: str, seats: int) -> tuple[Any, Any]:
    """The flight's record and its record for ``date``, refused unless available with ``seats`` free in ``cabin``."""
    if flight_number not in data["flights"]:
        raise Refusal(f"flight {flight_number} not found")
    flight = data["flights"][flight_number]
    if date not in flight["dates"]:
        raise Refusal(f"flight {flight_number} not found on date {date}")
    day = flight["dates"][date]
    if day["status"] != "available":
        raise Refusal(f"flight {flight_number} not available on date {date}")
    if day["available_seats"][cabin] < seats:
        raise Refusal(f"not enough seats on flight {flight_number}")
    return flight, day


def update_payment_method(data: Data, user_id: str, payment_id: str, price: Any) -> Any:
    """The user's payment method to charge ``price`` for a reservation update (no certificates)."""
    wallet = data["users"][user_id]["payment_methods"]
    if payment_id not in wallet:
        raise Refusal("payment method not found")
    method = wallet[payment_id]
    if method["source"] == "certificate":
        raise Refusal("certificate cannot be used to update reservation")
    if method["source"] == "gift_card" and method["amount"] < price:
        raise Refusal("gift card balance is not enough")
    return method
