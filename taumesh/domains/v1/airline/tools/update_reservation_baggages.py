"""``update_reservation_baggages``: change a reservation's bag counts, charging 50 per extra paid bag."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool
from taumesh.domains.v1.airline.tools._checks import update_payment_method

_PRICE_PER_BAG = 50


class UpdateReservationBaggages(Tool):
    name = "update_reservation_baggages"
    writes = True

    @staticmethod
    def invoke(data: Data, reservation_id: str, total_baggages: int, nonfree_baggages: int, payment_id: str) -> str:
        reservations = data["reservations"]
        if reservation_id not in reservations:
            return "Error: reservation not found"
        reservation = reservations[reservation_id]
        price = _PRICE_PER_BAG * max(0, nonfree_baggages - reservation["nonfree_baggages"])
        method = update_payment_method(data, reservation["user_id"], payment_id, price)
        reservation["total_baggages"] = total_baggages
        reservation["nonfree_baggages"] = nonfree_baggages
        if method["source"] == "gift_card":
            method["amount"] -= price
        if price != 0:
            reservation["payment_history"].append({"payment_id": payment_id, "amount": price})
        return json.dumps(reservation)
