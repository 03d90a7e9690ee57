"""The desk's tasks: per intent, who calls, its reference solver, and how a world's tasks are chosen.

Each world gives every intent two plain tasks and a trap of each kind of refusal the intent has (one or two), the
plain tasks testing different clauses where they can. An intent's instruction is
one template for its trap and plain tasks alike, so that no sentence cues a trap.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.manufacturing.drafts import Contact, Draft
from taumesh.domains.manufacturing.floor_intents import lockout_repair, schedule_maintenance
from taumesh.domains.manufacturing.order_intents import cancel_order, change_quantity, expedite_order
from taumesh.domains.manufacturing.quality_intents import disposition_ncr, place_hold, release_hold, shift_report

Solver = Callable[[World, Contact, random.Random, str], Draft | None]
PERSONAS = [
    "You are brisk and give one fact at a time.",
    "You are polite and patient, and you answer what you are asked.",
    "You are under pressure from your manager and want this settled quickly.",
    "You are careful and ask the agent to repeat any figure it gives.",
    "You are friendly and a little talkative, but you keep to your request.",
]
INTENTS: dict[str, tuple[tuple[str, ...], Solver]] = {
    "release_hold": (("operator",), release_hold),
    "place_hold": (("operator", "planner"), place_hold),
    "disposition_ncr": (("planner",), disposition_ncr),
    "shift_report": (("planner",), shift_report),
    "schedule_maintenance": (("planner",), schedule_maintenance),
    "lockout_repair": (("operator",), lockout_repair),
    "change_quantity": (("buyer",), change_quantity),
    "expedite_order": (("buyer",), expedite_order),
    "cancel_order": (("buyer",), cancel_order),
}
"""Each intent: the roles that may call for it (policy 2.3), and its reference solver."""
PLAIN_PER_WORLD = 2
"""Plain tasks per intent and world."""
TRAPS_PER_WORLD = {"release_hold": 2, "schedule_maintenance": 2, "lockout_repair": 2, "change_quantity": 2}
"""Traps per world where an intent has two kinds of refusal (one of each); one elsewhere."""
ATTEMPTS = 5
"""Drafts asked of each caller of an intent before choosing (they pick their records at random)."""
CANDIDATES = 40
"""Drafts of each kind (trap, plain) an intent keeps per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [task for task in candidates if task not in chosen][: count - len(chosen)]


def _rotated(traps: list[FactoryTask], turn: int) -> list[FactoryTask]:
    """``traps`` one kind (the clauses it tests) at a time, from the ``turn``-th kind on: worlds lead with others."""
    kinds = sorted({tuple(t.clauses) for t in traps})
    order = kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)] if kinds else []
    queues = [[t for t in traps if tuple(t.clauses) == kind] for kind in order]
    rotated: list[FactoryTask] = []
    while any(queues):
        rotated += [queue.pop(0) for queue in queues if queue]
    return rotated


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the callers of world ``tag``."""
    tasks: list[FactoryTask] = []
    contacts = [c for key, c in sorted(world["contacts"].items()) if key.split("-")[1] == tag]
    for index, (intent, (roles, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        callers = [c for c in contacts if c["role"] in roles] * ATTEMPTS
        rng.shuffle(callers)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        asked: set[str] = set()
        for caller in callers:
            draft = solve(world, caller, rng, rng.choice(PERSONAS))
            if draft is None or " ".join(draft.goal) in asked:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
                asked.add(" ".join(draft.goal))
        wanted = TRAPS_PER_WORLD.get(intent, 1)
        chosen = _rotated(traps, int(tag[1:]) - 1)[:wanted] + _varied(plain, PLAIN_PER_WORLD)
        if len(chosen) < wanted + PLAIN_PER_WORLD:
            raise ValueError(f"{intent} in {tag}: {len(traps)} traps and {len(plain)} plain tasks to choose from")
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
