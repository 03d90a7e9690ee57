"""The desk's tasks: per intent, what it is about, who calls, its reference solver, and how a world's are chosen.

Each world gives every intent two plain tasks and a trap of each kind of refusal the intent has (none for a
briefing, two for imaging and for manoeuvres), the plain tasks testing different clauses where they can. An intent's
instruction is one template for its trap and plain tasks alike, so that no sentence cues a trap; and a task's number
is shuffled among its intent's, so that no position marks the trap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.factory import FactoryTask, World
from taumesh.domains.space.clock import TODAY
from taumesh.domains.space.customer_intents import book_pass, cancel_pass, conjunction_briefing, request_imaging
from taumesh.domains.space.drafts import Caller, Draft
from taumesh.domains.space.operator_intents import (
    acknowledge_alarm,
    approve_maneuver,
    queue_command,
    recover_spacecraft,
)

Solver = Callable[[World, Caller, dict[str, Any], random.Random, str], Draft | None]
PERSONAS = [
    "You speak in short sentences and give one detail at a time.",
    "You are courteous and unhurried, and you answer what you are asked.",
    "You have a deadline this afternoon and want this settled quickly.",
    "You are meticulous and ask the agent to repeat any number it gives you.",
    "You are chatty and a little excitable about the mission, but you stay on your request.",
]


def _passes(world: World, status: str) -> list[dict[str, Any]]:
    return [p for _, p in sorted(world["passes"].items()) if p["status"] == status]


def _future_booked(world: World) -> list[dict[str, Any]]:
    return [p for p in _passes(world, "booked") if p["date"] > TODAY.isoformat()]


SUBJECTS: dict[str, Callable[[World], list[dict[str, Any]]]] = {
    "book_pass": lambda w: [p for p in _passes(w, "open") if p["date"] > TODAY.isoformat()],
    "cancel_pass": lambda w: _passes(w, "booked"),
    "request_imaging": lambda w: [c for _, c in sorted(w["spacecraft"].items())],
    "conjunction_briefing": lambda w: [c for _, c in sorted(w["spacecraft"].items())],
    "approve_maneuver": lambda w: [m for _, m in sorted(w["maneuvers"].items())],
    "queue_command": _future_booked,
    "recover_spacecraft": lambda w: [c for _, c in sorted(w["spacecraft"].items())],
    "acknowledge_alarm": lambda w: [a for _, a in sorted(w["alarms"].items())],
}
"""What each intent's tasks are about: the records of a world a caller may ask about."""
INTENTS: dict[str, tuple[str, Solver]] = {
    "book_pass": ("customer", book_pass),
    "cancel_pass": ("customer", cancel_pass),
    "request_imaging": ("customer", request_imaging),
    "conjunction_briefing": ("customer", conjunction_briefing),
    "approve_maneuver": ("operator", approve_maneuver),
    "queue_command": ("operator", queue_command),
    "recover_spacecraft": ("operator", recover_spacecraft),
    "acknowledge_alarm": ("operator", acknowledge_alarm),
}
"""Each intent: the role that calls for it (policy 2.3), and its reference solver."""
PLAIN_PER_WORLD = 2
ATTEMPTS = 3
"""Times each subject is drawn: an imaging request picks its target and date at random, so one spacecraft yields
several different tasks."""
TRAPS_PER_WORLD = {"conjunction_briefing": 0, "request_imaging": 2, "approve_maneuver": 2}
"""Traps per world: one of each kind of refusal an intent has; one where it has a single kind."""


def _owner(world: World, subject: dict[str, Any]) -> str:
    """The customer whose spacecraft the subject is, or belongs to."""
    craft = subject.get("spacecraft_id") or world["channels"][subject["channel_id"]]["spacecraft_id"]
    return str(world["spacecraft"][craft]["customer_id"])


def _caller(world: World, tag: str, role: str, subject: dict[str, Any], rng: random.Random) -> Caller:
    callers = [c for key, c in sorted(world["callers"].items()) if key.split("-")[1] == tag and c["role"] == role]
    if role == "customer":
        callers = [c for c in callers if c["customer_id"] == _owner(world, subject)]
    return rng.choice(callers)


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    return chosen + [task for task in candidates if task not in chosen][: count - len(chosen)]


def _one_of_each_kind(traps: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` traps, one of each kind (the clauses a trap tests) before a second of any."""
    kinds: dict[tuple[str, ...], list[FactoryTask]] = {}
    for task in traps:
        kinds.setdefault(tuple(task.clauses), []).append(task)
    queues = list(kinds.values())
    ordered: list[FactoryTask] = []
    while any(queues):
        ordered += [queue.pop(0) for queue in queues if queue]
    return ordered[:count]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the records of world ``tag``."""
    tasks: list[FactoryTask] = []
    for index, (intent, (role, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = SUBJECTS[intent](world) * ATTEMPTS
        rng.shuffle(subjects)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        asked: set[str] = set()
        for subject in subjects:
            draft = solve(world, _caller(world, tag, role, subject, rng), subject, rng, rng.choice(PERSONAS))
            if draft is None or " ".join(draft.goal) in asked:
                continue
            task = draft.task(f"{intent}-{tag}")
            if accept(task):
                (traps if task.trap else plain).append(task)
                asked.add(" ".join(draft.goal))
        wanted = TRAPS_PER_WORLD.get(intent, 1)
        chosen = _one_of_each_kind(traps, wanted) + _varied(plain, PLAIN_PER_WORLD)
        if len(chosen) < wanted + PLAIN_PER_WORLD:
            raise ValueError(f"{intent} in {tag}: {len(traps)} traps and {len(plain)} plain tasks to choose from")
        rng.shuffle(chosen)
        tasks += [t.model_copy(update={"id": f"{intent}-{tag}-{n:02d}"}) for n, t in enumerate(chosen, 1)]
    return tasks
