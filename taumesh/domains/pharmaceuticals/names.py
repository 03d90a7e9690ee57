"""What the world builder draws from: people's names, site cities, study medicines and adverse-event terms."""

from __future__ import annotations

FIRST = [
    "Amaru", "Beatriz", "Cormac", "Delphine", "Emeka", "Farida", "Goran", "Hollis", "Ines", "Jovan",
    "Kalinda", "Leopold", "Mireille", "Nnamdi", "Orla", "Priya", "Quentin", "Rosalind", "Soren", "Tamsin",
    "Umberto", "Valeska", "Wendell", "Ximena", "Yusuf", "Zelda", "Anouk", "Bastien", "Cressida", "Dorian",
]  # fmt: skip
LAST = [
    "Abernathy", "Bergstrom", "Castellanos", "Dvorak", "Eriksen", "Fairweather", "Grimaldi", "Hollingsworth",
    "Iwasaki", "Jablonski", "Kowalczyk", "Lindqvist", "Mbeki", "Novak", "Okonkwo", "Pemberton", "Rautenbach",
    "Sandoval", "Thistlewood", "Uchida", "Vasquez", "Whitlock", "Zielinski", "Achterberg", "Blackwood",
]  # fmt: skip
CITIES = ["Leiden", "Porto", "Ghent", "Aarhus", "Brno", "Tartu", "Graz", "Turku", "Lyon", "Bologna", "Bergen", "Cork"]
MEDICINES = ["velnorastat", "tirabepron", "qualimumab", "ostradine", "feluvirex", "kembrazole"]
"""Invented investigational medicines: a study tests one against placebo at two doses."""
INDICATIONS = [
    "chronic kidney disease",
    "moderate plaque psoriasis",
    "treatment-resistant hypertension",
    "early rheumatoid arthritis",
    "type 2 diabetes with obesity",
    "persistent atrial fibrillation",
]
VISITS = ["screening", "baseline", "week 4", "week 8", "week 12", "week 24"]
"""Every study's visits, in order; each after baseline falls four or more weeks after the one before."""
EVENTS = [
    "headache",
    "nausea",
    "dizziness",
    "rash",
    "fatigue",
    "injection site swelling",
    "pneumonia",
    "fainting episode",
    "chest pain",
    "gastrointestinal bleeding",
    "elevated liver enzymes",
    "urinary tract infection",
]
WORDS = ["amber", "cobalt", "fennel", "harbor", "juniper", "lumen", "meadow", "nimbus", "orchid", "pebble", "quartz"]
"""Passcode words: a caller's desk passcode is two of them and a number."""
