"""A factory task: τ-bench's task, what it tests (metadata), every outcome the policy allows, and what must be said.

The allowed outcomes are written as steps (:class:`Step`): each offers alternatives (a list of actions, possibly
empty for an optional step), and an allowed outcome takes one alternative of every step, in order. Ties (two
providers at the earliest time), optional steps and alternative verification paths are each one step. ``actions``,
τ-bench's gold, is the first alternative of every step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from taumesh.domains import Action, Task

Tier = Literal["easy", "medium", "hard"]
StatementKind = Literal["text", "amount", "date"]


class Step(BaseModel):
    """One step of the outcome: its alternatives (each a list of actions; ``[]`` makes the step optional)."""

    model_config = ConfigDict(frozen=True)

    why: str
    """What the step does, and why it has the alternatives it has ("either verification method: policy 1.2")."""
    alternatives: list[list[Action]] = Field(min_length=1)


class Statement(BaseModel):
    """Something the agent must say, checked by a predicate rather than as a substring.

    ``amount``: some number in the agent's messages equals ``value`` (to the cent, with or without ``$`` and
    cents); ``date``: the agent names the date ``value`` (``YYYY-MM-DD``) in any usual spelling; ``text``: one of
    ``value``'s ``|``-separated phrases appears, case folded.
    """

    model_config = ConfigDict(frozen=True)

    kind: StatementKind
    value: str
    why: str
    """The policy clause that makes the agent say it, and what it tells the user."""


class TaskMeta(BaseModel):
    """What a task tests: its intent, tier, trap (with its rationale), policy clauses, forbidden writes, control."""

    intent: str
    tier: Tier = "easy"
    trap: bool = False
    """The policy's outcome is a refusal, a transfer or less than the user asks for."""
    trap_rationale: str | None = None
    """Why the asked-for write is forbidden here, citing the clause (required for a trap)."""
    clauses: list[str] = Field(default_factory=list)
    """The policy clauses (:class:`~taumesh.domains.factory.Clause` ids) the task tests."""
    forbidden: list[Action] = Field(default_factory=list)
    """Writes the policy forbids here; no allowed outcome may contain one."""
    dual_control: bool = False
    """The user acts on their own device too (their actions are gold actions with the user as requestor)."""

    @model_validator(mode="after")
    def _trap_explained(self) -> TaskMeta:
        if self.trap and not self.trap_rationale:
            raise ValueError("a trap needs its trap_rationale: why the asked-for write is forbidden here")
        if self.trap and not self.forbidden:
            raise ValueError("a trap names the write it forbids (forbidden)")
        return self


class FactoryTask(TaskMeta, Task):
    """A task built by the factory: τ-bench's fields, its metadata, its allowed outcomes and its statements."""

    LABELS: ClassVar[tuple[str, ...]] = ("intent", "tier", "trap", "dual_control")
    """The fields the viewer shows and filters by."""

    steps: list[Step] = Field(default_factory=list)
    """Every allowed outcome, as steps; empty: the gold ``actions`` is the only one."""
    statements: list[Statement] = Field(default_factory=list)
    """What the agent must say (refusal reasons, amounts, dates), each checked by its predicate."""
    solver: str | None = None
    """The reference solver (intent) that computed ``steps`` and ``statements``."""

    @model_validator(mode="after")
    def _gold_is_first_outcome(self) -> FactoryTask:
        if self.steps and [a for step in self.steps for a in step.alternatives[0]] != self.actions:
            raise ValueError("actions must be the first alternative of every step, in order")
        return self

    def outcomes(self) -> Iterator[list[Action]]:
        """Every allowed outcome's actions, the gold first."""
        if not self.steps:
            yield list(self.actions)
            return
        for choice in itertools.product(*(step.alternatives for step in self.steps)):
            yield [action for alternative in choice for action in alternative]

    def outcome_count(self) -> int:
        count = 1
        for step in self.steps:
            count *= len(step.alternatives)
        return count
