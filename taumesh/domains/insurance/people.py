"""Names, places and things the world generator draws from: its own lists, so worlds read like a real book."""

from __future__ import annotations

FIRST_NAMES = [
    "Alma", "Bruno", "Celia", "Dario", "Elena", "Fabian", "Greta", "Hector", "Ines", "Jonas", "Kira", "Leon",
    "Marta", "Nico", "Olga", "Pablo", "Quinn", "Rosa", "Stefan", "Tamsin", "Ulric", "Vera", "Wendell", "Xenia",
    "Yusuf", "Zora", "Amos", "Bettina", "Cyrus", "Delphine", "Emil", "Freya", "Gideon", "Hilde", "Ivo", "Juno",
    "Kasimir", "Lorna", "Matteo", "Nadia", "Otis", "Priya", "Rafael", "Saoirse", "Tobias", "Uma", "Viggo",
]  # fmt: skip
LAST_NAMES = [
    "Abernathy", "Bergstrom", "Castellano", "Dufresne", "Eriksen", "Fairweather", "Galloway", "Halvorsen",
    "Ibarra", "Jablonski", "Kowalczyk", "Lindqvist", "Marchetti", "Nakamura", "Okonkwo", "Pemberton", "Quintero",
    "Rasmussen", "Szabo", "Thornbury", "Underhill", "Valdivia", "Whitcombe", "Yamamoto", "Zielinski", "Achterberg",
    "Blackwood", "Cordero", "Delacroix", "Esposito", "Fenwick", "Grimaldi", "Hollister", "Ivanova", "Kerrigan",
]  # fmt: skip
STREETS = [
    "Alder Lane", "Birch Court", "Cedar Row", "Dockside Way", "Elm Terrace", "Fernhill Road", "Garnet Street",
    "Harbor View", "Iris Avenue", "Juniper Walk", "Kestrel Drive", "Linden Place", "Marsh Road", "North Quay",
]  # fmt: skip
CARS = [
    "Honda Civic", "Toyota Corolla", "Subaru Outback", "Ford Escape", "Mazda CX-5", "Hyundai Elantra",
    "Kia Niro", "Volkswagen Golf", "Chevrolet Bolt", "Nissan Leaf", "Volvo XC40", "Tesla Model 3",
]  # fmt: skip
PETS = [
    ("dog", "Biscuit"), ("dog", "Pepper"), ("cat", "Mochi"), ("dog", "Juniper"), ("cat", "Tofu"), ("dog", "Rufus"),
    ("cat", "Saffron"), ("dog", "Otto"), ("cat", "Nutmeg"), ("dog", "Waffles"), ("cat", "Clementine"),
]  # fmt: skip
OTHER_PHOTOS = [
    "a grocery receipt",
    "a parking ticket",
    "a birthday cake",
    "a screenshot of a bus timetable",
    "a concert ticket",
    "a sunset over the harbor",
]
"""Photos on a phone that are no claim's document."""
CAPTIONS = {
    "police_report": "police report no. {n} about the incident of {date}",
    "proof_of_ownership": "purchase receipt for the stolen items, dated {date}",
    "repair_estimate": "body shop repair estimate no. {n}",
    "photos_of_damage": "photo of the damage taken on {date}",
    "repair_invoice": "glass repair invoice no. {n}",
    "plumber_report": "plumber's report no. {n} on the leak",
    "vet_invoice": "veterinary clinic invoice no. {n}",
    "vet_records": "veterinary records for the visit of {date}",
}
"""How each document's photo is captioned on the phone."""
