"""The HR desk's tasks: each intent's reference solver run over a world's employees, and the cases chosen.

Per intent and world: three tasks, one of them a trap where the world has one, the rest chosen to vary the clauses
they test and to put the employee's own portal steps (dual control) first where the intent has them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.hr.agent_tools import AGENT_TOOLS
from taumesh.domains.hr.desk_solvers import hand_off, onboarding, shift_cover, update_record
from taumesh.domains.hr.draft import PERSONAS, Draft, Employee
from taumesh.domains.hr.leave_solvers import cancel_leave, cash_out_leave, request_leave
from taumesh.domains.hr.manager_solvers import pay_change, post_opening
from taumesh.domains.hr.portal_tools import PORTAL_TOOLS
from taumesh.domains.hr.world import tag_of

Solver = Callable[[World, Employee, random.Random, str], Draft | None]
SOLVERS: dict[str, Solver] = {
    f.__name__: f
    for f in (
        request_leave,
        cancel_leave,
        cash_out_leave,
        shift_cover,
        onboarding,
        update_record,
        pay_change,
        post_opening,
        hand_off,
    )
}
"""The reference solver of each intent."""
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent."""
TRAPS_PER_WORLD = 1
CANDIDATES = 12
"""Drafts of each kind (trap or not) an intent looks at per world before choosing."""
WRITES = frozenset(tool.name for tool in (*AGENT_TOOLS, *PORTAL_TOOLS) if tool.writes)


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``: dual control first, then those testing clauses the others do not."""
    ordered = sorted(candidates, key=lambda t: not t.dual_control)
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in ordered:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    chosen += [task for task in ordered if task not in chosen][: count - len(chosen)]
    return chosen


_FIGURES = re.compile(r"[\d$.,-]+")


def _trap_kinds(traps: list[FactoryTask], count: int, turn: int) -> list[FactoryTask]:
    """``count`` traps of different kinds (the rationale without its figures), each world starting at another kind.

    So that three worlds show three reasons to refuse where an intent has them, rather than its commonest thrice.
    """
    kinds: dict[str, list[FactoryTask]] = {}
    for task in traps:
        kinds.setdefault(_FIGURES.sub("", task.trap_rationale or ""), []).append(task)
    ordered = [kinds[key] for key in sorted(kinds)]
    ordered = ordered[turn % len(ordered) :] + ordered[: turn % len(ordered)] if ordered else []
    return [group[0] for group in ordered][:count]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the employees of world ``tag``; ``accept`` filters out a task the build refuses."""
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        people = sorted(
            (e for e in world["employees"].values() if tag_of(e["employee_id"]) == tag), key=lambda e: e["employee_id"]
        )
        rng.shuffle(people)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for employee in people:
            draft = solve(world, employee, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}", WRITES)
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        chosen = _trap_kinds(traps, TRAPS_PER_WORLD, int(tag[1:]) - 1)
        chosen += _varied(plain, PER_WORLD - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
