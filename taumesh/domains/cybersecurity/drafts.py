"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk proves a caller (policy 2.1), how the
caller is introduced in the instruction (with what they would know: their email, desk PIN and, for intents where
they act on their phone, its app PIN), and how a task's tier follows from what it asks of the agent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

Caller = dict[str, Any]
WRITES = frozenset(
    {
        "open_incident",
        "attach_device_check",
        "isolate_asset",
        "release_asset",
        "close_incident",
        "transfer_to_human_agents",
        "bind_authenticator",
        "schedule_remediation",
        "accept_risk",
        "generate_audit_report",
    }
)
CLOSING = "Agree to a change only after the agent has told you exactly what it will do."


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the employee's own, on their phone, when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain write; medium: a trap, the phone, or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft:
    """A task being solved for one caller."""

    world: World
    caller: Caller
    intent: str
    persona: str
    phone: bool = False
    """Whether the intent may ask the caller to act on their phone: the instruction then gives its app PIN."""
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def eid(self) -> str:
        return str(self.caller["employee_id"])

    def do(self, *actions: Action) -> Draft:
        """A step with one alternative: these actions, in order."""
        self.steps.append(Step(why=", ".join(a.name for a in actions), alternatives=[list(actions)]))
        return self

    def cite(self, *clauses: str) -> Draft:
        self.clauses += [c for c in clauses if c not in self.clauses]
        return self

    def trap(self, rationale: str, *forbidden: Action) -> Draft:
        self.trap_rationale = rationale
        self.forbidden = list(forbidden)
        return self

    def say(self, kind: str, value: str, why: str) -> Draft:
        self.statements.append(Statement.model_validate({"kind": kind, "value": value, "why": why}))
        return self

    def identify(self) -> Draft:
        """The desk finds the caller by email and verifies their desk PIN (2.1)."""
        self.cite("2.1", "2.3")
        find = act("find_employee", email=self.caller["email"])
        return self.do(find, act("verify_employee", employee_id=self.eid, desk_pin=self.caller["desk_pin"]))

    def instruction(self) -> str:
        c = self.caller
        name = f"{c['first_name']} {c['last_name']}"
        unit = self.world["business_units"][c["business_unit_id"]]["name"]
        job = "a security analyst" if c["role"] == "analyst" else f"a staff member in {unit}"
        who = (
            f"You are {name}, {job} at Ashgrove Holdings, calling the security operations desk. Your work email is"
            f" {c['email']} and your desk PIN is {c['desk_pin']}."
        )
        if self.phone:
            pin = self.world["phones"][self.eid]["app_pin"]
            who += f" The apps on your work phone open with your email and the app PIN {pin}."
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        writes = [a for a in gold if a.requestor == "assistant" and a.name in WRITES]
        trap = self.trap_rationale is not None
        dual = any(a.requestor == "user" for a in gold)
        transfer = any(a.name == "transfer_to_human_agents" for a in gold)
        return FactoryTask(
            id=task_id,
            user_id=self.eid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier_of(len(writes), trap, dual, transfer),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
