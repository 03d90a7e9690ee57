"""Whether domains are distinct: no task, policy sentence, tool set or table one domain shares with another.

The audit's ``duplicate`` flag compares the tasks of one split; a domain copied from another under a new name passes
it. These checks compare domains with each other, over what each shows an agent (its surface): the instructions of its
tasks, the sentences of its policy, its tools' names and parameters, and its tables' fields. Each finding names both
domains and what they share. ``taumesh domain check NAME --strict`` runs them against every other domain that loads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from pydantic import BaseModel, ConfigDict

from taumesh.audit._checks import normalised_instruction

OverlapKind = Literal["duplicate", "copied_policy", "copied_tools", "copied_table"]
"""``duplicate``: a task's instruction another domain's task has; ``copied_policy``: policy sentences both have
(:data:`POLICY_SHARED`);
``copied_tools``: half or more of the tools (by name and parameters) or of their parameter lists the same;
``copied_table``: a table with the same fields as one of the other domain's."""

POLICY_SENTENCE_WORDS = 10
"""A policy sentence this long or longer is compared; shorter ones ("Be polite.") may rightly recur."""
TOOL_SHARE = 0.5
"""The share of tools (of the smaller set) two domains may not both have."""
TABLE_FIELDS = 4
"""A table with this many fields or more is compared; an id-and-name lookup may rightly recur."""
POLICY_SHARED = 3
"""Policies may share a sentence or two of common practice ("transfer to a human when ..."); this many is a copy."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_DIGITS = re.compile(r"\d+")
_CLAUSE_NUMBER = re.compile(r"^\s*(?:[-*#]+\s*)*(?:\*\*)?\d+(?:\.\d+)*\.?(?:\*\*)?\s*")


class DomainSurface(BaseModel):
    """What a domain shows an agent, as the distinctness checks compare it."""

    model_config = ConfigDict(frozen=True)

    name: str
    instructions: Mapping[str, str]
    """Task id -> instruction, over every split."""
    policy: str
    tools: Mapping[str, tuple[str, ...]]
    """Tool name -> its parameters' names, sorted (the agent's and the user's)."""
    tables: Mapping[str, tuple[str, ...]]
    """Table name -> its records' fields, sorted (the first record's; empty for a table of no records)."""


class Overlap(BaseModel):
    """Something two domains share: the domain it is reported for, the other, what, and where."""

    model_config = ConfigDict(frozen=True)

    domain: str
    other: str
    kind: OverlapKind
    subject: str
    """The task id, tool set, table or sentence concerned (``-`` when the finding is about the whole domain)."""
    detail: str


def policy_sentences(policy: str) -> set[str]:
    """The policy's sentences as compared: clause numbers, digits, punctuation and case dropped; long ones only."""
    found = set()
    for raw in _SENTENCE_END.split(policy):
        text = normalised_instruction(_DIGITS.sub(" ", _CLAUSE_NUMBER.sub("", raw)))
        if len(text.split()) >= POLICY_SENTENCE_WORDS:
            found.add(text)
    return found


def _tools_overlap(one: DomainSurface, two: DomainSurface) -> list[Overlap]:
    smaller = min(len(one.tools), len(two.tools))
    if not smaller:
        return []
    named = {(n, p) for n, p in one.tools.items()} & {(n, p) for n, p in two.tools.items()}
    params_one = [p for p in one.tools.values() if len(p) >= 2]
    params_two = {p for p in two.tools.values() if len(p) >= 2}
    shaped = [p for p in params_one if p in params_two]
    found = []
    if len(named) >= TOOL_SHARE * smaller:
        tools = ", ".join(sorted(n for n, _ in named))
        found.append((tools, f"{len(named)} of {smaller} tools have the same name and parameters: {tools}"))
    elif len(shaped) >= TOOL_SHARE * smaller:
        found.append(("-", f"{len(shaped)} of {smaller} tools take the same parameters under other names"))
    return [
        Overlap(domain=a.name, other=b.name, kind="copied_tools", subject=subject, detail=detail)
        for subject, detail in found
        for a, b in ((one, two), (two, one))
    ]


def _tables_overlap(one: DomainSurface, two: DomainSurface) -> list[Overlap]:
    found = []
    for table, fields in one.tables.items():
        if len(fields) < TABLE_FIELDS:
            continue
        for other_table, other_fields in two.tables.items():
            if fields == other_fields:
                for a, mine, b, theirs in ((one, table, two, other_table), (two, other_table, one, table)):
                    detail = f"table {mine} has the fields of {b.name}'s {theirs}: {', '.join(fields)}"
                    found.append(Overlap(domain=a.name, other=b.name, kind="copied_table", subject=mine, detail=detail))
    return found


@dataclass(frozen=True)
class _Compared:
    """A surface with what is compared computed once: normalised instruction -> task id, and the policy's sentences."""

    surface: DomainSurface
    instructions: dict[str, str]
    sentences: frozenset[str]

    @classmethod
    def of(cls, surface: DomainSurface) -> _Compared:
        normalised = {normalised_instruction(text): task_id for task_id, text in surface.instructions.items()}
        return cls(surface, normalised, frozenset(policy_sentences(surface.policy)))


def _pair_overlaps(left: _Compared, right: _Compared) -> list[Overlap]:
    one, two = left.surface, right.surface
    found: list[Overlap] = []
    for text, task_id in left.instructions.items():
        other_id = right.instructions.get(text)
        if other_id is not None:
            for a, a_id, b, b_id in ((one, task_id, two, other_id), (two, other_id, one, task_id)):
                detail = f"the same normalised instruction as {b.name} task {b_id}"
                found.append(Overlap(domain=a.name, other=b.name, kind="duplicate", subject=a_id, detail=detail))
    shared = sorted(left.sentences & right.sentences)
    if len(shared) >= POLICY_SHARED:
        for a, b in ((one, two), (two, one)):
            detail = f"{len(shared)} policy sentences {b.name}'s policy has too, the first: {shared[0]!r}"
            found.append(Overlap(domain=a.name, other=b.name, kind="copied_policy", subject="-", detail=detail))
    return [*found, *_tools_overlap(one, two), *_tables_overlap(one, two)]


def overlaps(surfaces: Iterable[DomainSurface], of: str | None = None) -> list[Overlap]:
    """What any two of ``surfaces`` share, each finding reported for both domains.

    ``of``: only that domain's findings, and only its pairs are compared.
    """
    compared = [_Compared.of(surface) for surface in surfaces]
    pairs = [(a, b) for a, b in combinations(compared, 2) if of is None or of in (a.surface.name, b.surface.name)]
    found = [overlap for one, two in pairs for overlap in _pair_overlaps(one, two)]
    return [overlap for overlap in found if of is None or overlap.domain == of]
