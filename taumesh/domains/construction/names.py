"""What the world builder draws from: people's names, streets, project kinds, trades and their scopes."""

from __future__ import annotations

FIRST = [
    "Adaeze", "Bjorn", "Consuelo", "Declan", "Esther", "Florin", "Gwen", "Hamish", "Imani", "Jasper",
    "Katya", "Lorcan", "Marisol", "Niall", "Odette", "Pavel", "Rhiannon", "Santiago", "Thea", "Ulrich",
    "Vesna", "Wilhelmina", "Xavier", "Yara", "Zoltan", "Aurelio", "Brigid", "Caspian", "Dagny", "Eamon",
]  # fmt: skip
LAST = [
    "Ashworth", "Borowski", "Carrington", "Dunleavy", "Ekwueme", "Fitzgerald", "Gutierrez", "Halvorsen",
    "Idowu", "Jaramillo", "Kettering", "Larkspur", "Moreau", "Nyberg", "Oyelaran", "Prescott", "Quintero",
    "Radcliffe", "Szabo", "Tolliver", "Underhill", "Villanueva", "Wexford", "Yilmaz", "Zamora", "Beaumont",
]  # fmt: skip
STREETS = ["Quarry Road", "Millrace Lane", "Foundry Street", "Tannery Way", "Kiln Avenue", "Weir Close", "Slate Row"]
PROJECT_KINDS = [
    "medical office building",
    "primary school extension",
    "mixed-use block",
    "library refurbishment",
    "warehouse fit-out",
    "apartment building",
    "community pool hall",
    "fire station",
]
MILESTONES = ["foundations complete", "structure topped out", "building enclosed", "services installed", "handover"]
"""Every project's milestones, in order; the last falls on or before the contract completion date."""
TRADES: dict[str, str] = {
    "excavation": "Groundworks",
    "concrete": "Pourform",
    "framing": "Trueline Framing",
    "steel_erection": "Girderworks",
    "roofing": "Capstone Roofing",
    "demolition": "Clearcut Demolition",
    "electrical": "Voltline Electrical",
    "plumbing": "Wetwall Plumbing",
    "hvac": "Airflow Mechanical",
    "glazing": "Clearpane Glazing",
    "drywall": "Boardsmith Interiors",
    "painting": "Finecoat Painters",
}
"""Trade -> the stem of its company's name (each world has one company per trade)."""
CHANGE_ORDERS = [
    "relocate the plant room door",
    "upgrade lobby flooring to terrazzo",
    "add a second accessible restroom",
    "extra rock excavation at the north footing",
    "replace specified windows with triple glazing",
    "add rooftop solar conduit",
    "reinforce slab for archive shelving",
    "add an EV charging circuit",
]
WORDS = ["granite", "plumb", "rebar", "joist", "mortar", "lintel", "gable", "trowel", "ashlar", "corbel", "soffit"]
"""Passphrase words: a caller's passphrase is two of them and a number."""
