"""``book_reservation``: create a reservation, check availability and payment, then charge it.

As in the original: the id is HATHAT, else HATHAU, else HATHAV (which a further booking
overwrites); ``created_at`` is fixed; seats are never decremented; ``passengers`` and
``payment_methods`` are stored as given; a certificate used for payment is removed whole.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Tool, copy_json
from taumesh.domains.v1.airline.tools._checks import bookable_day

_RESERVATION_IDS = ("HATHAT", "HATHAU")
_LAST_RESERVATION_ID = "HATHAV"
_CREATED_AT = "2024-05-15T15:00:00"
_INSURANCE_PER_PASSENGER = 30
_PRICE_PER_BAG = 50


class BookReservation(Tool):
    name = "book_reservation"
    writes = True

    @staticmethod
    def invoke(
        data: Data,
        user_id: str,
        origin: str,
        destination: str,
        flight_type: str,
        cabin: str,
        flights: list[dict[str, Any]],
        passengers: list[dict[str, Any]],
        payment_methods: list[dict[str, Any]],
        total_baggages: int,
        nonfree_baggages: int,
        insurance: str,
    ) -> str:
        users, reservations = data["users"], data["reservations"]
        if user_id not in users:
            return "Error: user not found"
        user = users[user_id]
        free_ids = (rid for rid in _RESERVATION_IDS if rid not in reservations)
        reservation_id = next(free_ids, _LAST_RESERVATION_ID)
        reservation: dict[str, Any] = {
            "reservation_id": reservation_id,
            "user_id": user_id,
            "origin": origin,
            "destination": destination,
            "flight_type": flight_type,
            "cabin": cabin,
            "flights": copy_json(flights),
            "passengers": passengers,
            "payment_history": payment_methods,
            "created_at": _CREATED_AT,
            "total_baggages": total_baggages,
            "nonfree_baggages": nonfree_baggages,
            "insurance": insurance,
        }

        total_price: Any = 0
        for flight in reservation["flights"]:
            flight_data, day = bookable_day(data, flight["flight_number"], flight["date"], cabin, len(passengers))
            flight["price"] = day["prices"][cabin]
            flight["origin"] = flight_data["origin"]
            flight["destination"] = flight_data["destination"]
            total_price += flight["price"] * len(passengers)
        if insurance == "yes":
            total_price += _INSURANCE_PER_PASSENGER * len(passengers)
        total_price += _PRICE_PER_BAG * nonfree_baggages

        wallet = user["payment_methods"]
        for payment in payment_methods:
            payment_id = payment["payment_id"]
            if payment_id not in wallet:
                return f"Error: payment method {payment_id} not found"
            has_balance = payment_id.startswith(("gift_card", "certificate"))
            if has_balance and wallet[payment_id]["amount"] < payment["amount"]:
                return f"Error: not enough balance in payment method {payment_id}"
        paid = sum(payment["amount"] for payment in payment_methods)
        if paid != total_price:
            return f"Error: payment amount does not add up, total price is {total_price}, but paid {paid}"

        for payment in payment_methods:
            payment_id = payment["payment_id"]
            if payment_id.startswith("gift_card"):
                wallet[payment_id]["amount"] -= payment["amount"]
            elif payment_id.startswith("certificate"):
                del wallet[payment_id]
        reservations[reservation_id] = reservation
        user["reservations"].append(reservation_id)
        return json.dumps(reservation)
