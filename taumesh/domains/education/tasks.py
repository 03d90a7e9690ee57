"""The desk's tasks: per intent, who writes in about which record, its reference solver, and how a world's are chosen.

Each world gives every intent two plain tasks (three for progress, which has no refusal) and one trap (two for
extensions: one asked too late, one asking too much). Where an intent has several kinds of trap, each world leads
with another kind, so the release holds every kind. An intent's instruction is one template for its trap and plain
tasks alike, so that no sentence cues a trap; and a task's number is shuffled among its intent's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.education import coursework_intents, grade_intents, registry_intents
from taumesh.domains.education.clock import CURRENT_TERM
from taumesh.domains.education.drafts import Draft, Person
from taumesh.domains.factory import FactoryTask, World

Subject = tuple[Person, dict[str, Any]]
Solver = Callable[[World, Person, dict[str, Any], str, random.Random], Draft | None]
PERSONAS = [
    "You write in short messages and answer only what you are asked.",
    "You are polite and a little anxious about your studies, and you like to double-check things.",
    "You are between two lectures and want this sorted quickly.",
    "You are careful with money and ask the agent to repeat any amount it mentions.",
    "You are friendly and chatty, but you keep coming back to your request.",
]


def _records(world: World, table: str) -> list[dict[str, Any]]:
    return [record for _, record in sorted(world[table].items())]


def _students(world: World) -> list[Person]:
    return [p for p in _records(world, "people") if p["role"] == "student"]


def _own(world: World, rng: random.Random) -> list[Subject]:
    """Each student's enrolments, with the student."""
    people = world["people"]
    return [(people[e["student_id"]], e) for e in _records(world, "enrolments")]


def _pairs(world: World, rng: random.Random, table: str, keep: Callable[[dict[str, Any]], bool]) -> list[Subject]:
    """Records of ``table`` each paired with every student."""
    return [(person, r) for r in _records(world, table) if keep(r) for person in _students(world)]


def _instructors(world: World, rng: random.Random) -> list[Subject]:
    """Completed enrolments, each with its course's instructor or, now and then, a colleague."""
    staff = [p for p in _records(world, "people") if p["role"] == "instructor"]
    found = []
    for enrolment in _records(world, "enrolments"):
        if enrolment["status"] == "completed":
            teacher = world["people"][world["courses"][enrolment["course_id"]]["instructor_id"]]
            found.append((teacher if rng.random() < 0.7 else rng.choice(staff), enrolment))
    return found


def _current(world: World, record: dict[str, Any]) -> bool:
    return bool(world["courses"][record["course_id"]]["term"] == CURRENT_TERM)


def _plain(solve: Callable[[World, Person, dict[str, Any], str], Draft | None]) -> Solver:
    return lambda world, person, record, persona, rng: solve(world, person, record, persona)


INTENTS: dict[str, tuple[Callable[[World, random.Random], list[Subject]], Solver]] = {
    "enrol_course": (
        lambda w, rng: _pairs(w, rng, "courses", lambda c: c["term"] == CURRENT_TERM),
        _plain(registry_intents.enrol_course),
    ),
    "leave_course": (_own, _plain(registry_intents.leave_course)),
    "order_course_pack": (_own, _plain(registry_intents.order_pack)),
    "course_progress": (_own, _plain(registry_intents.course_progress)),
    "request_extension": (
        lambda w, rng: _pairs(w, rng, "assignments", lambda a: _current(w, a)),
        coursework_intents.request_extension,
    ),
    "hand_in_late": (
        lambda w, rng: [
            (w["people"][e["student_id"]], a)
            for e in _records(w, "enrolments")
            for a in _records(w, "assignments")
            if a["course_id"] == e["course_id"] and e["status"] == "enrolled"
        ],
        coursework_intents.hand_in_late,
    ),
    "book_tutoring": (
        lambda w, rng: _pairs(w, rng, "tutoring_slots", lambda s: s["status"] == "open"),
        coursework_intents.book_tutoring,
    ),
    "change_grade": (_instructors, grade_intents.change_grade),
}
"""Each intent: the (person, record) pairs its tasks may be about, and its reference solver."""
PLAIN_PER_WORLD = {"course_progress": 3}
TRAPS_PER_WORLD = {"course_progress": 0, "request_extension": 2}
LIMIT = 500
"""Subjects tried per intent and world: enough to find every case, few enough to build quickly."""


def _kinds(traps: list[FactoryTask], count: int, lead: int) -> list[FactoryTask]:
    """``count`` traps, one of each kind (the clause it rests on) before a second, starting at kind ``lead``."""
    kinds: dict[str, list[FactoryTask]] = {}
    for task in traps:
        kinds.setdefault((task.trap_rationale or "").split(":")[0], []).append(task)
    queues = [kinds[k] for k in sorted(kinds)]
    queues = queues[lead % len(queues) :] + queues[: lead % len(queues)] if queues else []
    ordered: list[FactoryTask] = []
    while any(queues):
        ordered += [queue.pop(0) for queue in queues if queue]
    return ordered[:count]


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
    lead = int(tag[1:]) - 1
    for index, (intent, (subjects_of, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = subjects_of(world, rng)
        rng.shuffle(subjects)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        asked: set[tuple[str, str]] = set()
        for person, record in subjects[:LIMIT]:
            draft = solve(world, person, record, rng.choice(PERSONAS), rng)
            if draft is None or (person["person_id"], " ".join(draft.goal)) in asked:
                continue
            task = draft.task(f"{intent}-{tag}")
            if accept(task):
                (traps if task.trap else plain).append(task)
                asked.add((person["person_id"], " ".join(draft.goal)))
        wanted_traps = TRAPS_PER_WORLD.get(intent, 1)
        wanted_plain = PLAIN_PER_WORLD.get(intent, 2)
        chosen = _kinds(traps, wanted_traps, lead) + _varied(plain, wanted_plain)
        if len(chosen) < wanted_traps + wanted_plain:
            raise ValueError(f"{intent} in {tag}: {len(traps)} traps and {len(plain)} plain tasks to choose from")
        rng.shuffle(chosen)
        tasks += [t.model_copy(update={"id": f"{intent}-{tag}-{n:02d}"}) for n, t in enumerate(chosen, 1)]
    return tasks
