"""``get_reservation_details``: a reservation's full record (its not-found text says "user")."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class GetReservationDetails(Tool):
    name = "get_reservation_details"

    @staticmethod
    def invoke(data: Data, reservation_id: str) -> str:
        reservations = data["reservations"]
        if reservation_id in reservations:
            return json.dumps(reservations[reservation_id])
        return "Error: user not found"  # sic: the original's wording
