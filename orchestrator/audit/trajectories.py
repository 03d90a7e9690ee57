"""The floors' trajectories, built from a task alone: which calls they make, and what the agent says at the end.

Each floor is a trajectory an agent could play without solving the task; a valid task fails every one of them.
The gold's own replay (``strict``) and its reorderings (``order_sensitive``) are trajectories too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from taumesh.audit import REFUSAL, FloorName
from taumesh.domains import Action, Domain, Task
from taumesh.models import ToolCall


class Trajectory(BaseModel):
    """Tool calls in order (each with its requestor), then the agent's one message, then the user stops."""

    calls: list[ToolCall] = Field(default_factory=list)
    says: str | None = None
    """The agent's message after the calls; None: it says nothing (the user stops after the calls)."""


@dataclass(frozen=True)
class DomainFacts:
    """What the floors need to know of a domain: which tools write, which verify identity, which lists are sets."""

    writes: frozenset[str]
    user_tools: frozenset[str]
    """Tools on the user's side: a gold action of theirs is the user's call (τ²'s tasks keep the requestor apart)."""
    identity_tools: frozenset[str] | None
    unordered_arguments: Mapping[str, tuple[tuple[str, ...], ...]] | None

    @classmethod
    def of(cls, domain: Domain) -> DomainFacts:
        return cls(
            writes=frozenset(tool.name for tool in domain.tools if tool.writes),
            user_tools=frozenset(tool.name for tool in domain.tools if tool.side == "user"),
            identity_tools=domain.spec.identity_tools,
            unordered_arguments=domain.spec.unordered_arguments,
        )


def calls(actions: Sequence[Action], facts: DomainFacts) -> list[ToolCall]:
    """Gold actions as tool calls, each with an id of the audit's own and its requestor (the user's for its tools)."""
    return [
        ToolCall(
            id=f"audit_{n}",
            name=action.name,
            arguments=json.dumps(action.kwargs),
            requestor="user" if action.name in facts.user_tools else action.requestor,
        )
        for n, action in enumerate(actions)
    ]


def gold(task: Task, facts: DomainFacts) -> Trajectory:
    """Every gold action in order, nothing said: the strict replay whose errors ``gold_replay_error`` names."""
    return Trajectory(calls=calls(task.actions, facts))


def split_outputs(tasks: Sequence[Task]) -> list[str]:
    """Every required output of the split, each once, in the order the tasks first require it."""
    return list(dict.fromkeys(output for task in tasks for output in task.outputs))


def floor(name: FloorName, task: Task, facts: DomainFacts, spam: str) -> Trajectory | None:
    """The trajectory of floor ``name`` for ``task``; None when the domain does not say enough to build it."""
    if name == "null":
        return Trajectory(says=REFUSAL)
    if name == "read_only":
        return Trajectory(calls=calls([a for a in task.actions if a.name not in facts.writes], facts))
    if name == "identity_then_refuse":
        if facts.identity_tools is None:
            return None
        return Trajectory(calls=calls([a for a in task.actions if a.name in facts.identity_tools], facts), says=REFUSAL)
    if name == "outputs_spam":
        return Trajectory(says=spam or REFUSAL)
    return Trajectory(calls=calls([a for a in task.actions if a.name in facts.writes], facts))  # gold_without_outputs


def reorderings(task: Task, facts: DomainFacts) -> list[tuple[str, Trajectory]]:
    """The gold with one declared set of list arguments reversed, for each gold write that passes one of 2+ items.

    Each comes with a sentence naming what was reordered. Reversing is one reordering the domain declares equal.
    """
    declared = facts.unordered_arguments or {}
    variants = []
    for position, action in enumerate(task.actions):
        for group in declared.get(action.name, ()):
            lists = [action.kwargs.get(argument) for argument in group]
            if not all(isinstance(value, list) and len(value) > 1 for value in lists):
                continue
            changed = dict(action.kwargs)
            for argument in group:
                changed[argument] = list(reversed(action.kwargs[argument]))
            actions = list(task.actions)
            actions[position] = action.model_copy(update={"kwargs": changed})
            what = f"{' and '.join(group)} of gold action {position} ({action.name}) in reverse order"
            variants.append((what, Trajectory(calls=calls(actions, facts))))
    return variants


def listed_arguments(task: Task, facts: DomainFacts) -> list[str]:
    """Gold writes passing a list of 2+ items: where an undeclared domain may be order sensitive."""
    return [
        f"{key} of gold action {position} ({action.name})"
        for position, action in enumerate(task.actions)
        if action.name in facts.writes
        for key, value in action.kwargs.items()
        if isinstance(value, list) and len(value) > 1
    ]
