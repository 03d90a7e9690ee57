"""``cancel_reservation``: mark a reservation cancelled and log a refund of every payment.

There is no status or policy check, and no balance is credited back: the refunds are only negative
entries appended to the payment history.
"""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class CancelReservation(Tool):
    name = "cancel_reservation"
    writes = True

    @staticmethod
    def invoke(data: Data, reservation_id: str) -> str:
        reservations = data["reservations"]
        if reservation_id not in reservations:
            return "Error: reservation not found"
        reservation = reservations[reservation_id]
        history = reservation["payment_history"]
        refunds = [{"payment_id": payment["payment_id"], "amount": -payment["amount"]} for payment in history]
        history.extend(refunds)
        reservation["status"] = "cancelled"
        return json.dumps(reservation)
