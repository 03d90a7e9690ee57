"""``list_all_airports``: the fixed table of IATA codes and their cities."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool

_AIRPORTS: dict[str, str] = {
    "SFO": "San Francisco",
    "JFK": "New York",
    "LAX": "Los Angeles",
    "ORD": "Chicago",
    "DFW": "Dallas",
    "DEN": "Denver",
    "SEA": "Seattle",
    "ATL": "Atlanta",
    "MIA": "Miami",
    "BOS": "Boston",
    "PHX": "Phoenix",
    "IAH": "Houston",
    "LAS": "Las Vegas",
    "MCO": "Orlando",
    "EWR": "Newark",
    "CLT": "Charlotte",
    "MSP": "Minneapolis",
    "DTW": "Detroit",
    "PHL": "Philadelphia",
    "LGA": "LaGuardia",
}


class ListAllAirports(Tool):
    name = "list_all_airports"

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_AIRPORTS)
