"""The words the world builder draws from: names, hotels, faults, complaints and what guests buy during a stay."""

from __future__ import annotations

FIRST = [
    "Amara", "Bastian", "Celia", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonah", "Keiko", "Lionel",
    "Maren", "Nikhil", "Odette", "Pavel", "Quinn", "Rosalind", "Soren", "Talia", "Umberto", "Vesna", "Wendell",
    "Xiomara", "Yusuf", "Zelda", "Anouk", "Bram", "Carys", "Declan",
]  # fmt: skip
LAST = [
    "Achterberg", "Bellamy", "Castellanos", "Dunmore", "Eriksen", "Fairweather", "Galloway", "Hollis", "Iverson",
    "Jankowski", "Kettering", "Lindqvist", "Moreau", "Nakashima", "Okonkwo", "Pemberton", "Quintero", "Rasmussen",
    "Sandoval", "Thackeray", "Underhill", "Valdivia", "Whitlock", "Yamaguchi", "Zielinski", "Abernathy", "Blackwood",
]  # fmt: skip
HOTELS = [
    ("Harbourlight Hotel", "Portsmouth"),
    ("The Juniper Grand", "Denver"),
    ("Saltmarsh Inn", "Charleston"),
    ("Copperleaf Suites", "Tucson"),
    ("The Meridian Quay", "Baltimore"),
    ("Larkspur House", "Asheville"),
]
"""Two per world, in world order."""
ROOM_FAULTS = [
    "air conditioning not cooling",
    "shower drains slowly",
    "door lock sticks",
    "television has no signal",
    "heater rattles at night",
    "window does not close fully",
]
COMPLAINTS = {
    "minor": ["slow room service", "missing toiletries", "noisy ice machine in the corridor", "late turndown service"],
    "major": ["no hot water for the whole night", "room not cleaned for two days", "construction noise all night"],
    "safety": ["a smoke detector chirping and failing its test", "a loose balcony railing"],
}
"""Topics of the complaints guests log, by the severity the duty manager gave them."""
CHARGES = {
    "minibar": (["Minibar: snacks and drinks", "Minibar: wine"], 12, 64),
    "room_service": (["Room service: dinner", "Room service: breakfast"], 26, 118),
    "parking": (["Valet parking"], 38, 38),
    "spa": (["Spa: massage", "Spa: facial"], 85, 190),
    "laundry": (["Laundry and pressing"], 18, 56),
    "restaurant": (["Restaurant: dinner", "Bar tab"], 34, 142),
}
"""Each category's descriptions and its lowest and highest amount, in dollars."""
PERSONAS = [
    "You are polite and answer the agent's questions briefly.",
    "You are in a hurry and want this done quickly.",
    "You are a little tired after travelling but friendly.",
    "You are precise and like the agent to confirm details back to you.",
    "You are cheerful and chatty.",
    "You are calm and patient.",
]
