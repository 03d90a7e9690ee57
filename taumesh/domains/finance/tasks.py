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
from taumesh.domains.finance.dealing_intents import (
    buy_security,
    change_model,
    rebalance_account,
    review_profile,
    sell_holding,
)
from taumesh.domains.finance.drafts import Draft
from taumesh.domains.finance.service_intents import isa_top_up, performance_report, set_price_alert, withdraw_cash

Solver = Callable[[World, dict[str, Any], random.Random, str], Draft | None]
INTENTS: dict[str, tuple[str, Solver]] = {
    "buy_security": ("accounts", buy_security),
    "sell_holding": ("holdings", sell_holding),
    "rebalance_account": ("accounts", rebalance_account),
    "change_model": ("accounts", change_model),
    "review_profile": ("clients", review_profile),
    "withdraw_cash": ("accounts", withdraw_cash),
    "isa_top_up": ("accounts", isa_top_up),
    "performance_report": ("accounts", performance_report),
    "set_price_alert": ("clients", set_price_alert),
}
"""Each intent's reference solver, and the table whose records it is asked about."""
PERSONAS = (
    "You write briefly and get to the point.",
    "You are cautious with money and want each figure explained before you agree.",
    "You are warm and talkative, and mention your grandchildren now and then.",
    "You are short of time and slightly impatient.",
    "You are new to investing and ask what each rule means for you.",
)
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent."""
TRAPS_PER_WORLD = 1
CANDIDATES = 12
"""Drafts of each kind (trap, not) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int, earlier: list[FactoryTask]) -> list[FactoryTask]:
    """``count`` of ``candidates``, those citing clause sets fewer ``earlier`` tasks (of other worlds) cite first.

    So an intent's traps show each of its reasons across the worlds (a stale profile in one, a risky fund in the next).
    """
    seen = Counter(tuple(task.clauses) for task in earlier)
    chosen: list[FactoryTask] = []
    pool = list(candidates)
    while pool and len(chosen) < count:
        best = min(pool, key=lambda task: seen[tuple(task.clauses)])
        chosen.append(best)
        pool.remove(best)
        seen[tuple(best.clauses)] += 1
    return chosen


def tasks_after_worlds(
    world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool], earlier: Sequence[FactoryTask]
) -> list[FactoryTask]:
    """Every intent's tasks over ``world``'s records of its own tag, ``accept`` filtering the candidates.

    ``earlier`` are the tasks of the worlds built before, whose clause sets this world's choice varies from.
    """
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
