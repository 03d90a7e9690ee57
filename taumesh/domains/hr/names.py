"""Reference data the world builder draws from: names, streets, departments and their roles, pay grades."""

from __future__ import annotations

FIRST = [
    "Amara", "Bastian", "Carmen", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonah",
    "Kalani", "Leopold", "Mireille", "Nnamdi", "Oksana", "Priya", "Quentin", "Rosalind", "Soren", "Tamsin",
    "Umar", "Valeria", "Wendell", "Ximena", "Yusuf", "Zofia", "Anselm", "Beatrix", "Cosmin", "Delphine",
    "Emeka", "Fenna", "Gideon", "Halima", "Ivo", "Jolene", "Kasimir", "Lucia", "Matteo", "Noor",
]  # fmt: skip
LAST = [
    "Abernathy", "Balogun", "Castellanos", "Drummond", "Eriksen", "Fairbanks", "Gallagher", "Haddad", "Iwata",
    "Jankowski", "Kowalczyk", "Lindqvist", "Mbeki", "Nakashima", "Okonkwo", "Pellegrini", "Quarshie", "Rasmussen",
    "Sandoval", "Thorne", "Urquhart", "Vasquez", "Whitlock", "Yamamoto", "Zeller", "Achterberg", "Brennan",
    "Cho", "Delacroix", "Esposito", "Ferreira", "Grunewald", "Holloway", "Ibarra", "Jovanovic", "Kruger",
]  # fmt: skip
STREETS = ["Alder Way", "Birch Lane", "Canal Street", "Dunmore Road", "Elm Court", "Foundry Row", "Gable Avenue"]
CITIES = ["Riverton", "Lakeside", "Millbrook", "Ashford", "Northgate"]
RELATIONS = ["spouse", "partner", "mother", "father", "sister", "brother"]

PAY_GRADES = {
    "G1": ("Associate", 32_000, 42_000),
    "G2": ("Specialist", 38_000, 52_000),
    "G3": ("Professional", 48_000, 68_000),
    "G4": ("Senior professional", 65_000, 98_000),
    "G5": ("Manager", 85_000, 125_000),
}
"""Grade -> (label, band minimum, band maximum): shared by every world."""
MANAGER_GRADE = "G5"

DEPARTMENTS: list[tuple[str, bool, dict[str, str]]] = [
    ("Warehouse Operations", True, {"picker": "G1", "forklift operator": "G2", "shift lead": "G3"}),
    ("Customer Care", True, {"support agent": "G1", "senior support agent": "G2"}),
    ("Facilities", True, {"security officer": "G1", "maintenance technician": "G2"}),
    ("Engineering", False, {"software engineer": "G4", "QA analyst": "G3"}),
    ("Finance", False, {"accountant": "G3", "payroll specialist": "G3"}),
    ("Sales", False, {"account executive": "G3", "sales coordinator": "G2"}),
]
"""Name, whether it works in shifts, and its roles with their pay grades (its manager is grade G5)."""
BLACKOUT_REASONS = {
    "Warehouse Operations": "spring stock count",
    "Customer Care": "product launch support",
    "Facilities": "building systems inspection",
    "Engineering": "release freeze",
    "Finance": "quarter-end close",
    "Sales": "quarter-end push",
}

ONBOARDING_ITEMS: list[tuple[str, str]] = [
    ("Employee handbook acknowledgement", "signature"),
    ("Tax withholding form", "signature"),
    ("Direct deposit authorization", "signature"),
    ("Work eligibility document check", "in_person"),
    ("Security awareness training", "training"),
]
"""Every new hire's checklist: the item's name and kind (a form item has a form of the same title)."""
