"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk verifies a caller (policy 2.1), who the
caller is in the instruction (operator, planner or buyer, with what they would know), and that an operator who
works on their handheld signs in to it first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

Contact = dict[str, Any]
READS = frozenset(
    {
        "get_contact",
        "list_work_orders",
        "get_work_order",
        "list_line_orders",
        "get_lot",
        "get_ncr",
        "list_lines",
        "list_maintenance_windows",
        "list_shift_runs",
        "calculate",
    }
)
IDENTITY = frozenset({"find_contact", "verify_contact"})
CLOSING = "Agree to a change only after the agent has said exactly what it will do."
ROLE_NAMES = {"operator": "a plant operator", "planner": "a production planner"}


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the operator's own, on their handheld, when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain change; medium: a trap, the handheld, or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft:
    """A task being solved for one caller."""

    world: World
    contact: Contact
    intent: str
    persona: str
    dual: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def cid(self) -> str:
        return str(self.contact["contact_id"])

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

    def verify(self) -> Draft:
        """The operator signs in to their handheld (dual control); the desk finds and verifies the caller (2.1)."""
        c = self.contact
        if self.dual:
            handheld = self.world["handhelds"][self.cid]
            self.do(act("sign_in_to_handheld", "user", badge_number=handheld["badge_number"], pin=handheld["pin"]))
            self.cite("2.4")
        find = act(
            "find_contact", first_name=c["first_name"], last_name=c["last_name"], contact_number=c["contact_number"]
        )
        self.cite("2.1", "2.3")
        return self.do(find, act("verify_contact", contact_id=self.cid, desk_pin=c["desk_pin"]))

    def instruction(self) -> str:
        c = self.contact
        if c["role"] == "buyer":
            company = self.world["customers"][c["customer_id"]]["name"]
            who = (
                f"You are {c['first_name']} {c['last_name']}, a buyer at {company}, calling the plant operations"
                f" desk of Kestrel Forge Components. Your customer account number is {c['contact_number']} and your"
                f" desk PIN is {c['desk_pin']}."
            )
        else:
            who = (
                f"You are {c['first_name']} {c['last_name']}, {ROLE_NAMES[c['role']]} at Kestrel Forge Components,"
                f" calling the plant operations desk. Your badge number is {c['contact_number']} and your desk PIN"
                f" is {c['desk_pin']}."
            )
        if self.dual:
            handheld = self.world["handhelds"][self.cid]
            who += (
                f" Your shop-floor handheld signs in with your badge number and the handheld PIN {handheld['pin']};"
                " use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        writes = [a for a in gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        trap = self.trap_rationale is not None
        transfer = any(a.name == "transfer_to_human_agents" for a in gold)
        return FactoryTask(
            id=task_id,
            user_id=self.cid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier_of(len(writes), trap, self.dual, transfer),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
