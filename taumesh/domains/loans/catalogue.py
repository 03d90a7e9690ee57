"""The lender's reference data and the words its worlds are made of: products, names, employers, banks.

Products are shared by every world (no world tag in their ids): they are the lender's catalogue, which no tool
writes.
"""

from __future__ import annotations

from typing import Any

PRODUCTS: dict[str, dict[str, Any]] = {
    "auto": {
        "product_id": "auto",
        "name": "Auto Loan",
        "min_amount": 5000,
        "max_amount": 60000,
        "terms_months": [36, 48, 60, 72],
        "min_credit_score": 600,
        "max_debt_to_income": 0.45,
        "apr_by_tier": {"A": 5.49, "B": 6.99, "C": 9.49, "D": 13.99},
    },
    "personal": {
        "product_id": "personal",
        "name": "Personal Loan",
        "min_amount": 2000,
        "max_amount": 40000,
        "terms_months": [24, 36, 48, 60],
        "min_credit_score": 640,
        "max_debt_to_income": 0.4,
        "apr_by_tier": {"A": 8.99, "B": 11.49, "C": 15.99},
    },
    "home_improvement": {
        "product_id": "home_improvement",
        "name": "Home Improvement Loan",
        "min_amount": 5000,
        "max_amount": 75000,
        "terms_months": [60, 84, 120],
        "min_credit_score": 680,
        "max_debt_to_income": 0.43,
        "apr_by_tier": {"A": 7.25, "B": 8.75, "C": 11.25},
    },
    "debt_consolidation": {
        "product_id": "debt_consolidation",
        "name": "Debt Consolidation Loan",
        "min_amount": 5000,
        "max_amount": 50000,
        "terms_months": [36, 48, 60],
        "min_credit_score": 620,
        "max_debt_to_income": 0.45,
        "apr_by_tier": {"A": 9.75, "B": 12.25, "C": 16.5, "D": 21.0},
    },
}

FIRST = [
    "Amara", "Bastian", "Celine", "Darius", "Elena", "Felix", "Greta", "Hamid", "Ingrid", "Jonah",
    "Keiko", "Lorenzo", "Mirela", "Nikhil", "Odette", "Pavel", "Quinn", "Rosalind", "Soren", "Talia",
    "Ulrich", "Valeria", "Wendell", "Ximena", "Yusuf", "Zora", "Anselm", "Brigid", "Cosmo", "Delphine",
    "Emeka", "Fiona", "Gideon", "Hortense", "Ivo", "Juno", "Kasimir", "Leona", "Matthias", "Noor",
]  # fmt: skip
LAST = [
    "Abernathy", "Bellweather", "Castellano", "Drummond", "Eriksen", "Fairbanks", "Galloway", "Hargreave",
    "Ibarra", "Jankowski", "Kowalczyk", "Lindqvist", "Marchetti", "Nakagawa", "Okonkwo", "Pemberton",
    "Quintero", "Rasmussen", "Szabo", "Thibodeaux", "Underhill", "Vasquez", "Whitcombe", "Yamamoto",
    "Zielinski", "Achebe", "Brannigan", "Cervantes", "Delacroix", "Esposito", "Fontaine", "Grimaldi",
]  # fmt: skip
EMPLOYERS = [
    "Harbor Freight Logistics", "Maple Ridge School District", "Corvid Software", "St. Agnes Hospital",
    "Ironside Construction", "Bluewater Credit Union", "Northgate Mall Retail", "Cascade Utilities",
    "Summit Dental Group", "Riverbend County", "Lumen Solar", "Oakhurst Manufacturing",
]  # fmt: skip
BANKS = ["First Prairie Bank", "Coastal Federal", "Union Mutual", "Pinecrest Savings", "Metro Community Bank"]
HARDSHIP_STORIES = {
    "job_loss": "You were laid off from your job last month",
    "medical": "You had surgery and large medical bills this spring",
    "natural_disaster": "A flood damaged your home and you are paying for repairs",
    "reduced_income": "Your employer cut your hours by half",
}
