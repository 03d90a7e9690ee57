"""``update_reservation_passengers``: replace a reservation's passengers (same count only)."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Tool


class UpdateReservationPassengers(Tool):
    name = "update_reservation_passengers"
    writes = True

    @staticmethod
    def invoke(data: Data, reservation_id: str, passengers: list[dict[str, Any]]) -> str:
        reservations = data["reservations"]
        if reservation_id not in reservations:
            return "Error: reservation not found"
        reservation = reservations[reservation_id]
        if len(passengers) != len(reservation["passengers"]):
            return "Error: number of passengers does not match"
        reservation["passengers"] = passengers  # stored as given, like the original
        return json.dumps(reservation)
