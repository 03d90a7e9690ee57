"""A task being solved: who calls, what they want, every outcome the policy allows, and what must be said.

A solver fills a :class:`Draft` step by step; :meth:`Draft.task` turns it into a :class:`FactoryTask`. Every caller
is an advertiser's registered contact, found by email and verified by their account PIN (policy 2.1, 2.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.advertising.agent_tools import AGENT_TOOLS
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

IDENTITY = frozenset({"find_advertiser", "verify_advertiser"})
"""The tools that find or verify the caller (the plugin's identity tools)."""
WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
TAIL = (
    "When the agent says exactly what it is about to change and asks, say yes; when it asks you to approve a change"
    " request in your dashboard, open the dashboard and approve the request it names."
)


def act(tool: str, requestor: str = "assistant", /, **kwargs: Any) -> Action:
    """A gold action (the user's own when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": tool, "kwargs": kwargs, "requestor": requestor})


def tier(writes: int, trap: bool, dual: bool, reads: int) -> Tier:
    """Difficulty from the agent's writes past identity, a trap's judgement, the user's own steps and the lookups."""
    points = writes + (2 if trap else 0) + (3 if dual else 0) + (1 if reads >= 3 else 0)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft:
    """One task's solution in the making."""

    world: World
    advertiser: dict[str, Any]
    intent: str
    persona: str
    case: str = "plain"
    """Which of the intent's cases this is (a trap's reason), so that the worlds' tasks can vary them."""
    dual: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    def step(self, why: str, *alternatives: list[Action]) -> Draft:
        self.steps.append(Step(why=why, alternatives=list(alternatives)))
        return self

    def do(self, *actions: Action) -> Draft:
        """A step with one alternative: these actions, in order."""
        return self.step(", ".join(a.name for a in actions), list(actions))

    def cite(self, *clauses: str) -> Draft:
        self.clauses += [c for c in clauses if c not in self.clauses]
        return self

    def trap(self, case: str, rationale: str, *forbidden: Action) -> Draft:
        self.case = case
        self.trap_rationale = rationale
        self.forbidden = list(forbidden)
        return self

    def say(self, kind: str, value: str, why: str) -> Draft:
        self.statements.append(Statement.model_validate({"kind": kind, "value": value, "why": why}))
        return self

    def want(self, sentence: str) -> Draft:
        self.goal.append(sentence)
        return self

    def verify(self) -> Draft:
        """The advertiser is found by email and verified by account PIN (2.1, 2.2)."""
        advertiser = self.advertiser
        self.cite("2.1", "2.2")
        return self.do(
            act("find_advertiser", email=advertiser["email"]),
            act("verify_advertiser", advertiser_id=advertiser["advertiser_id"], account_pin=advertiser["account_pin"]),
        )

    def approve_in_dashboard(self, request_id: str) -> Draft:
        """The advertiser opens their dashboard and approves the request the desk prepared (3.2, dual control)."""
        self.dual = True
        return self.cite("3.2").do(
            act("open_dashboard", "user", email=self.advertiser["email"]),
            act("approve_change_request", "user", request_id=request_id),
        )

    def instruction(self) -> str:
        advertiser = self.advertiser
        who = (
            f"You are {advertiser['contact_name']}, who runs the Kestrel Ads account of {advertiser['company']}; you"
            f" sign in with {advertiser['email']} and your account PIN is {advertiser['account_pin']}. Your ads"
            " dashboard is open on your laptop."
        )
        return " ".join([who, self.persona, *self.goal, TAIL])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        agent = [a for a in gold if a.requestor == "assistant" and a.name not in IDENTITY]
        writes = [a for a in agent if a.name in WRITES]
        trap = self.trap_rationale is not None
        return FactoryTask(
            id=task_id,
            user_id=self.advertiser["advertiser_id"],
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier(len(writes), trap, self.dual, len(agent) - len(writes)),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
