"""Every intent's tasks over one world: the reference solvers run over its callers, and a varied few chosen.

Per intent and world, :data:`PER_WORLD` tasks, :data:`TRAPS_PER_WORLD` of them traps where the world has them; within
each kind, cases that test clauses the others do not come first (a late refund beside the full ones).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from taumesh.domains.events.attendee_intents import ATTENDEE_SOLVERS
from taumesh.domains.events.drafts import Draft
from taumesh.domains.events.organiser_intents import ORGANISER_SOLVERS
from taumesh.domains.factory import FactoryTask, World

INTENTS = (*ATTENDEE_SOLVERS, *ORGANISER_SOLVERS)
PER_WORLD = 4
"""Tasks per intent and world: 8 train (w1, w2) and 4 test (w3) per intent, where the world has that many."""
TRAPS_PER_WORLD = {"refund_order": 2, "change_class": 2, "transfer_ticket": 2}
"""Traps per world of the intents whose policy forbids for several reasons (refundability, a window, an approval);
one for the others."""
CANDIDATES = 12
"""Drafts of each kind (trap or not) an intent looks at per world before choosing."""
ORGANISER_TRIES = 4
"""Cases drawn per organiser (a city and date, an event): organisers are few, their cases many."""


def _drafts(intent: str, world: World, tag: str, rng: random.Random) -> Iterator[Draft]:
    """The intent's solver over the world's callers, in a seeded order."""
    if intent in ATTENDEE_SOLVERS:
        solve = ATTENDEE_SOLVERS[intent]
        holdings = [
            (world["attendees"][o["attendee_id"]], o)
            for o in sorted(world["orders"].values(), key=lambda o: o["order_id"])
            if o["status"] == "active" and tag in o["order_id"].split("-")
        ]
        rng.shuffle(holdings)
        for attendee, order in holdings:
            draft = solve(world, attendee, order, rng)
            if draft is not None:
                yield draft
        return
    organisers = [o for key, o in sorted(world["organisers"].items()) if tag in key.split("-")]
    for _ in range(ORGANISER_TRIES):
        rng.shuffle(organisers)
        for organiser in organisers:
            draft = ORGANISER_SOLVERS[intent](world, organiser, rng)
            if draft is not None:
                yield draft


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the chosen ones do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    chosen += [task for task in candidates if task not in chosen][: count - len(chosen)]
    return chosen


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the world ``tag`` of ``world``, each one ``accept`` takes and no two alike."""
    tasks: list[FactoryTask] = []
    for index, intent in enumerate(INTENTS):
        rng = random.Random(seed * 100 + index)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        seen: set[str] = set()
        for number, draft in enumerate(_drafts(intent, world, tag, rng), 1):
            task = draft.task(f"{intent}-{tag}-{number:02d}")
            bucket = traps if task.trap else plain
            if len(bucket) < CANDIDATES and task.instruction not in seen and accept(task):
                bucket.append(task)
                seen.add(task.instruction)
            if len(traps) >= CANDIDATES and len(plain) >= CANDIDATES:
                break
        chosen = _varied(traps, TRAPS_PER_WORLD.get(intent, 1))
        chosen += _varied(plain, PER_WORLD - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
