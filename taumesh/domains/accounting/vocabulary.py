"""The words the desk's worlds are made of: companies, people, suppliers, goods, cost centers and accounts.

Accounts and tax codes are shared by every world (no world tag in their ids): they are the group's chart and tax
table, which no tool writes.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains.accounting.clock import TAX_RATES

COMPANIES = {"w1": "Kestrel Works Ltd", "w2": "Marlowe Textiles Ltd", "w3": "Fenwick Instruments Ltd"}
"""The legal entity whose books each world holds."""

FIRST = [
    "Aurelia", "Benedikt", "Cressida", "Dmitri", "Eloise", "Florian", "Gwendolyn", "Hakon", "Isadora", "Jasper",
    "Kalinda", "Leopold", "Marisol", "Niamh", "Osric", "Perpetua", "Rafferty", "Saoirse", "Tobias", "Undine",
    "Vesna", "Wilfred", "Xanthe", "Yannick", "Zenobia", "Alaric", "Bronagh", "Casimir", "Delphina", "Evander",
]  # fmt: skip
LAST = [
    "Ashcombe", "Blackwood", "Carrow", "Dunmore", "Everleigh", "Fairweather", "Gillespie", "Holloway", "Ingleby",
    "Jessop", "Kilbride", "Lockhart", "Merriman", "Northcott", "Oakley", "Pendleton", "Quarrie", "Rowntree",
    "Stirling", "Thackeray", "Upton", "Vickery", "Wetherby", "Yardley", "Aldous", "Brackenbury", "Coverdale",
]  # fmt: skip
SUPPLIERS = [
    "Brightwater Paper Co", "Calder Valve Supplies", "Dovetail Joinery", "Emberline Packaging", "Foxglove Catering",
    "Granite Peak Freight", "Hollybank Electrical", "Ironbridge Fasteners", "Juniper Office Furniture",
    "Kingfisher Cleaning Services", "Larkspur Print Works", "Millstone Chemicals", "Nettlefield Hardware",
    "Orchard Lane Couriers", "Pebblebrook Safety Wear", "Quayside Steel Stockholders", "Rushmoor Lab Supplies",
    "Saltmarsh Software", "Thistledown Textiles", "Underwood Tooling",
]  # fmt: skip
GOODS = [
    ("copier paper, boxes of 5 reams", 18.0, 32.0), ("gate valves, 50 mm", 41.0, 96.0),
    ("oak shelving units", 120.0, 380.0), ("corrugated cartons, bundles of 25", 9.5, 24.0),
    ("staff canteen lunches", 6.5, 14.0), ("pallet deliveries", 55.0, 140.0), ("LED panel lights", 22.0, 68.0),
    ("stainless hex bolts, packs of 100", 7.0, 19.0), ("task chairs", 85.0, 260.0),
    ("floor cleaning visits", 70.0, 180.0), ("printed product leaflets, per thousand", 38.0, 90.0),
    ("isopropyl alcohol, 5 litre drums", 16.0, 44.0), ("safety gloves, packs of 12", 11.0, 27.0),
    ("steel sheet, 2 mm", 48.0, 150.0), ("pipettes, boxes of 500", 13.0, 35.0),
    ("software seats, monthly", 24.0, 75.0), ("cotton drill fabric, per roll", 60.0, 190.0),
    ("carbide drill bits", 14.0, 52.0),
]  # fmt: skip
COST_CENTERS = {
    "MKT": "Marketing",
    "OPS": "Operations",
    "RND": "Research and Development",
    "FAC": "Facilities",
    "ITS": "IT Services",
    "PPL": "People and Culture",
    "LOG": "Logistics",
}
"""Cost centers by code, each with the name its staff call it by."""
ACCOUNTS: dict[str, dict[str, Any]] = {
    code: {"code": code, "name": name, "kind": kind}
    for code, name, kind in [
        ("1100", "Trade Debtors", "asset"),
        ("1300", "Prepayments", "asset"),
        ("2100", "Trade Creditors", "liability"),
        ("2300", "Accrued Expenses", "liability"),
        ("2400", "Deferred Income", "liability"),
        ("4000", "Product Sales", "income"),
        ("6100", "Rent and Rates", "expense"),
        ("6200", "Utilities", "expense"),
        ("6300", "Professional Fees", "expense"),
        ("6400", "Repairs and Maintenance", "expense"),
        ("6500", "Travel and Subsistence", "expense"),
        ("6600", "Software Subscriptions", "expense"),
    ]
}
TAX_CODES: dict[str, dict[str, Any]] = {
    "S20": {"code": "S20", "rate": TAX_RATES["S20"], "description": "standard rate"},
    "R5": {"code": "R5", "rate": TAX_RATES["R5"], "description": "reduced rate"},
    "Z0": {"code": "Z0", "rate": TAX_RATES["Z0"], "description": "zero rate"},
}
ACCRUALS = [
    ("the quarter's electricity not yet billed", "6200", "2300"),
    ("audit fees for work done this month", "6300", "2300"),
    ("the warehouse roof repair finished but not invoiced", "6400", "2300"),
    ("rent paid ahead for next quarter", "1300", "6100"),
    ("customer deposits received ahead of delivery", "4000", "2400"),
    ("software licences used but not yet billed", "6600", "2300"),
    ("staff travel claims approved but unpaid", "6500", "2300"),
]
"""Journals accountants ask for: what the entry is for, the account debited and the account credited."""
