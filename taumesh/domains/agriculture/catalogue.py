"""The desk's reference data and the words its worlds are made of: spray products, crops, names, places.

Products are shared by every world (no world tag in their ids): they are the registered labels the desk books
against, which no tool writes.
"""

from __future__ import annotations

from typing import Any

PRODUCTS: dict[str, dict[str, Any]] = {
    "glyphosate-450": {
        "product_id": "glyphosate-450",
        "name": "Fallowmax 450",
        "kind": "herbicide",
        "label_rate_l_ha": 2.0,
        "rei_hours": 12,
        "phi_days": 14,
        "max_wind_kmh": 15,
    },
    "clopyralid-300": {
        "product_id": "clopyralid-300",
        "name": "Thistlebane 300",
        "kind": "herbicide",
        "label_rate_l_ha": 0.5,
        "rei_hours": 24,
        "phi_days": 28,
        "max_wind_kmh": 12,
    },
    "tebuconazole-430": {
        "product_id": "tebuconazole-430",
        "name": "Rustguard 430",
        "kind": "fungicide",
        "label_rate_l_ha": 0.29,
        "rei_hours": 12,
        "phi_days": 35,
        "max_wind_kmh": 18,
    },
    "azoxystrobin-250": {
        "product_id": "azoxystrobin-250",
        "name": "Leafshield 250",
        "kind": "fungicide",
        "label_rate_l_ha": 0.8,
        "rei_hours": 4,
        "phi_days": 21,
        "max_wind_kmh": 20,
    },
    "chlorpyrifos-500": {
        "product_id": "chlorpyrifos-500",
        "name": "Grubstop 500",
        "kind": "insecticide",
        "label_rate_l_ha": 0.7,
        "rei_hours": 48,
        "phi_days": 21,
        "max_wind_kmh": 10,
    },
    "alpha-cypermethrin-100": {
        "product_id": "alpha-cypermethrin-100",
        "name": "Aphidex 100",
        "kind": "insecticide",
        "label_rate_l_ha": 0.3,
        "rei_hours": 24,
        "phi_days": 14,
        "max_wind_kmh": 14,
    },
    "paraquat-250": {
        "product_id": "paraquat-250",
        "name": "Knockdown 250",
        "kind": "herbicide",
        "label_rate_l_ha": 1.6,
        "rei_hours": 72,
        "phi_days": 7,
        "max_wind_kmh": 10,
    },
}

CROP_FAMILY: dict[str, str] = {
    "wheat": "cereal",
    "barley": "cereal",
    "oats": "cereal",
    "canola": "brassica",
    "mustard": "brassica",
    "lentils": "legume",
    "field peas": "legume",
    "chickpeas": "legume",
    "faba beans": "legume",
}
"""Each crop's family: the rotation rule (policy 11.2) forbids a crop of the family a field last grew."""
BASE_YIELD_T_HA: dict[str, float] = {
    "wheat": 3.4,
    "barley": 3.8,
    "oats": 2.9,
    "canola": 1.7,
    "mustard": 1.2,
    "lentils": 1.5,
    "field peas": 2.0,
    "chickpeas": 1.6,
    "faba beans": 2.6,
}
"""A typical yield of each crop, which a season's record varies around."""
SOIL_REFILL_PCT: dict[str, float] = {"clay loam": 31.0, "loam": 25.0, "sandy loam": 18.0, "sand": 12.0}
"""Each soil's refill point: the volumetric moisture below which a field may be irrigated (policy 8.3)."""

FIRST = [
    "Aroha", "Bram", "Colleen", "Dmitri", "Esi", "Fergus", "Gulnara", "Hamish", "Ines", "Jarrah",
    "Kalani", "Lucía", "Mato", "Noor", "Oisín", "Priya", "Quentin", "Rangi", "Saoirse", "Tavita",
    "Ulla", "Vikram", "Wren", "Xiomara", "Yusuf", "Zofia", "Anselm", "Bettina", "Cormac", "Delphine",
]  # fmt: skip
LAST = [
    "Ashworth", "Bellamy", "Carrick", "Dunmore", "Ellery", "Fairbairn", "Galloway", "Hollins", "Iredale",
    "Jessop", "Kettering", "Lockhart", "Maitland", "Norcott", "Ormsby", "Pennycook", "Quarrie", "Rushton",
    "Stainforth", "Tolland", "Urquhart", "Verity", "Whitlock", "Yardley",
]  # fmt: skip
FARM_WORDS = [
    "Bluegum", "Saltbush", "Ironbark", "Wattle Creek", "Red Hill", "Stony Rise", "Mallee View", "Clearwater",
    "Boxwood", "Larkspur", "Millbrook", "Quandong", "Sheoak", "Tamarind", "Yarrow Bend", "Kestrel Flat",
    "Glenmire", "Coolabah", "Brindle Downs", "Harrow Glen", "Emu Springs", "Pepper Ridge", "Windy Gap",
    "Oakleigh", "Sandy Hollow", "Tallowwood",
]  # fmt: skip
FARM_KINDS = ["Farm", "Station", "Downs", "Estate", "Holdings"]
FIELD_NAMES = [
    "North Paddock", "River Flat", "Top Block", "Home Block", "Windmill Paddock", "Creek Block",
    "Dam Paddock", "Back Forty", "Shearing Shed Block", "Boundary Paddock",
]  # fmt: skip
DISTRICTS = [
    "Murrumbine", "Kallara Plains", "Tooloom Valley", "Beckett Downs", "Wirraway Creek", "Ondine Flats",
    "Carrabeen", "Hollis Gully", "Yandoit",
]  # fmt: skip
