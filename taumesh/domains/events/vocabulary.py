"""The words the world builder draws from: people, companies, cities, venues, event titles, talks. Invented here."""

from __future__ import annotations

FIRST_NAMES = [
    "Amara", "Bjorn", "Celia", "Dmitri", "Esme", "Farid", "Greta", "Hiro", "Ines", "Jonah", "Kalani", "Lorcan",
    "Mirela", "Nnamdi", "Odette", "Pavel", "Quinn", "Rosalind", "Sanjay", "Tamsin", "Ulla", "Vikram", "Wren",
    "Xiomara", "Yusuf", "Zofia", "Anselm", "Bronte", "Cosmo", "Delphine", "Emrys", "Fenella", "Gideon", "Hollis",
]  # fmt: skip
LAST_NAMES = [
    "Abernathy", "Bergstrom", "Castellano", "Dunmore", "Ekwueme", "Fairweather", "Goldfinch", "Halvorsen", "Ishikawa",
    "Jablonski", "Kowalczyk", "Lindqvist", "Marchetti", "Nakagawa", "Oyelaran", "Pemberton", "Quesada", "Rasmussen",
    "Szabo", "Thackeray", "Umarov", "Vasquez", "Whitlock", "Yilmaz", "Zamora", "Achterberg", "Blackwood", "Carrow",
]  # fmt: skip
COMPANIES = [
    "Lanternfish Live", "Northgate Conferences", "Bright Harbour Promotions", "Copperline Arts", "Tidewater Summits",
    "Quarry Lane Productions", "Saltmarsh Festivals", "Open Circuit Events", "Meridian Stageworks",
]  # fmt: skip
CITIES = [
    "Port Avery", "Larkfield", "Easthaven", "Millbrook Quay", "Saltcombe", "Fenwick Cross", "Greyhollow", "Ashby Reach",
    "Northwold",
]  # fmt: skip
"""Three per world: each world is its own region, so a search by city never finds another world's venues."""
VENUE_NAMES = [
    "The Ropeworks", "Granary Hall", "Lighthouse Pavilion", "Old Customs House", "Marlow Arena", "Kestrel Theatre",
    "Tannery Yard", "Observatory Rooms", "Signal Box Studios", "Wharfside Forum", "Cinder Hall", "Orchard Exchange",
]  # fmt: skip
TITLES = {
    "concert": ["Midnight Orchestra", "The Velvet Tides", "Brass & Ember", "Nocturne for Strings", "Paper Satellites"],
    "theatre": ["The Glass Lighthouse", "A Winter's Ledger", "Salt and Sorrow", "The Cartographer's Daughter"],
    "festival": ["Harbour Lights Festival", "Lantern Street Fair", "Riverbank Folk Weekend", "Summer Kite Festival"],
    "conference": ["DataHarbour Summit", "Civic Tech Forum", "Green Logistics Expo", "Applied Robotics Day"],
}
SPEAKERS = [
    "Dr. Ottilie Varga", "Marcus Feldhaus", "Priya Anand", "Tobias Rennick", "Leontyne Osei", "Haruki Sato",
    "Beatrix Lund", "Cormac Delaney", "Nadia Petrescu", "Elias Brandt", "Soraya Haddad", "Gwen Talbot",
]  # fmt: skip
SESSION_TITLES = [
    "Hands-on: Building Event Pipelines", "Designing for Low Bandwidth", "Workshop: Mapping Supply Chains",
    "Robots on the Warehouse Floor", "Open Data for Cities", "Workshop: Privacy by Design", "Measuring Carbon at Scale",
    "Sensor Fusion in Practice", "Workshop: Prototyping with Microcontrollers", "Procurement that Works",
    "Accessible Services from Day One", "Workshop: Forecasting Demand",
]  # fmt: skip
POSTCODE_LETTERS = "ABDEFGHJLNPRSTUWXY"
