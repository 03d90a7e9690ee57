"""The trial desk's tasks: each intent's reference solver run over one world's records, and the cases chosen.

Per intent and world: three tasks, one of them a trap where the world offers one; the others put the participant's
own app steps (dual control) first and then vary the clauses they test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.pharmaceuticals.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.pharmaceuticals.draft import MANNERS, Draft
from taumesh.domains.pharmaceuticals.participant_solvers import claim_travel, reconsent, unlock_diary
from taumesh.domains.pharmaceuticals.site_solvers import (
    Entity,
    book_pickup,
    randomise,
    replace_kit,
    schedule_visit,
    submit_event,
    unblind,
)
from taumesh.domains.pharmaceuticals.user_tools import USER_TOOLS
from taumesh.domains.pharmaceuticals.world import tag_of

Solver = Callable[[World, Entity, random.Random, str], Draft | None]
INTENTS: dict[str, tuple[str, Solver]] = {
    "schedule_visit": ("visits", schedule_visit),
    "randomise": ("participants", randomise),
    "replace_kit": ("participants", replace_kit),
    "submit_event": ("adverse_events", submit_event),
    "unblind": ("adverse_events", unblind),
    "book_pickup": ("samples", book_pickup),
    "reconsent": ("participants", reconsent),
    "unlock_diary": ("participants", unlock_diary),
    "claim_travel": ("app_receipts", claim_travel),
}
"""Each intent's table (the record a request is about) and its reference solver."""
PER_WORLD = 3
TRAPS_PER_WORLD = 1
WRITES = frozenset(tool.name for tool in (*AGENT_TOOLS, *USER_TOOLS) if tool.writes)


def _varied(tasks: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``tasks``: dual control first, then those testing clauses not yet chosen."""
    ordered = sorted(tasks, key=lambda t: not t.dual_control)
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in ordered:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [task for task in ordered if task not in chosen][: count - len(chosen)]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the records of world ``tag``; ``accept`` leaves out a task the build refuses.

    No two tasks of a world are about the same participant, so no two share an entity.
    """
    tasks: list[FactoryTask] = []
    for index, (intent, (table, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        records = [world[table][key] for key in sorted(world[table]) if tag_of(key) == tag]
        rng.shuffle(records)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for entity in records:
            draft = solve(world, entity, rng, rng.choice(MANNERS))
            if draft is None:
                continue
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}", WRITES, IDENTITY_TOOLS)
            if accept(task):
                (traps if task.trap else plain).append(task)
        chosen = traps[:TRAPS_PER_WORLD] + _varied(plain, PER_WORLD - min(len(traps), TRAPS_PER_WORLD))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
