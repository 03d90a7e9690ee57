"""A task being solved: the member, the steps of every allowed outcome, what must be said, and the instruction.

The instruction is the member's identity, one goal template per intent (the same for trap and non-trap tasks, so no
sentence cues a trap), a persona, and a closing line on confirmations. The tier follows from what the agent must do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, StatementKind, Step, Tier, World
from taumesh.domains.fitness.agent_tools import AGENT_TOOLS

IDENTITY_TOOLS = frozenset({"find_member_by_email", "verify_member"})
"""The desk's identity checks (policy 1.1, 1.2)."""
CLOSING = "Agree to a change only once the agent has told you exactly what it will do."
PERSONAS = [
    "You are friendly and chatty.",
    "You are in a hurry and keep your answers short.",
    "You are polite but a little unsure how the app works.",
    "You are direct and expect the agent to be precise.",
    "You type quickly between sets at the gym.",
]


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the member's own when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


@dataclass
class Draft:
    world: World
    member: dict[str, Any]
    intent: str
    persona: str
    dual: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=lambda: ["1.1", "1.2"])
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def mid(self) -> str:
        return str(self.member["member_id"])

    @property
    def club(self) -> str:
        return str(self.member["home_club_id"])

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

    def say(self, kind: StatementKind, value: str, why: str) -> Draft:
        self.statements.append(Statement(kind=kind, value=value, why=why))
        return self

    def verify(self) -> Draft:
        """The account found by email, then the member verified (1.1, 1.2)."""
        m = self.member
        return self.do(
            act("find_member_by_email", email=m["email"]),
            act("verify_member", member_id=self.mid, date_of_birth=m["date_of_birth"], postcode=m["postcode"]),
        )

    def instruction(self) -> str:
        m = self.member
        who = (
            f"You are {m['first_name']} {m['last_name']}, a member of Kestrel Athletic Clubs; your email is"
            f" {m['email']}, you were born on {m['date_of_birth']} and your home postcode is {m['postcode']}."
        )
        return " ".join([who, *self.goal, self.persona, CLOSING])

    def tier(self, gold: list[Action]) -> Tier:
        """easy: one plain write; medium: one more demand (a trap, the watch, a second duty); hard: two or more."""
        writes = [a for a in gold if a.requestor == "assistant" and a.name not in IDENTITY_TOOLS and _writes(a)]
        duties = len(writes) + len(self.statements)
        demands = int(self.trap_rationale is not None) + int(self.dual) + int(duties >= 2)
        return "easy" if demands == 0 else "medium" if demands == 1 else "hard"

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        return FactoryTask(
            id=task_id,
            user_id=self.mid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=self.tier(gold),
            trap=self.trap_rationale is not None,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )


WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
"""The agent's tools that change the club's data (what the tier counts)."""


def _writes(action: Action) -> bool:
    return action.name in WRITES
