"""The reference solver interface, and the replay that proves a task's outcomes before it ships.

A solver per intent computes, from a world and the task's parameters, every outcome the policy allows (as
:class:`~taumesh.domains.factory.Step` s) and what the agent must say. :func:`verify_task` then replays each
outcome in a fresh session: none may error, and no forbidden write may lead to an allowed state.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from taumesh.domains import Action, DomainView, Session
from taumesh.domains.factory._task import FactoryTask, Statement, Step
from taumesh.domains.factory._world import World


class Solution(BaseModel):
    """What a solver found the policy allows: the outcome's steps, the statements, and the forbidden writes."""

    steps: list[Step]
    statements: list[Statement] = Field(default_factory=list)
    forbidden: list[Action] = Field(default_factory=list)
    trap_rationale: str | None = None
    clauses: list[str] = Field(default_factory=list)

    @property
    def gold(self) -> list[Action]:
        return [action for step in self.steps for action in step.alternatives[0]]


Solver = Callable[[World, Mapping[str, Any]], Solution]
"""A reference solver: (world, task parameters) -> every allowed outcome."""


def verify_task(domain: DomainView, task: FactoryTask, identity_tools: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with ``task``'s outcomes: an action that errors in one, or a forbidden write that is allowed.

    Each forbidden write is made once the caller is verified (after the gold's last ``identity_tools`` call), then
    the rest of the gold: it must error in no way that hides it, and must lead out of the allowed states.
    """
    problems = []
    allowed = set()
    for number, outcome in enumerate(task.outcomes()):
        session = Session(domain)
        for action in outcome:
            step = session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
            if step.error:
                problems.append(f"outcome {number}: {action.name} errors: {step.observation[:120]}")
        allowed.add(session.data_hash())
    verified = max((i + 1 for i, a in enumerate(task.actions) if a.name in identity_tools), default=0)
    for forbidden in task.forbidden:
        session = Session(domain)
        for action in task.actions[:verified]:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        made = session.call(forbidden.name, copy.deepcopy(forbidden.kwargs), forbidden.requestor)
        for action in task.actions[verified:]:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        if made.error:
            problems.append(f"the forbidden {action_text(forbidden)} errors once verified: the tool forbids it already")
        elif session.data_hash() in allowed:
            problems.append(f"the forbidden {action_text(forbidden)} leads to an allowed state")
    return problems


def action_text(action: Action) -> str:
    """``name({"key": value})``, for messages."""
    return f"{action.name}({json.dumps(action.kwargs, sort_keys=True)})"


def task_record(task: FactoryTask) -> dict[str, Any]:
    """The task as its file holds it: every field, each action's requestor included (the model leaves it out)."""

    def dump(action: Action) -> dict[str, Any]:
        return {"name": action.name, "kwargs": action.kwargs, "requestor": action.requestor}

    record = task.model_dump(mode="json", exclude={"message_history"})
    record["actions"] = [dump(a) for a in task.actions]
    record["forbidden"] = [dump(a) for a in task.forbidden]
    record["steps"] = [
        {"why": step.why, "alternatives": [[dump(a) for a in alternative] for alternative in step.alternatives]}
        for step in task.steps
    ]
    return record
