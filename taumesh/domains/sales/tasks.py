"""Every intent's tasks over one world: candidates drawn from its records, then a varied choice of traps and not.

Per world and intent, one trap and two other tasks (where the world has them), those testing clauses the earlier
worlds' tasks test least first; train takes worlds w1 and w2, test w3.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.sales.deal_intents import accept_quote, approve_discount
from taumesh.domains.sales.drafts import Draft
from taumesh.domains.sales.rep_intents import (
    apply_discount,
    claim_account,
    close_lost,
    create_quote,
    log_meeting,
    push_close_date,
    schedule_follow_up,
)

Solver = Callable[[World, dict[str, Any], random.Random, str], Draft | None]
INTENTS: dict[str, tuple[str, Solver]] = {
    "apply_discount": ("quotes", apply_discount),
    "create_quote": ("opportunities", create_quote),
    "schedule_follow_up": ("contacts", schedule_follow_up),
    "log_meeting": ("calendars", log_meeting),
    "close_lost": ("opportunities", close_lost),
    "push_close_date": ("opportunities", push_close_date),
    "claim_account": ("accounts", claim_account),
    "approve_discount": ("approvals", approve_discount),
    "accept_quote": ("quotes", accept_quote),
}
"""Each intent's reference solver, and the table whose records it is asked about."""
PERSONAS = (
    "You are between two meetings and keep your messages short.",
    "You are careful and like each step explained before it happens.",
    "You are friendly and chatty, and thank the agent often.",
    "You are in a hurry and a little impatient.",
    "You are new to Northpeak's processes and ask what the agent is checking.",
)
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent."""
TRAPS_PER_WORLD = 1
CANDIDATES = 12
"""Drafts of each kind (trap, not) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int, earlier: list[FactoryTask]) -> list[FactoryTask]:
    """``count`` of ``candidates``: those testing clauses fewer ``earlier`` tasks (of other worlds) test come first.

    Within a world too, a case testing clauses the chosen ones do not comes before a repeat, so that an intent's
    traps show each of its reasons across the worlds (a signed quote in one, another rep's deal in the next).
    """
    seen = Counter(tuple(task.clauses) for task in earlier)
    chosen: list[FactoryTask] = []
    pool = list(candidates)
    while pool and len(chosen) < count:
        best = min(pool, key=lambda task: seen[tuple(task.clauses)])  # the first of the least tested
        chosen.append(best)
        pool.remove(best)
        seen[tuple(best.clauses)] += 1
    return chosen


def tasks_after_worlds(
    world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool], earlier: Sequence[FactoryTask]
) -> list[FactoryTask]:
    """Every intent's tasks over world ``tag``; ``earlier``: the tasks the worlds before it chose."""
    tasks: list[FactoryTask] = []
    for index, (intent, (table, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = [record for key, record in sorted(world[table].items()) if key.split("-")[1] == tag]
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
        before = [task for task in earlier if task.intent == intent]
        chosen = _varied(traps, TRAPS_PER_WORLD, before)
        chosen += _varied(plain, PER_WORLD - len(chosen), before)
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
