"""A task being solved: the steps of every allowed outcome, what the agent must say, the trap and the instruction.

A solver (``tasks.py``) fills a :class:`Draft` for one client; :meth:`Draft.task` turns it into a
:class:`~taumesh.domains.factory.FactoryTask` whose gold is the first alternative of every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World
from taumesh.domains.real_estate.agent_tools import AGENT_TOOLS

IDENTITY_TOOLS = frozenset({"find_client", "verify_client"})
"""Finding the client, then verifying them (policy 2.1)."""
AGENT_WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes) - IDENTITY_TOOLS
CLOSING = (
    "When the agent says exactly what it is about to do, answer yes if it is what you asked for."
    " End the conversation once you have what you came for or know why you cannot have it."
)
"""The last sentences of every instruction, trap or not."""


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the client's own when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier(agent_writes: int, client_acts: bool, trap: bool) -> Tier:
    """Easy: one thing to do; medium: two; hard: three or more (writes, the client's own part, a trap)."""
    load = agent_writes + client_acts + trap
    return "easy" if load <= 1 else "medium" if load == 2 else "hard"


@dataclass
class Draft:
    """One client's task under construction; the solver adds steps, statements, the goal and any trap."""

    world: World
    client: dict[str, Any]
    intent: str
    portal: bool = False
    """The instruction gives the portal password: the client may act in it (every task of a portal intent)."""
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def cid(self) -> str:
        return str(self.client["client_id"])

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
        """Find the client by name and email, then verify postcode and phone (2.1)."""
        c = self.client
        self.cite("2.1")
        return self.do(
            act("find_client", first_name=c["first_name"], last_name=c["last_name"], email=c["email"]),
            act("verify_client", client_id=self.cid, postcode=c["postcode"], phone_last_four=c["phone"][-4:]),
        )

    def sign_in(self) -> Draft:
        """The client signs in to their portal and looks at it: their part starts here."""
        password = self.world["portals"][self.cid]["password"]
        return self.do(
            act("sign_in_to_portal", "user", email=self.client["email"], password=password),
            act("view_portal", "user"),
        )

    def instruction(self) -> str:
        c = self.client
        who = (
            f"You are {c['first_name']} {c['last_name']}, a client of Larchmont Realty; your email address is"
            f" {c['email']}, your home postcode is {c['postcode']} and your phone number ends in {c['phone'][-4:]}."
        )
        if self.portal:
            password = self.world["portals"][self.cid]["password"]
            who += f" Your client portal's password is {password}; use the portal when the agent asks you to."
        return " ".join([who, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        writes = sum(1 for a in gold if a.requestor == "assistant" and a.name in AGENT_WRITES)
        client_acts = any(a.requestor == "user" for a in gold)
        trap = self.trap_rationale is not None
        return FactoryTask(
            id=task_id,
            user_id=self.cid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier(writes, client_acts, trap),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=client_acts,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
