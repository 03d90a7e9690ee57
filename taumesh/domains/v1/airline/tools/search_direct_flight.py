"""``search_direct_flight``: available direct flights between two airports on a date."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Tool


class SearchDirectFlight(Tool):
    name = "search_direct_flight"

    @staticmethod
    def invoke(data: Data, origin: str, destination: str, date: str) -> str:
        results: list[dict[str, Any]] = []
        for flight in data["flights"].values():
            if flight["origin"] != origin or flight["destination"] != destination:
                continue
            day = flight["dates"].get(date)
            if day is None or day["status"] != "available":
                continue
            result = {key: value for key, value in flight.items() if key != "dates"}
            result.update(day)
            results.append(result)
        return json.dumps(results)
