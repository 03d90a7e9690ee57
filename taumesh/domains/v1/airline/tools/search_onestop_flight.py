"""``search_onestop_flight``: available two-leg connections between two airports from a date.

Like the original, a second leg after an overnight first leg is labelled with the next day
(computed as ``2024-05-{day + 1}``, without zero padding) but its status, seats and prices are
read from the first leg's date.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Tool


def _leg(flight: dict[str, Any], day: dict[str, Any], label: str) -> dict[str, Any]:
    result = {key: value for key, value in flight.items() if key != "dates"}
    result.update(day)
    result["date"] = label
    return result


class SearchOnestopFlight(Tool):
    name = "search_onestop_flight"

    @staticmethod
    def invoke(data: Data, origin: str, destination: str, date: str) -> str:
        flights = data["flights"]
        results: list[list[dict[str, Any]]] = []
        for first in flights.values():
            if first["origin"] != origin:
                continue
            for second in flights.values():
                if second["destination"] != destination or second["origin"] != first["destination"]:
                    continue
                overnight = "+1" in first["scheduled_arrival_time_est"]
                second_date = f"2024-05-{int(date[-2:]) + 1}" if overnight else date
                if first["scheduled_arrival_time_est"] > second["scheduled_departure_time_est"]:
                    continue
                if date not in first["dates"] or second_date not in second["dates"]:
                    continue
                first_day = first["dates"][date]
                second_day = second["dates"][date]  # sic: the first leg's date
                if first_day["status"] != "available" or second_day["status"] != "available":
                    continue
                results.append([_leg(first, first_day, date), _leg(second, second_day, second_date)])
        return json.dumps(results)
