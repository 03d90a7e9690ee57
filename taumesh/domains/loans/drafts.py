"""A task being solved: the borrower, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`; the draft knows the two verification methods (policy 2.2), that a
code may be resent (2.3), and that a borrower who acts in their app signs in first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World
from taumesh.domains.loans.clock import app_code

Borrower = dict[str, Any]
CODES_SENT = 3
"""A code resent up to twice is still an allowed verification (policy 2.3)."""
READS = frozenset(
    {
        "get_borrower_profile",
        "list_loans",
        "get_loan_details",
        "list_payments",
        "list_products",
        "list_applications",
        "calculate_monthly_payment",
        "calculate",
    }
)
IDENTITY = frozenset({"find_borrower", "verify_identity", "send_app_code", "verify_app_code"})
CLOSING = "Say yes to a change only once the agent has told you exactly what it will do."


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the borrower's own when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain change; medium: a trap, the app, or an escalation; hard: two of them or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft:
    """A task being solved for one borrower."""

    world: World
    borrower: Borrower
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
    def bid(self) -> str:
        return str(self.borrower["borrower_id"])

    def step(self, why: str, *alternatives: list[Action]) -> Draft:
        self.steps.append(Step(why=why, alternatives=list(alternatives)))
        return self

    def do(self, *actions: Action) -> Draft:
        """A step with one alternative: these actions, in order."""
        return self.step(", ".join(a.name for a in actions), list(actions))

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
        """Sign in to the app (dual control), find the borrower, then every verification the policy allows."""
        b = self.borrower
        find = act(
            "find_borrower", first_name=b["first_name"], last_name=b["last_name"], date_of_birth=b["date_of_birth"]
        )
        identity = [
            find,
            act(
                "verify_identity", borrower_id=self.bid, ssn_last_four=b["ssn_last_four"], postal_code=b["postal_code"]
            ),
        ]
        self.cite("2.1", "2.2")
        if not self.dual:
            return self.step("identity: SSN digits and postal code (2.2)", identity)
        portal = self.world["portals"][self.bid]
        self.do(act("sign_in_to_app", "user", username=portal["username"], pin=portal["pin"]))
        codes = [
            [
                find,
                *[act("send_app_code", borrower_id=self.bid) for _ in range(sent)],
                act("read_app_messages", "user"),
                act("verify_app_code", borrower_id=self.bid, code=app_code(self.bid, sent)),
            ]
            for sent in range(1, CODES_SENT + 1)
        ]
        self.cite("2.3")
        return self.step("either method, a code resent or not (2.2, 2.3)", codes[0], identity, *codes[1:])

    def instruction(self) -> str:
        b = self.borrower
        who = (
            f"You are {b['first_name']} {b['last_name']}, born {b['date_of_birth']}; the last four digits of your"
            f" Social Security number are {b['ssn_last_four']} and your postal code is {b['postal_code']}."
        )
        if self.dual:
            portal = self.world["portals"][self.bid]
            who += (
                f" You have your lender's banking app on your phone (username {portal['username']}, PIN"
                f" {portal['pin']}); use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        writes = [a for a in gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        trap = self.trap_rationale is not None
        transfer = any(a.name == "transfer_to_human_agents" for a in gold)
        return FactoryTask(
            id=task_id,
            user_id=self.bid,
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
