"""The project desk's tasks: each intent's reference solver run over one world's records, and the cases chosen.

Per intent and world: three tasks, one a trap where the world has one (each world starting from another kind of
refusal), the others chosen to put the caller's own portal steps (dual control) first and to vary the clauses they
test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from taumesh.domains.construction.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.construction.company_solvers import change_order, pay_invoice, review_certificate, site_pass
from taumesh.domains.construction.draft import PERSONAS, Draft
from taumesh.domains.construction.site_solvers import (
    Entity,
    cancel_inspection,
    clear_package,
    move_milestone,
    schedule_inspection,
    submit_permit,
)
from taumesh.domains.construction.user_tools import USER_TOOLS
from taumesh.domains.construction.world import tag_of
from taumesh.domains.factory import FactoryTask, World

Solver = Callable[[World, Entity, random.Random, str], Draft | None]
INTENTS: dict[str, tuple[str, Solver]] = {
    "schedule_inspection": ("permits", schedule_inspection),
    "submit_permit": ("permits", submit_permit),
    "clear_package": ("work_packages", clear_package),
    "move_milestone": ("milestones", move_milestone),
    "review_certificate": ("portal_files", review_certificate),
    "pay_invoice": ("invoices", pay_invoice),
    "site_pass": ("workers", site_pass),
    "change_order": ("change_orders", change_order),
    "cancel_inspection": ("inspections", cancel_inspection),
}
"""Each intent's table (the record a request is about) and its reference solver."""
PER_WORLD = 3
TRAPS_PER_WORLD = 1
WRITES = frozenset(tool.name for tool in (*AGENT_TOOLS, *USER_TOOLS) if tool.writes)


def _kind(task: FactoryTask) -> str:
    """A trap's kind of refusal: the clause its rationale cites (``3.4``), without the figures of the case."""
    return (task.trap_rationale or "").split(":")[0]


def _traps(traps: list[FactoryTask], turn: int) -> list[FactoryTask]:
    """One trap per world, each world starting at another kind, so the worlds show the intent's several refusals."""
    kinds: dict[str, list[FactoryTask]] = {}
    for task in traps:
        kinds.setdefault(_kind(task), []).append(task)
    ordered = [kinds[key] for key in sorted(kinds)]
    if not ordered:
        return []
    ordered = ordered[turn % len(ordered) :] + ordered[: turn % len(ordered)]
    return [group[0] for group in ordered][:TRAPS_PER_WORLD]


def _plain(tasks: list[FactoryTask], count: int) -> list[FactoryTask]:
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
    """Every intent's tasks over the records of world ``tag``; ``accept`` leaves out a task the build refuses."""
    tasks: list[FactoryTask] = []
    for index, (intent, (table, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        records = [world[table][key] for key in sorted(world[table]) if tag_of(key) == tag]
        rng.shuffle(records)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for entity in records:
            draft = solve(world, entity, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}", WRITES, IDENTITY_TOOLS)
            if accept(task):
                (traps if task.trap else plain).append(task)
        chosen = _traps(traps, int(tag[1:]) - 1)
        chosen += _plain(plain, PER_WORLD - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
