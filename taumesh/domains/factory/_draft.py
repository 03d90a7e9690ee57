"""A task being solved: the steps of every allowed outcome, what must be said, the trap, built up by a solver.

Every factory domain's solvers fill a draft the same way: a step of alternatives at a time, the clauses each relies
on, the statements the agent must make, the forbidden write of a trap; then the draft becomes a
:class:`~taumesh.domains.factory.FactoryTask`. :class:`TaskDraft` is that part; a domain subclasses it with who the
caller is, how they are verified and how its instruction reads::

    @dataclass
    class Draft(TaskDraft):
        world: World
        member: dict[str, Any]

        def instruction(self) -> str: ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains import Action
from taumesh.domains.factory._task import FactoryTask, Statement, Step, Tier


def act(name: str, requestor: str = "assistant", /, **kwargs: Any) -> Action:
    """A gold action: the agent's, or the user's own when ``requestor`` is ``"user"``.

    Both are positional-only, so that a tool's own ``name=`` or ``requestor=`` argument passes through ``kwargs``.
    """
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


@dataclass(kw_only=True)
class TaskDraft:
    """What a solver has found so far: the steps, statements, cited clauses, and the trap's rationale and write."""

    intent: str
    dual: bool = False
    """Whether the user acts on their own device or account in the task (dual control)."""
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    def step(self, why: str, *alternatives: list[Action]) -> Self:
        """A step whose outcome takes one of ``alternatives`` (``[]`` among them: the step may be left out)."""
        self.steps.append(Step(why=why, alternatives=list(alternatives)))
        return self

    def do(self, *actions: Action) -> Self:
        """A step with one alternative: these actions, in order."""
        return self.step(", ".join(a.name for a in actions), list(actions))

    def cite(self, *clauses: str) -> Self:
        """The policy clauses the task tests (each once, in the order first cited)."""
        self.clauses += [c for c in clauses if c not in self.clauses]
        return self

    def trap(self, rationale: str, *forbidden: Action) -> Self:
        """A trap: the clause that forbids what the user asks (``rationale``) and the write it forbids."""
        self.trap_rationale = rationale
        self.forbidden = list(forbidden)
        return self

    def say(self, kind: str, value: str, why: str) -> Self:
        """A statement the agent must make (``amount``, ``date`` or ``text``: :class:`Statement`)."""
        self.statements.append(Statement.model_validate({"kind": kind, "value": value, "why": why}))
        return self

    @property
    def gold(self) -> list[Action]:
        """The first allowed outcome: each step's first alternative."""
        return [action for step in self.steps for action in step.alternatives[0]]

    @property
    def is_trap(self) -> bool:
        return self.trap_rationale is not None

    def factory_task(self, task_id: str, user_id: str, instruction: str, tier: Tier) -> FactoryTask:
        """The task this draft solves: τ-bench's fields, its metadata, every allowed outcome and its statements.

        The required outputs are the statements' amounts and dates (a text statement is checked by its phrases only).
        """
        return FactoryTask(
            id=task_id,
            user_id=user_id,
            instruction=instruction,
            actions=self.gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier,
            trap=self.is_trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
