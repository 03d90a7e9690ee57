"""A task being solved: who the client is, what they want, every outcome the policy allows, and what must be said.

A solver fills a :class:`Draft` step by step; :meth:`Draft.task` turns it into a :class:`FactoryTask`. Every client
is found by email and verified by date of birth and postcode (policy 2.1, 2.2); a task is under dual control when
the client acts in their own app in its gold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World
from taumesh.domains.finance.agent_tools import AGENT_TOOLS

IDENTITY = frozenset({"find_client", "verify_client"})
"""The tools that find or verify the caller (the plugin's identity tools)."""
WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
KIND_WORDS = {
    "general": "general investment account",
    "isa": "stocks and shares ISA",
    "pension": "self-invested pension",
}
TAIL = "Answer yes when the agent sets out exactly what it is about to do and asks you to confirm."


def act(tool: str, requestor: str = "assistant", /, **kwargs: Any) -> Action:
    """A gold action (the client's own when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": tool, "kwargs": kwargs, "requestor": requestor})


def tier(writes: int, trap: bool, dual: bool) -> Tier:
    """Difficulty from the agent's writes past identity, a trap's judgement, and the client's own steps."""
    points = writes + (2 if trap else 0) + (2 if dual else 0)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft:
    """One task's solution in the making."""

    world: World
    client: dict[str, Any]
    intent: str
    persona: str
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None
    app: bool = False
    """The intent has the client use their app, so every one of its instructions says it is at hand."""

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

    def want(self, sentence: str) -> Draft:
        self.goal.append(sentence)
        return self

    def verified(self) -> Draft:
        """The client is found by email and verified by date of birth and postcode (2.1, 2.2)."""
        client = self.client
        self.cite("2.1", "2.2")
        return self.do(
            act("find_client", email=client["email"]),
            act(
                "verify_client",
                client_id=client["client_id"],
                date_of_birth=client["date_of_birth"],
                postcode=client["postcode"],
            ),
        )

    def approved_in_app(self, request_id: str) -> list[Action]:
        """The client opens their app and approves the request there (3.2)."""
        self.cite("3.2")
        return [
            act("open_wealth_app", "user", email=self.client["email"]),
            act("approve_request", "user", request_id=request_id),
        ]

    def who(self) -> str:
        """Who the client is and what they know to be verified (their own details, never the answers)."""
        c = self.client
        app = " Your Harrowgate app is open on your phone: use it when the agent asks." if self.app else ""
        return (
            f"You are {c['first_name']} {c['last_name']}, a client of Harrowgate Wealth. Your email is {c['email']},"
            f" your date of birth is {c['date_of_birth']} and your postcode is {c['postcode']}.{app}"
        )

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        writes = [a for a in gold if a.requestor == "assistant" and a.name in WRITES and a.name not in IDENTITY]
        trap = self.trap_rationale is not None
        dual = any(a.requestor == "user" for a in gold)
        return FactoryTask(
            id=task_id,
            user_id=self.client["client_id"],
            instruction=" ".join([self.who(), self.persona, *self.goal, TAIL]),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier(len(writes), trap, dual),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
