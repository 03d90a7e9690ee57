"""Every intent's tasks over one world: candidates drawn from its records, then a varied choice of traps and not.

Per world and intent, one trap and two other tasks where the world has them. Among the candidates, those testing
clauses that fewer tasks chosen so far test come first, so that across the worlds an intent's traps show each of its
reasons (a court date in one world, a slip past 14 days in the next). Train takes worlds w1 and w2, test w3.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.legal.client_intents import engage, upload
from taumesh.domains.legal.drafts import Draft
from taumesh.domains.legal.lawyer_intents import (
    cite_authority,
    close_matter,
    draft_document,
    move_deadline,
    open_matter,
    produce_document,
    staff_matter,
)
from taumesh.domains.legal.records import tag_of

Solver = Callable[[World, dict[str, Any], random.Random, str], Draft | None]
INTENTS: dict[str, tuple[str, Solver]] = {
    "open_matter": ("clients", open_matter),
    "engage": ("matters", engage),
    "upload": ("matters", upload),
    "move_deadline": ("deadlines", move_deadline),
    "draft_document": ("matters", draft_document),
    "cite_authority": ("matters", cite_authority),
    "produce_document": ("documents", produce_document),
    "close_matter": ("matters", close_matter),
    "staff_matter": ("matters", staff_matter),
}
"""Each intent's reference solver, and the table whose records it is asked about."""
PERSONAS = (
    "You are between court hearings and write in short messages.",
    "You are meticulous and want each step explained before it is taken.",
    "You are warm and polite, and thank the agent along the way.",
    "You are pressed for time and a little curt.",
    "You are new to the firm's systems and ask what the agent is looking at.",
)
PER_WORLD = 3
TRAPS_PER_WORLD = 1
CANDIDATES = 12
"""Drafts of each kind (trap, not) an intent looks at per world before choosing."""


def _case(task: FactoryTask) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What makes two tasks of an intent the same case: the clauses they test, then what the agent must say."""
    return tuple(task.clauses), tuple(s.value for s in task.statements)


def _least_tested(candidates: list[FactoryTask], count: int, seen: Counter[Any]) -> list[FactoryTask]:
    """``count`` of ``candidates``, each time the first whose clauses, then statements, ``seen`` counts least.

    ``seen`` counts both parts of each chosen task's :func:`_case` and is updated, so that a world repeats neither
    a reason another world's trap showed nor, with the same reason, the same answer (the same overruled case).
    """
    chosen: list[FactoryTask] = []
    pool = list(candidates)
    while pool and len(chosen) < count:
        best = min(pool, key=lambda task: tuple(seen[part] for part in _case(task)))
        chosen.append(best)
        pool.remove(best)
        seen.update(_case(best))
    return chosen


def tasks_after_worlds(
    world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool], earlier: Sequence[FactoryTask]
) -> list[FactoryTask]:
    """Every intent's tasks over ``world``'s own records, ``accept`` filtering the candidates.

    ``earlier`` are the tasks of the worlds built before, whose cases this world's choice varies from.
    """
    tasks: list[FactoryTask] = []
    for index, (intent, (table, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = [record for key, record in sorted(world[table].items()) if tag_of(key) == tag]
        rng.shuffle(subjects)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for subject in subjects:
            draft = solve(world, subject, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        seen: Counter[Any] = Counter(part for task in earlier if task.intent == intent for part in _case(task))
        chosen = _least_tested(traps, TRAPS_PER_WORLD, seen)
        chosen += _least_tested(plain, PER_WORLD - len(chosen), seen)
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
