"""The desk's tasks: every intent's solver run over a world's callers, then a varied few chosen per world.

Per intent and world: one trap (its kind turning from world to world, so that each world shows another reason) and
two plain tasks, preferring plain tasks that test clauses the other does not.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.logistics import client_intents, depot_intents
from taumesh.domains.logistics.drafts import Draft, Party

PERSONAS = [
    "You write briefly and get to the point.",
    "You are polite and a little formal.",
    "You run a small business and are pressed for time, so you want a clear answer.",
    "You are new to shipping parcels and ask what unfamiliar terms mean.",
    "You are calm, but you double-check every date and figure the agent gives you.",
]
Solve = Callable[[World, Party, random.Random, str], Draft | None]
CLIENT_SOLVERS: dict[str, Solve] = {
    f.__name__: f
    for f in (
        client_intents.change_delivery_window,
        client_intents.redirect_to_depot,
        client_intents.safe_place,
        client_intents.damage_claim,
        client_intents.book_pickup,
        client_intents.cancel_shipment,
        client_intents.redelivery,
    )
}
OPERATOR_SOLVERS: dict[str, Solve] = {f.__name__: f for f in (depot_intents.stock_count, depot_intents.log_incident)}
TRAPS, PLAIN = 1, 2
"""Tasks per intent and world."""
CANDIDATES = 12
"""Drafts of each kind an intent collects per world before choosing."""


def _rotated(traps: list[FactoryTask], turn: int) -> list[FactoryTask]:
    """The traps grouped by the reason they test (their rationale's clause), from the ``turn``-th reason on."""
    kinds = sorted({t.trap_rationale.split(":")[0] for t in traps if t.trap_rationale})
    order = kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)] if kinds else []
    return [t for kind in order for t in traps if t.trap_rationale and t.trap_rationale.split(":")[0] == kind]


def _varied(plain: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` plain tasks, those citing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in plain:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [t for t in plain if t not in chosen][: count - len(chosen)]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's chosen tasks over the callers of world ``tag``."""
    clients = sorted(
        (c for c in world["clients"].values() if c["client_id"].split("-")[1] == tag), key=lambda c: c["client_id"]
    )
    operators = sorted(
        (o for o in world["operators"].values() if o["operator_id"].split("-")[1] == tag),
        key=lambda o: o["operator_id"],
    )
    tasks: list[FactoryTask] = []
    solvers = [(i, s, clients) for i, s in CLIENT_SOLVERS.items()] + [
        (i, s, operators) for i, s in OPERATOR_SOLVERS.items()
    ]
    for index, (intent, solve, callers) in enumerate(solvers):
        rng = random.Random(seed * 100 + index)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for _ in range(4):
            order = list(callers)
            rng.shuffle(order)
            for caller in order:
                draft = solve(world, caller, rng, rng.choice(PERSONAS))
                if draft is None:
                    continue
                bucket = traps if draft.trap_rationale else plain
                task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
                if len(bucket) < CANDIDATES and accept(task) and task.user_id not in {t.user_id for t in bucket}:
                    bucket.append(task)
        chosen = _rotated(traps, int(tag[1:]) - 1)[:TRAPS] + _varied(plain, PLAIN)
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
