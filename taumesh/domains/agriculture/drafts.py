"""A task being solved: the grower, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft opens with the identity check every task needs (policy 2.1),
signs the grower in to their field app first when the task needs the app (dual control), and writes the
instruction from one template per intent, so that no sentence tells a trap from a plain task.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

Grower = dict[str, Any]
READS = frozenset(
    {
        "get_grower",
        "list_fields",
        "get_field",
        "get_probe_readings",
        "get_forecast",
        "list_products",
        "list_spray_jobs",
        "list_irrigation_events",
        "list_yield_records",
        "list_plantings",
        "calculate",
    }
)
IDENTITY = frozenset({"find_grower", "verify_grower"})
CLOSING = "Agree to a change only after the agent has said exactly what it will do."


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the grower's own, in their app, when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier_of(trap: bool, dual: bool, transfer: bool, statements: int) -> Tier:
    """Easy: a plain change; medium: one of a trap, the app, a hand-off or a figure to state; hard: two or more."""
    weight = trap + dual + transfer + (statements > 0)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft:
    """A task being solved for one grower."""

    world: World
    grower: Grower
    intent: str
    dual: bool = False
    persona: str = ""
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    def __post_init__(self) -> None:
        g = self.grower
        self.cite("1.1", "2.1", "3.3")
        self.do(
            act("find_grower", first_name=g["first_name"], last_name=g["last_name"], farm_name=g["farm_name"]),
            act("verify_grower", grower_id=self.gid, member_number=g["member_number"], postal_code=g["postal_code"]),
        )

    @property
    def gid(self) -> str:
        return str(self.grower["grower_id"])

    @property
    def app(self) -> dict[str, Any]:
        found: dict[str, Any] = self.world["field_apps"][self.gid]
        return found

    def do(self, *actions: Action) -> Draft:
        """A step with one alternative: these actions, in order."""
        self.steps.append(Step(why=", ".join(a.name for a in actions), alternatives=[list(actions)]))
        return self

    def sign_in(self) -> Draft:
        """The grower signs in to their field app (dual control)."""
        self.dual = True
        return self.do(act("sign_in_to_field_app", "user", username=self.app["username"], pin=self.app["pin"]))

    def cite(self, *clauses: str) -> Draft:
        self.clauses += [c for c in clauses if c not in self.clauses]
        return self

    def trap(self, rationale: str, *forbidden: Action) -> Draft:
        self.cite("1.3")
        self.trap_rationale = rationale
        self.forbidden = list(forbidden)
        return self

    def say(self, kind: str, value: str, why: str) -> Draft:
        self.statements.append(Statement.model_validate({"kind": kind, "value": value, "why": why}))
        return self

    def instruction(self) -> str:
        g = self.grower
        who = (
            f"You are {g['first_name']} {g['last_name']}, who runs {g['farm_name']}; your co-op member number is"
            f" {g['member_number']} and the farm's postal code is {g['postal_code']}."
        )
        if self.dual:
            who += (
                f" You have the FieldLink app on your phone (username {self.app['username']}, PIN"
                f" {self.app['pin']}); sign in and use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        trap = self.trap_rationale is not None
        transfer = any(a.name == "transfer_to_human_agents" for a in gold)
        return FactoryTask(
            id=task_id,
            user_id=self.gid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier_of(trap, self.dual, transfer, len(self.statements)),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
