"""The words the desk's worlds are made of: data sets, teams, people and passphrase words.

Data set names are dealt out so that no two worlds share one: a requester names the data set they mean, and the
catalogue lists every world's data sets.
"""

from __future__ import annotations

DATASETS = [
    ("Loyalty card customers", "Card holders of the loyalty scheme with their visits and spend this quarter"),
    ("Spring promotion responders", "Customers who answered the spring promotion, with their basket spend"),
    ("Garden centre shoppers", "Shoppers of the garden centre range, by channel and region"),
    ("Subscription box members", "Members of the monthly subscription box, with their tenure"),
    ("Pharmacy counter patients", "Customers of the pharmacy counters, with visits and spend"),
    ("Premium credit holders", "Holders of the store credit card, with spend and tenure"),
    ("Home delivery customers", "Customers who use home delivery, by region"),
    ("Student discount members", "Members of the student discount scheme"),
    ("Bakery counter regulars", "Regular buyers at the bakery counters"),
    ("Electronics warranty buyers", "Buyers of an extended electronics warranty"),
    ("Wine club members", "Members of the wine club, with their tenure and spend"),
    ("Fuel station visitors", "Customers of the fuel stations who hold a loyalty card"),
    ("Click and collect users", "Customers who order online and collect in store"),
    ("Baby club parents", "Parents enrolled in the baby club"),
    ("Optician clients", "Clients of the in-store opticians"),
    ("Pet insurance holders", "Holders of the pet insurance product"),
    ("Travel money buyers", "Buyers of travel money, by channel"),
    ("Gift card purchasers", "Purchasers of gift cards over the last season"),
]
TEAMS = ["Pricing", "Marketing analytics", "Supply chain", "Customer insight", "Finance planning", "Store operations"]
FIRST = [
    "Adaeze", "Bram", "Caoimhe", "Dario", "Elif", "Fintan", "Gulnara", "Hamish", "Isolde", "Jarrah", "Keziah",
    "Leopold", "Marisol", "Nnamdi", "Oksana", "Piers", "Rukmini", "Sigrun", "Tobiah", "Una", "Vikram", "Wilhelmina",
    "Xavier", "Yara",
]  # fmt: skip
LAST = [
    "Achterberg", "Blomqvist", "Chaudhry", "Drummond", "Esposito", "Fairweather", "Gallagher", "Haddad", "Ibarra",
    "Jankowski", "Kaplan", "Lockhart", "Moreau", "Nyberg", "Okonkwo", "Prendergast", "Quigley", "Rautio", "Sorensen",
    "Tamura", "Underhill", "Valdivia", "Winterbottom", "Zielinski",
]  # fmt: skip
WORDS = [
    "acorn", "bramble", "canyon", "dahlia", "estuary", "falcon", "glacier", "heather", "iris", "jasper", "kestrel",
    "larch", "marble", "nettle", "oakmoss", "puffin", "quince", "rowan", "sorrel", "thistle", "upland", "vervain",
    "wren", "yarrow",
]  # fmt: skip
"""What passphrases are made of: two words joined by a dot."""
