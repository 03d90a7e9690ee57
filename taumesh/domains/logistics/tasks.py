"""The desk's tasks: every intent's solver run over a world's callers, then a varied few chosen per world.

Per intent and world: one trap, or two where an intent has three reasons to refuse or more (each world shows the
reasons earlier worlds showed least, so that together they show every reason they can), and two plain tasks,
preferring plain tasks that test clauses the other does not.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

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
"""The clients' manners; one is drawn per task."""
OPERATOR_PERSONAS = [
    "You are on the depot floor with a scanner in one hand, so your messages are short.",
    "You have worked at the depot for years and expect the desk to be quick.",
    "You are new on the shift and want the agent to confirm each step.",
]
"""The operators' manners, drawn the same way."""
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
PLAIN = 2
"""Plain tasks per intent and world."""
TRAPS = {"change_delivery_window": 2, "redirect_to_depot": 2, "safe_place": 2, "damage_claim": 2}
"""Traps per world where an intent has three reasons to refuse or more; one elsewhere."""
CANDIDATES = 12
"""Drafts of each kind an intent collects per world before choosing."""


def _kind(task: FactoryTask) -> str:
    """The reason a trap tests: its clause, and what its first statement says (6.2 has three reasons)."""
    clause = (task.trap_rationale or "").split(":")[0]
    return f"{clause} {task.statements[0].why}" if task.statements else clause


def _least_shown(traps: list[FactoryTask], wanted: int, shown: Counter[str]) -> list[FactoryTask]:
    """``wanted`` traps of different reasons: those earlier worlds showed least first, then the world's rarest.

    ``shown`` counts the reasons the earlier worlds' traps test, so that the worlds together show each reason.
    """
    found = [_kind(t) for t in traps]
    kinds = sorted(set(found), key=lambda k: (shown[k], found.count(k), k))[:wanted]
    return [traps[found.index(kind)] for kind in kinds]


def _varied(plain: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` plain tasks, those citing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in plain:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [t for t in plain if t not in chosen][: count - len(chosen)]


def tasks_after_worlds(
    world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool], earlier: Sequence[FactoryTask]
) -> list[FactoryTask]:
    """Every intent's chosen tasks over the callers of world ``tag``; ``earlier``: the tasks earlier worlds chose."""
    clients = sorted(
        (c for c in world["clients"].values() if c["client_id"].split("-")[1] == tag), key=lambda c: c["client_id"]
    )
    operators = sorted(
        (o for o in world["operators"].values() if o["operator_id"].split("-")[1] == tag),
        key=lambda o: o["operator_id"],
    )
    tasks: list[FactoryTask] = []
    solvers = [(i, s, clients, PERSONAS) for i, s in CLIENT_SOLVERS.items()] + [
        (i, s, operators, OPERATOR_PERSONAS) for i, s in OPERATOR_SOLVERS.items()
    ]
    for index, (intent, solve, callers, personas) in enumerate(solvers):
        rng = random.Random(seed * 100 + index)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for _ in range(4):
            order = list(callers)
            rng.shuffle(order)
            for caller in order:
                draft = solve(world, caller, rng, rng.choice(personas))
                if draft is None:
                    continue
                bucket = traps if draft.trap_rationale else plain
                task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
                if len(bucket) < CANDIDATES and accept(task) and task.user_id not in {t.user_id for t in bucket}:
                    bucket.append(task)
        shown = Counter(_kind(t) for t in earlier if t.intent == intent and t.trap)
        chosen = _least_shown(traps, TRAPS.get(intent, 1), shown)
        chosen += _varied(plain, PLAIN)
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
