"""``update_reservation_flights``: replace a reservation's flights and cabin, charging the difference.

A segment with the same flight number and date as an existing one, when the cabin is unchanged,
keeps its old price; every other segment is priced now. The difference (possibly negative) is
logged in the payment history and taken from (or given back to) a gift card. Seats are untouched.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Tool, copy_json
from taumesh.domains.v1.airline.tools._checks import bookable_day, update_payment_method


class UpdateReservationFlights(Tool):
    name = "update_reservation_flights"
    writes = True

    @staticmethod
    def invoke(data: Data, reservation_id: str, cabin: str, flights: list[dict[str, Any]], payment_id: str) -> str:
        reservations = data["reservations"]
        if reservation_id not in reservations:
            return "Error: reservation not found"
        reservation = reservations[reservation_id]
        travellers = len(reservation["passengers"])
        new_flights = copy_json(flights)

        total_price: Any = 0
        for flight in new_flights:
            kept = [
                old
                for old in reservation["flights"]
                if old["flight_number"] == flight["flight_number"]
                and old["date"] == flight["date"]
                and cabin == reservation["cabin"]
            ]
            if kept:
                flight["price"] = kept[0]["price"]
                flight["origin"] = kept[0]["origin"]
                flight["destination"] = kept[0]["destination"]
                total_price += flight["price"] * travellers
                continue
            flight_data, day = bookable_day(data, flight["flight_number"], flight["date"], cabin, travellers)
            flight["price"] = day["prices"][cabin]
            flight["origin"] = flight_data["origin"]
            flight["destination"] = flight_data["destination"]
            total_price += flight["price"] * travellers
        total_price -= sum(old["price"] for old in reservation["flights"]) * travellers

        method = update_payment_method(data, reservation["user_id"], payment_id, total_price)

        if method["source"] == "gift_card":
            method["amount"] -= total_price
        reservation["flights"] = new_flights
        if total_price != 0:
            reservation["payment_history"].append({"payment_id": payment_id, "amount": total_price})
        return json.dumps(reservation)
