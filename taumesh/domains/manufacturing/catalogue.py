"""The plant's reference data and the words its worlds are made of: parts, lines, machines, companies, names.

Parts are shared by every world (no world tag in their ids): they are the plant's catalogue, which no tool writes.
Line names are dealt out so that no two worlds share one: a planner names a line, and the desk's list of lines
spans every world's records.
"""

from __future__ import annotations

from typing import Any

_PARTS: tuple[dict[str, Any], ...] = (
    {"part_id": "pt-bracket-220", "name": "Steel mounting bracket", "unit_cost": 3.85, "unit_price": 6.4},
    {"part_id": "pt-housing-410", "name": "Die-cast pump housing", "unit_cost": 21.7, "unit_price": 34.9},
    {"part_id": "pt-shaft-115", "name": "Ground drive shaft", "unit_cost": 14.25, "unit_price": 23.5},
    {"part_id": "pt-gear-308", "name": "Hobbed spur gear", "unit_cost": 9.6, "unit_price": 15.75},
    {"part_id": "pt-panel-502", "name": "Powder-coated access panel", "unit_cost": 7.3, "unit_price": 11.9},
    {"part_id": "pt-manifold-640", "name": "Machined hydraulic manifold", "unit_cost": 48.5, "unit_price": 79.0},
    {"part_id": "pt-clip-017", "name": "Spring retaining clip", "unit_cost": 0.42, "unit_price": 0.95},
    {"part_id": "pt-flange-233", "name": "Forged weld-neck flange", "unit_cost": 18.8, "unit_price": 29.6},
)
PARTS: dict[str, dict[str, Any]] = {str(part["part_id"]): part for part in _PARTS}
LINE_NAMES = [
    "Stamping Line North", "Stamping Line South", "CNC Cell Alder", "CNC Cell Birch", "Die-Cast Line One",
    "Die-Cast Line Two", "Gear Cell Cedar", "Paint Line East", "Assembly Line Osprey", "Assembly Line Heron",
    "Forge Line Granite", "Grinding Cell Basalt",
]  # fmt: skip
MACHINE_KINDS = ["press", "CNC mill", "lathe", "robot welder", "paint booth", "grinder", "die-cast cell", "conveyor"]
COMPANIES = [
    "Brightwater Pumps", "Halvorsen Agritech", "Kettering Rail Systems", "Meridian Hydraulics", "Northway Trailers",
    "Pell & Osgood Marine", "Quarry Ridge Equipment", "Solano Wind Components", "Tamsin Medical Devices",
    "Vireo Robotics", "Westfall HVAC", "Yarrow Boilers", "Ashdown Cranes", "Corbel Elevators", "Dunmore Fluid Power",
    "Everleigh Tractors", "Fenwick Compressors", "Glenrock Mining Supply",
]  # fmt: skip
FIRST = [
    "Adaeze", "Bruno", "Carmen", "Dmitri", "Esther", "Farid", "Gwen", "Hiroshi", "Isla", "Jarrah", "Kalani",
    "Luka", "Marisol", "Nnamdi", "Oksana", "Pradeep", "Rhiannon", "Santiago", "Tove", "Umar", "Vesna", "Wilhelmina",
    "Xavier", "Yara", "Zbigniew", "Agnieszka", "Bartholomew", "Consuelo", "Desmond", "Ephraim",
]  # fmt: skip
LAST = [
    "Achterberg", "Brzezinski", "Caldwell", "Dosanjh", "Ellingsworth", "Fitzgerald", "Gustafsson", "Hakimi",
    "Iwasaki", "Jablonski", "Kariuki", "Lombardi", "Mwangi", "Nordqvist", "Oyelaran", "Petrakis", "Quigley",
    "Rautenbach", "Sandoval", "Tremblay", "Uchenna", "Valdivia", "Wojcik", "Yilmaz", "Zamora",
]  # fmt: skip
DEFECT_STORIES = {
    "cosmetic": "a scratched and discoloured coating (a cosmetic defect)",
    "dimensional": "bores that gauge out of tolerance (a dimensional defect)",
    "assembly": "missing fasteners (an assembly defect)",
    "material": "cracks in the base metal (a material defect)",
}
"""What an operator saw, naming the defect class the policy maps to a severity."""
BREAKDOWNS = [
    "started grinding loudly and tripped its overload",
    "is leaking hydraulic fluid under the base",
    "keeps faulting on its spindle drive",
    "has a jammed feed and a bent guard",
]
CANCEL_STORIES = {
    "demand_change": "your own customer cut their orders and you no longer need the parts",
    "design_change": "your engineers changed the part's design and this revision is obsolete",
    "duplicate_order": "the order was placed twice by mistake and this one is the duplicate",
}
