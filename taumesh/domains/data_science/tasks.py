"""The desk's tasks: per intent, what a world's tasks are about, and how a world's are chosen.

Each world gives every intent two plain tasks and one trap (revocations, which the policy never refuses an owner,
three plain tasks), the plain tasks testing different clauses where they can. An intent's instruction is one
template for its trap and plain tasks alike, so that no sentence cues a trap; and a task's number is shuffled among
its intent's, so that no position marks the trap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.data_science.drafts import Draft
from taumesh.domains.data_science.intents import (
    clean_dataset,
    compare_channels,
    grant_access,
    make_chart,
    may_work_on,
    revoke_access,
    share_report,
    summarize_column,
    train_model,
)
from taumesh.domains.factory import FactoryTask, World

Subject = dict[str, Any]
Solver = Callable[[World, Subject, random.Random, str], Draft | None]
PERSONAS = [
    "You write in short messages and give one detail at a time.",
    "You are polite and patient, and you answer exactly what you are asked.",
    "You have a steering meeting in an hour and want this settled quickly.",
    "You are careful with numbers and ask the agent to repeat any figure it gives you.",
    "You are new to the group and a little unsure of the jargon, but you know what you need.",
]


def _people(world: World, *roles: str) -> list[str]:
    return [k for k, p in sorted(world["requesters"].items()) if p["role"] in roles]


def _workable(world: World, roles: tuple[str, ...], only_allowed: bool, missing: bool | None = None) -> list[Subject]:
    """(data set, requester) pairs; only those the requester may work on when ``only_allowed``."""
    found = []
    for ds, record in sorted(world["datasets"].items()):
        if missing is not None and (record["missing_spend"] > 0) != missing:
            continue
        for rid in _people(world, *roles):
            if not only_allowed or may_work_on(world, ds, rid):
                found.append({"dataset_id": ds, "requester_id": rid})
    return found


def _admissions(world: World) -> list[Subject]:
    """(restricted data set, person without an active grant) pairs, asked for by the data set's owner."""
    return [
        {"dataset_id": ds, "requester_id": record["owner_id"], "person_id": rid}
        for ds, record in sorted(world["datasets"].items())
        if record["restricted"]
        for rid in _people(world, "analyst", "stakeholder")
        if not may_work_on(world, ds, rid)
    ]


def _shares(world: World) -> list[Subject]:
    return [
        {"report_id": key, "requester_id": report["author_id"], "person_id": rid}
        for key, report in sorted(world["reports"].items())
        for rid in _people(world, "analyst", "stakeholder")
        if rid != report["author_id"] and rid not in report["shared_with"]
    ]


def _revocations(world: World) -> list[Subject]:
    return [
        {"grant_id": key, "requester_id": world["datasets"][g["dataset_id"]]["owner_id"]}
        for key, g in sorted(world["grants"].items())
        if g["status"] == "active"
    ]


SUBJECTS: dict[str, Callable[[World], list[Subject]]] = {
    "clean_dataset": lambda w: _workable(w, ("analyst",), True, missing=True),
    "summarize_column": lambda w: _workable(w, ("analyst", "stakeholder"), False),
    "compare_channels": lambda w: _workable(w, ("analyst",), True),
    "train_model": lambda w: _workable(w, ("analyst",), True),
    "make_chart": lambda w: _workable(w, ("analyst", "stakeholder"), True),
    "grant_access": _admissions,
    "share_report": _shares,
    "revoke_access": _revocations,
}
"""What each intent's tasks are about: the records of a world a requester may ask about."""
INTENTS: dict[str, Solver] = {
    "clean_dataset": clean_dataset,
    "summarize_column": summarize_column,
    "compare_channels": compare_channels,
    "train_model": train_model,
    "make_chart": make_chart,
    "grant_access": grant_access,
    "share_report": share_report,
    "revoke_access": revoke_access,
}
PLAIN_PER_WORLD = 2
TRAPS_PER_WORLD = {"revoke_access": 0}
"""Traps per world: one per intent, none where the policy never refuses."""


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [task for task in candidates if task not in chosen][: count - len(chosen)]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the records of world ``tag``."""
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = SUBJECTS[intent](world)
        rng.shuffle(subjects)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for subject in subjects:
            draft = solve(world, subject, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            task = draft.task(f"{intent}-{tag}")
            if accept(task):
                (traps if task.trap else plain).append(task)
        wanted = TRAPS_PER_WORLD.get(intent, 1)
        plain_wanted = PLAIN_PER_WORLD + 1 - wanted
        chosen = traps[:wanted] + _varied(plain, plain_wanted)
        if len(chosen) < wanted + plain_wanted:
            raise ValueError(f"{intent} in {tag}: {len(traps)} traps and {len(plain)} plain tasks to choose from")
        rng.shuffle(chosen)
        tasks += [t.model_copy(update={"id": f"{intent}-{tag}-{n:02d}"}) for n, t in enumerate(chosen, 1)]
    return tasks
