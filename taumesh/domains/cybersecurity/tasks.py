"""The desk's tasks: per intent, its reference solver, the subjects a world offers it, and how a world's are chosen.

Each world gives every intent two plain tasks and one trap. An intent's instruction is one template for its trap and
plain tasks alike, so that no sentence cues a trap, and a task's number is shuffled among its intent's, so that no
position marks the trap either.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.cybersecurity.analyst_intents import audit_report, close_incident, isolate_host
from taumesh.domains.cybersecurity.drafts import Draft
from taumesh.domains.cybersecurity.staff_intents import (
    accept_risk,
    release_isolation,
    report_phishing,
    reset_mfa,
    schedule_remediation,
)
from taumesh.domains.factory import FactoryTask, World

Subject = dict[str, Any]
Solver = Callable[[World, Subject, random.Random, str], Draft | None]
PERSONAS = [
    "You are calm and precise, and you answer exactly what you are asked.",
    "You are worried you may have caused a problem and apologise more than you need to.",
    "You are between two meetings and want this dealt with briskly.",
    "You are sceptical of security procedures but cooperate once they are explained.",
    "You are friendly and talkative, though you keep coming back to your request.",
]


def _rows(world: World, table: str) -> list[dict[str, Any]]:
    return [record for _, record in sorted(world[table].items())]


def _active(world: World, employee_id: str) -> bool:
    return bool(world["employees"][employee_id]["account_status"] == "active")


def _owned(world: World, asset: dict[str, Any]) -> Subject:
    return {"caller": world["employees"][asset["owner_id"]], "asset": asset}


def _vulnerabilities(world: World) -> list[Subject]:
    found = []
    for v in _rows(world, "vulnerabilities"):
        asset = world["assets"][v["asset_id"]]
        if v["status"] == "open" and _active(world, asset["owner_id"]):
            found.append({**_owned(world, asset), "vulnerability": v})
    return found


def _analysts(world: World) -> list[dict[str, Any]]:
    return [e for e in _rows(world, "employees") if e["role"] == "analyst"]


def _containable(world: World) -> list[Subject]:
    return [
        {"caller": analyst, "incident": incident, "asset": world["assets"][asset_id]}
        for incident in _rows(world, "incidents")
        if incident["status"] == "open"
        for asset_id in incident["asset_ids"]
        if world["assets"][asset_id]["network_state"] == "connected"
        for analyst in _analysts(world)
    ]


def _report_audiences(world: World) -> list[Subject]:
    return [
        {"caller": employee, "unit": unit}
        for unit in _rows(world, "business_units")
        for employee in _rows(world, "employees")
        if _active(world, employee["employee_id"])
    ]


SUBJECTS: dict[str, Callable[[World], list[Subject]]] = {
    "reset_mfa": lambda w: [{"caller": e} for e in _rows(w, "employees")],
    "report_phishing": lambda w: [
        _owned(w, a) for a in _rows(w, "assets") if a["kind"] == "laptop" and _active(w, a["owner_id"])
    ],
    "release_isolation": lambda w: [
        _owned(w, a) for a in _rows(w, "assets") if a["network_state"] == "isolated" and a["health"] == "clean"
    ],
    "schedule_remediation": _vulnerabilities,
    "accept_risk": _vulnerabilities,
    "isolate_host": _containable,
    "close_incident": lambda w: [
        {"caller": a, "incident": i} for i in _rows(w, "incidents") if i["status"] == "open" for a in _analysts(w)
    ],
    "audit_report": _report_audiences,
}
"""What each intent's tasks are about: the callers and records of a world a task may ask about."""
SOLVERS: dict[str, Solver] = {
    "schedule_remediation": schedule_remediation,
    "accept_risk": accept_risk,
    "reset_mfa": reset_mfa,
    "report_phishing": report_phishing,
    "release_isolation": release_isolation,
    "isolate_host": isolate_host,
    "close_incident": close_incident,
    "audit_report": audit_report,
}
"""Each intent's solver, in the order the split files list their tasks: one that never ends in a hand-off first, so
a split's first tasks can be played to their final message."""
PLAIN_PER_WORLD, TRAPS_PER_WORLD = 2, 1


def _fresh_goals_first(candidates: list[FactoryTask], goals: dict[str, str], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, each asking about something the others chosen do not, while that is possible."""
    chosen: list[FactoryTask] = []
    seen: set[str] = set()
    for task in candidates:
        if len(chosen) < count and goals[task.id] not in seen:
            chosen.append(task)
            seen.add(goals[task.id])
    return chosen + [task for task in candidates if task not in chosen][: count - len(chosen)]


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the records of world ``tag``."""
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = SUBJECTS[intent](world)
        rng.shuffle(subjects)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        goals: dict[str, str] = {}
        instructions: set[str] = set()
        for number, subject in enumerate(subjects):
            draft = solve(world, subject, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            task = draft.task(f"{intent}-{tag}-draft{number}")
            if task.instruction in instructions or not accept(task):
                continue
            instructions.add(task.instruction)
            goals[task.id] = " ".join(draft.goal)
            (traps if task.trap else plain).append(task)
        chosen = _fresh_goals_first(traps, goals, TRAPS_PER_WORLD) + _fresh_goals_first(plain, goals, PLAIN_PER_WORLD)
        if len(chosen) < TRAPS_PER_WORLD + PLAIN_PER_WORLD:
            raise ValueError(f"{intent} in {tag}: {len(traps)} traps and {len(plain)} plain tasks to choose from")
        rng.shuffle(chosen)
        tasks += [t.model_copy(update={"id": f"{intent}-{tag}-{n:02d}"}) for n, t in enumerate(chosen, 1)]
    return tasks
