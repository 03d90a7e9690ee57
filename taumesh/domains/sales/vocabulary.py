"""The words the world is made of: people's names, company names, industries, titles, territories and products."""

from __future__ import annotations

from typing import Any

FIRST = [
    "Amara", "Bastian", "Celine", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonah", "Kalani", "Lorenzo",
    "Maeve", "Nikhil", "Odette", "Pavel", "Quinn", "Rosalind", "Soren", "Tamsin", "Ulla", "Viktor", "Wren", "Ximena",
    "Yusuf", "Zora", "Anouk", "Bram", "Carys", "Desmond", "Esme", "Florian", "Gideon", "Hanne", "Ivo", "Jorunn",
]  # fmt: skip
LAST = [
    "Abernathy", "Brennan", "Castellanos", "Dufresne", "Eklund", "Fairweather", "Galloway", "Hargrove", "Iwasaki",
    "Jablonski", "Kowalczyk", "Lindqvist", "Marchetti", "Nakamura", "Okonkwo", "Pettersen", "Quintero", "Rasmussen",
    "Sandoval", "Thorburn", "Uchida", "Vasquez", "Whitlock", "Yamamoto", "Zielinski", "Achterberg", "Bellamy",
    "Crowther", "Delacroix", "Ellery", "Fontaine", "Gutierrez", "Holloway", "Ivanova", "Jessop", "Kingsley",
]  # fmt: skip
COMPANY_HEAD = [
    "Alder", "Basalt", "Cobalt", "Driftwood", "Ember", "Fjord", "Granite", "Harbor", "Indigo", "Juniper", "Kestrel",
    "Lantern", "Meridian", "Northwind", "Obsidian", "Pinecrest", "Quarry", "Redwood", "Saltmarsh", "Tidewater",
    "Umber", "Verdant", "Willow", "Yarrow",
]  # fmt: skip
COMPANY_TAIL = [
    "Logistics", "Foods", "Health Partners", "Manufacturing", "Analytics", "Outfitters", "Energy", "Biotech",
    "Freight", "Hospitality Group", "Robotics", "Textiles", "Credit Union", "Media", "Labs", "Builders",
]  # fmt: skip
INDUSTRIES = ["logistics", "retail", "healthcare", "manufacturing", "financial services", "media", "energy", "software"]
TITLES = {
    "decision_maker": ["Chief Operating Officer", "VP of Operations", "Head of Procurement", "Chief Revenue Officer"],
    "champion": ["Sales Operations Manager", "Director of Revenue Operations", "CRM Administrator"],
    "influencer": ["IT Architect", "Finance Business Partner", "Security Lead"],
    "end_user": ["Account Manager", "Sales Analyst", "Customer Success Lead"],
}
TERRITORIES = ["East", "Central", "West"]
REGION_DOMAINS = {"w1": "us", "w2": "eu", "w3": "apac"}
"""The sales organisation's email subdomain of each world (``first.last@us.northpeak.example``)."""
PRODUCTS: list[dict[str, Any]] = [
    {
        "product_id": "sku-pipeline-core",
        "name": "Pipeline Core",
        "family": "platform",
        "list_price": 540.0,
        "unit": "seat",
        "volume_breaks": [{"min_quantity": 50, "percent_off": 4}, {"min_quantity": 200, "percent_off": 9}],
    },
    {
        "product_id": "sku-insight-analytics",
        "name": "Insight Analytics",
        "family": "add-on",
        "list_price": 264.0,
        "unit": "seat",
        "volume_breaks": [{"min_quantity": 100, "percent_off": 6}],
    },
    {
        "product_id": "sku-quote-studio",
        "name": "Quote Studio",
        "family": "add-on",
        "list_price": 395.0,
        "unit": "seat",
        "volume_breaks": [{"min_quantity": 40, "percent_off": 5}, {"min_quantity": 150, "percent_off": 11}],
    },
    {
        "product_id": "sku-integration-hub",
        "name": "Integration Hub",
        "family": "platform",
        "list_price": 11800.0,
        "unit": "instance",
        "volume_breaks": [{"min_quantity": 3, "percent_off": 8}],
    },
    {
        "product_id": "sku-onboarding-days",
        "name": "Onboarding Services",
        "family": "services",
        "list_price": 1650.0,
        "unit": "day",
        "volume_breaks": [{"min_quantity": 10, "percent_off": 7}],
    },
    {
        "product_id": "sku-premier-support",
        "name": "Premier Support",
        "family": "services",
        "list_price": 118.0,
        "unit": "seat",
        "volume_breaks": [{"min_quantity": 100, "percent_off": 10}],
    },
]
QUANTITIES = {"seat": [15, 35, 60, 120, 240], "instance": [1, 2, 4], "day": [4, 8, 12]}
"""The quantities a quote line takes, by the product's unit (some reach a volume break, some do not)."""
