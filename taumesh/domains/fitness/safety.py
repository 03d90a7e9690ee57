"""The safety rules for classes, routines and trainers: which declared conditions exclude what (policy section 3).

A class and a routine carry the same four traits (intensity, impact, spinal load, heated room); a condition
excludes the traits listed here unless the member has a physician's clearance for it on file. A trainer may coach a
member only with the certification each uncleared condition needs. The tools do not enforce these rules: the agent
applies them, and the reference solvers compute from the same tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Condition = Literal["knee_injury", "lower_back_pain", "hypertension", "pregnancy", "asthma"]
CONDITIONS: tuple[Condition, ...] = ("knee_injury", "lower_back_pain", "hypertension", "pregnancy", "asthma")

EXCLUDED_TRAITS: Mapping[str, tuple[str, ...]] = {
    "knee_injury": ("high_impact",),
    "lower_back_pain": ("high_spinal_load",),
    "hypertension": ("high_intensity", "heated"),
    "pregnancy": ("high_intensity", "high_impact", "high_spinal_load", "heated"),
    "asthma": ("heated",),
}
"""Traits each declared condition rules out (policy 3.3-3.7)."""

TRAINER_CERTIFICATION: Mapping[str, str | None] = {
    "knee_injury": "rehab",
    "lower_back_pain": "rehab",
    "hypertension": "cardiac",
    "pregnancy": "prenatal",
    "asthma": None,
}
"""The certification a trainer needs to coach a member with each uncleared condition (policy 6.3)."""

SPOKEN: Mapping[str, str] = {
    "knee_injury": "knee",
    "lower_back_pain": "lower back|back pain|back injury|your back",
    "hypertension": "blood pressure|hypertension",
    "pregnancy": "pregnan|prenatal",
    "asthma": "asthma",
}
"""How an agent names each condition when it explains a refusal (a statement's phrases)."""


def traits(item: Mapping[str, Any]) -> set[str]:
    """The traits of a class or a routine record."""
    found = set()
    if item["intensity"] == "high":
        found.add("high_intensity")
    if item["impact"] == "high":
        found.add("high_impact")
    if item["spinal_load"] == "high":
        found.add("high_spinal_load")
    if item["heated"]:
        found.add("heated")
    return found


def active_conditions(member: Mapping[str, Any]) -> list[str]:
    """The member's declared conditions without a clearance on file, in the policy's order."""
    cleared = set(member["cleared_conditions"])
    return [c for c in CONDITIONS if c in member["conditions"] and c not in cleared]


def blocking_conditions(member: Mapping[str, Any], item: Mapping[str, Any]) -> list[str]:
    """The member's uncleared conditions that rule ``item`` (a class or a routine) out; empty: it is allowed."""
    found = traits(item)
    return [c for c in active_conditions(member) if found & set(EXCLUDED_TRAITS[c])]


def certifications_needed(member: Mapping[str, Any]) -> set[str]:
    """The certifications a trainer needs to coach the member."""
    return {cert for c in active_conditions(member) if (cert := TRAINER_CERTIFICATION[c]) is not None}


def may_coach(member: Mapping[str, Any], trainer: Mapping[str, Any]) -> bool:
    """Whether ``trainer`` holds every certification the member's uncleared conditions need."""
    return certifications_needed(member) <= set(trainer["certifications"])


def spoken_reason(conditions: list[str]) -> str:
    """A statement's phrases for a refusal caused by ``conditions``: naming any of them is enough."""
    return "|".join(SPOKEN[c] for c in conditions)
