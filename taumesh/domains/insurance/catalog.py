"""The insurer's reference vocabulary: its products, the perils and documents it names, and how each is said.

The products are shared by every world (reference data no tool writes); the perils' spoken forms are what a
policyholder says ("a burst pipe") where the tools take the peril's code (``water_leak``).
"""

from __future__ import annotations

from typing import Any

PERILS = {
    "collision": "a collision with another car",
    "theft": "a theft",
    "glass": "a cracked windshield",
    "hail": "hail damage",
    "flood": "flood water damage",
    "fire": "a kitchen fire",
    "wind": "storm wind damage",
    "water_leak": "a burst pipe leak",
    "sewer_backup": "a sewer backup",
    "earthquake": "earthquake damage",
    "mold": "mold growth",
    "racing": "damage during a track day",
    "rideshare_use": "an accident while driving for a rideshare app",
    "accident": "an injury from an accident",
    "illness": "an illness",
    "cruciate_ligament": "a torn knee ligament",
    "pre_existing_condition": "a condition diagnosed before the policy started",
    "dental_cleaning": "a routine dental cleaning",
    "pet_damage": "damage caused by a pet",
}
"""Every peril code, with how a policyholder describes it."""

DOCUMENTS = {
    "police_report": "police report",
    "proof_of_ownership": "proof of ownership",
    "repair_estimate": "repair estimate",
    "photos_of_damage": "photos of the damage",
    "repair_invoice": "repair invoice",
    "plumber_report": "plumber's report",
    "vet_invoice": "vet invoice",
    "vet_records": "vet records",
}
"""Every document type a claim can require, with its name as said."""

REQUIRED_DOCUMENTS = {
    "collision": ["photos_of_damage", "repair_estimate"],
    "theft": ["police_report", "proof_of_ownership"],
    "glass": ["repair_invoice"],
    "hail": ["photos_of_damage", "repair_estimate"],
    "flood": ["photos_of_damage", "repair_estimate"],
    "fire": ["photos_of_damage", "repair_estimate"],
    "wind": ["photos_of_damage", "repair_estimate"],
    "water_leak": ["photos_of_damage", "plumber_report"],
    "sewer_backup": ["photos_of_damage", "plumber_report"],
    "accident": ["vet_invoice", "vet_records"],
    "illness": ["vet_invoice", "vet_records"],
    "cruciate_ligament": ["vet_invoice", "vet_records"],
}
"""The documents a claim for each covered peril needs before it is reviewed."""

DENIAL_REASONS = ["excluded_peril", "late_report", "missing_documents", "valuation"]
APPEAL_GROUNDS = {
    "late_report": "late_report_explained",
    "missing_documents": "documents_supplied",
    "valuation": "valuation_disputed",
}
"""The grounds an appeal states, by the denial reason it contests (an excluded peril has none)."""
HANDOFF_REASONS = ["bodily_injury", "suspected_fraud", "legal_representation", "complaint", "out_of_scope"]
PAYMENT_METHODS = ["direct_deposit", "check"]

LINES = {"auto": "car", "home": "home", "renters": "apartment", "pet": "pet"}


def _product(
    product_id: str,
    line: str,
    name: str,
    coverages: dict[str, float],
    exclusions: list[str],
    waiting_days: dict[str, int],
    deductibles: list[float],
) -> dict[str, Any]:
    return {
        "product_id": product_id,
        "line": line,
        "name": name,
        "coverages": coverages,
        "exclusions": exclusions,
        "waiting_days": waiting_days,
        "deductible_options": deductibles,
    }


def products() -> dict[str, dict[str, Any]]:
    """The product catalog, by product id."""
    found = [
        _product(
            "auto-basic",
            "auto",
            "Auto Basic",
            {"collision": 25000.0, "theft": 15000.0, "glass": 1500.0},
            ["racing", "rideshare_use", "flood", "hail"],
            {},
            [250.0, 500.0, 1000.0],
        ),
        _product(
            "auto-plus",
            "auto",
            "Auto Plus",
            {"collision": 60000.0, "theft": 40000.0, "glass": 3000.0, "hail": 40000.0, "flood": 40000.0},
            ["racing", "rideshare_use"],
            {"flood": 30},
            [250.0, 500.0, 1000.0, 2500.0],
        ),
        _product(
            "home-standard",
            "home",
            "Home Standard",
            {"fire": 350000.0, "wind": 350000.0, "theft": 20000.0, "water_leak": 30000.0},
            ["flood", "earthquake", "mold", "sewer_backup"],
            {},
            [500.0, 1000.0, 2500.0],
        ),
        _product(
            "home-plus",
            "home",
            "Home Plus",
            {
                "fire": 500000.0,
                "wind": 500000.0,
                "theft": 45000.0,
                "water_leak": 60000.0,
                "sewer_backup": 15000.0,
                "flood": 100000.0,
            },
            ["earthquake", "mold"],
            {"flood": 30, "sewer_backup": 30},
            [500.0, 1000.0, 2500.0, 5000.0],
        ),
        _product(
            "renters",
            "renters",
            "Renters",
            {"theft": 15000.0, "fire": 25000.0, "water_leak": 10000.0},
            ["flood", "mold", "pet_damage", "earthquake"],
            {},
            [250.0, 500.0, 1000.0],
        ),
        _product(
            "pet-care",
            "pet",
            "Pet Care",
            {"accident": 8000.0, "illness": 8000.0, "cruciate_ligament": 4000.0},
            ["pre_existing_condition", "dental_cleaning"],
            {"illness": 14, "cruciate_ligament": 180},
            [100.0, 250.0, 500.0],
        ),
    ]
    return {p["product_id"]: p for p in found}
