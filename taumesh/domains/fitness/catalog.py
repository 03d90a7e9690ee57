"""The reference lists a world is drawn from: names, clubs, plans, class formats and routines.

Each class format and routine carries the traits the safety rules read (intensity, impact, spinal load, heated room);
every focus has routines that suit every condition, so that a refused routine always has a safe one beside it.
"""

from __future__ import annotations

from typing import Any

FIRST = [
    "Maya", "Jonas", "Priya", "Tobias", "Lena", "Omar", "Sofia", "Kenji", "Amara", "Felix", "Ines", "Rahul",
    "Greta", "Diego", "Noor", "Elliot", "Hana", "Marcus", "Zoe", "Arjun", "Clara", "Mateo", "Yara", "Owen",
    "Leila", "Samuel", "Ingrid", "Tariq", "Nadia", "Hugo",
]  # fmt: skip
LAST = [
    "Lindqvist", "Okafor", "Brennan", "Castillo", "Nakamura", "Hughes", "Ferreira", "Novak", "Adeyemi", "Larsen",
    "Moreau", "Kowalski", "Sato", "Whitaker", "Duarte", "Keller", "Mensah", "Bianchi", "Fitzgerald", "Haddad",
    "Ivanova", "Quinn", "Rossi", "Strand", "Tan", "Vasquez", "Walsh", "Yilmaz", "Zimmer", "Abbott",
]  # fmt: skip
GUESTS = [
    "Rosa Delgado", "Tom Becker", "Aisha Khan", "Liam Foster", "Mei Chen", "Pablo Ruiz", "Elsa Berg", "Kofi Asante",
    "Nina Petrova", "Sean Doyle", "Lucia Romano", "Ravi Menon",
]  # fmt: skip
CITIES = ["Portland", "Ashford", "Millbrook", "Riverton", "Eastlake", "Cedar Falls"]
CLUB_NAMES = ["Harbor", "Ridgeview", "Foundry", "Lakeside", "Summit", "Old Mill"]
TRAINER_FIRST = ["Dana", "Rico", "Astrid", "Malik", "Freya", "Jules", "Tomas", "Keira", "Bodhi", "Selma"]
TRAINER_LAST = ["Hale", "Ortega", "Voss", "Reyes", "Lund", "Achebe", "Marsh", "Ito", "Calder", "Roth"]

PLAN_TIERS: list[dict[str, Any]] = [
    {"key": "essential", "name": "Essential", "monthly_fee": 29.0, "guest_passes_per_month": 1,
     "freeze_fee_per_month": 7.5, "session_price": 55.0},
    {"key": "plus", "name": "Plus", "monthly_fee": 49.0, "guest_passes_per_month": 2,
     "freeze_fee_per_month": 5.0, "session_price": 48.0},
    {"key": "elite", "name": "Elite", "monthly_fee": 89.0, "guest_passes_per_month": 4,
     "freeze_fee_per_month": 0.0, "session_price": 42.0},
]  # fmt: skip
"""The three tiers each world offers (ids carry the world's tag)."""

CLASS_FORMATS: list[dict[str, Any]] = [
    {"title": "HIIT Blast", "minutes": 45, "intensity": "high", "impact": "high", "spinal_load": "low",
     "heated": False},
    {"title": "Spin Sprint", "minutes": 45, "intensity": "high", "impact": "low", "spinal_load": "low",
     "heated": False},
    {"title": "Plyo Power", "minutes": 40, "intensity": "moderate", "impact": "high", "spinal_load": "low",
     "heated": False},
    {"title": "Barbell Strength", "minutes": 55, "intensity": "moderate", "impact": "low", "spinal_load": "high",
     "heated": False},
    {"title": "Hot Vinyasa", "minutes": 60, "intensity": "moderate", "impact": "low", "spinal_load": "low",
     "heated": True},
    {"title": "Gentle Yoga", "minutes": 60, "intensity": "low", "impact": "low", "spinal_load": "low", "heated": False},
    {"title": "Aqua Fit", "minutes": 45, "intensity": "low", "impact": "low", "spinal_load": "low", "heated": False},
    {"title": "Pilates Core", "minutes": 50, "intensity": "moderate", "impact": "low", "spinal_load": "low",
     "heated": False},
    {"title": "Boxing Conditioning", "minutes": 50, "intensity": "high", "impact": "high", "spinal_load": "low",
     "heated": False},
    {"title": "Mobility Flow", "minutes": 40, "intensity": "low", "impact": "low", "spinal_load": "low",
     "heated": False},
    {"title": "Kettlebell Circuit", "minutes": 45, "intensity": "high", "impact": "low", "spinal_load": "high",
     "heated": False},
    {"title": "Step Cardio", "minutes": 45, "intensity": "moderate", "impact": "high", "spinal_load": "low",
     "heated": False},
]  # fmt: skip
CLASS_TIMES = ["06:30", "09:30", "12:15", "17:30", "19:00"]

ROUTINES: list[dict[str, Any]] = [
    {"name": "Heavy Back Squat Ladder", "focus": "legs", "intensity": "high", "impact": "low", "spinal_load": "high"},
    {"name": "Jump Lunge Burner", "focus": "legs", "intensity": "high", "impact": "high", "spinal_load": "low"},
    {"name": "Seated Leg Strength", "focus": "legs", "intensity": "low", "impact": "low", "spinal_load": "low"},
    {"name": "Glute Bridge Builder", "focus": "legs", "intensity": "moderate", "impact": "low", "spinal_load": "low"},
    {"name": "Weighted Sit-up Pyramid", "focus": "core", "intensity": "moderate", "impact": "low",
     "spinal_load": "high"},
    {"name": "Mountain Climber Blitz", "focus": "core", "intensity": "high", "impact": "high", "spinal_load": "low"},
    {"name": "Dead Bug Progression", "focus": "core", "intensity": "low", "impact": "low", "spinal_load": "low"},
    {"name": "Sprint Interval Ladder", "focus": "cardio", "intensity": "high", "impact": "high", "spinal_load": "low"},
    {"name": "Rower Tempo Intervals", "focus": "cardio", "intensity": "high", "impact": "low", "spinal_load": "low"},
    {"name": "Zone Two Cycling", "focus": "cardio", "intensity": "low", "impact": "low", "spinal_load": "low"},
    {"name": "Brisk Incline Walk", "focus": "cardio", "intensity": "moderate", "impact": "low", "spinal_load": "low"},
    {"name": "Overhead Press Complex", "focus": "upper_body", "intensity": "high", "impact": "low",
     "spinal_load": "high"},
    {"name": "Burpee Push-up Ladder", "focus": "upper_body", "intensity": "high", "impact": "high",
     "spinal_load": "low"},
    {"name": "Band Pull Circuit", "focus": "upper_body", "intensity": "low", "impact": "low", "spinal_load": "low"},
    {"name": "Hot Room Stretch", "focus": "mobility", "intensity": "low", "impact": "low", "spinal_load": "low",
     "heated": True},
    {"name": "Hip Opener Sequence", "focus": "mobility", "intensity": "low", "impact": "low", "spinal_load": "low"},
    {"name": "Thoracic Mobility Drill", "focus": "mobility", "intensity": "low", "impact": "low",
     "spinal_load": "low"},
]  # fmt: skip
"""Every club's library holds each routine (under its own ids); the last of each focus suit everyone."""

WORKOUT_KINDS = ["run", "ride", "swim", "walk", "row", "strength"]
CHECK_IN_KINDS = ["gym floor", "class", "swim", "strength"]
