"""The words the desk's worlds are made of: the teams, the sites and their sections, the forms, people's names.

Team and site names are dealt out so that no two worlds share one: a member names their site by its host, and the
desk's lists span every world's records.
"""

from __future__ import annotations

TEAMS = [
    "Pricing Intelligence", "Vendor Onboarding", "Market Research", "Procurement Ops", "Growth Analytics",
    "Partner Success", "Catalogue Quality", "Events Desk", "Competitive Insights",
]  # fmt: skip
SITES = [
    ("kettlebrook-supply.example", "Kettlebrook Supply"), ("marrowfield-tools.example", "Marrowfield Tools"),
    ("oakhurst-paper.example", "Oakhurst Paper Co"), ("pennywhistle-labs.example", "Pennywhistle Labs"),
    ("quillstone-office.example", "Quillstone Office"), ("rookery-electric.example", "Rookery Electric"),
    ("saltmarsh-foods.example", "Saltmarsh Foods"), ("thistledown-textiles.example", "Thistledown Textiles"),
    ("umberfell-hardware.example", "Umberfell Hardware"), ("vantage-bikes.example", "Vantage Bikes"),
    ("willowmere-garden.example", "Willowmere Garden"), ("yarrowby-pharmacy.example", "Yarrowby Pharmacy"),
    ("zephyrine-audio.example", "Zephyrine Audio"), ("ashcombe-books.example", "Ashcombe Books"),
    ("brindle-ceramics.example", "Brindle Ceramics"), ("copperleaf-kitchens.example", "Copperleaf Kitchens"),
    ("dovecote-crafts.example", "Dovecote Crafts"), ("elderwick-optics.example", "Elderwick Optics"),
    ("fernhollow-pets.example", "Fernhollow Pets"), ("glimmerdale-lighting.example", "Glimmerdale Lighting"),
    ("heronsgate-outdoor.example", "Heronsgate Outdoor"), ("ivybridge-games.example", "Ivybridge Games"),
    ("juniper-wharf.example", "Juniper Wharf Traders"), ("larkspur-cycles.example", "Larkspur Cycles"),
]  # fmt: skip
PUBLIC_SECTIONS = ["/catalog", "/deals", "/outlet", "/clearance", "/new-arrivals", "/bulk"]
"""Sections whose pages any client may fetch; each site has two of them."""
BLOCKED_SECTIONS = ["/wholesale", "/partners", "/trade-prices", "/staging"]
"""Sections a site's robots rules keep automated clients out of; each site has one."""
ACCOUNT_SECTION = "/account"
DIRECTORY_SECTION = "/contacts"
PRODUCTS = [
    "cordless drill", "desk lamp", "storage crate", "steel ruler", "label printer", "cable reel", "office chair",
    "tool belt", "paper ream", "water filter", "bike pump", "gift box", "spice rack", "tea kettle", "toner pack",
    "wall clock", "floor mat", "camp stove", "drawer unit", "bench vice", "headphones", "monitor arm", "safety gloves",
    "shelf bracket", "measuring tape", "coffee grinder", "cutting board", "work lamp", "padlock", "extension lead",
]  # fmt: skip
ACCOUNT_PAGES = [("/account/orders", "Your orders"), ("/account/invoices", "Your invoices")]
FORMS = [
    ("/forms/bulk-quote", "Bulk quote request"), ("/forms/samples", "Sample request"),
    ("/forms/trade-show", "Trade show seat booking"), ("/forms/catalogue", "Printed catalogue order"),
]  # fmt: skip
FIRST = [
    "Anouk", "Bertram", "Celeste", "Dmitri", "Esme", "Fintan", "Gwendolyn", "Hamid", "Ines", "Jasper", "Kalinda",
    "Lucan", "Marisol", "Nikhil", "Odette", "Piers", "Rosalind", "Soren", "Tamsin", "Ulrich",
]  # fmt: skip
LAST = [
    "Abernathy", "Bellweather", "Castellano", "Drummond", "Eckhart", "Fairbairn", "Galloway", "Hargreaves", "Ishikawa",
    "Jablonski", "Kowalczyk", "Lindqvist", "Mbeki", "Nakashima", "Oyelaran", "Pemberton", "Quintero", "Rasmussen",
]  # fmt: skip
WORDS = [
    "amber", "birch", "cobalt", "delta", "ember", "fjord", "granite", "harbor", "indigo", "juniper", "kestrel",
    "lantern", "meadow", "nimbus", "orchid", "pewter", "quartz", "russet", "saffron", "tundra", "umber", "velvet",
]  # fmt: skip
