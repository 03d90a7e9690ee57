"""A task as a reference solver builds it: steps, statements, trap and instruction, then the FactoryTask.

The instruction is one template per intent for trap and non-trap tasks alike: who the caller is and how they prove
it, a persona, what they want with the intent's fallback ("if it cannot be done, ..."), the portal sentence where the
intent uses the caller's portal, and the same closing line. Nothing is added for a trap, so nothing can cue it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

Contact = dict[str, Any]
CLOSING = "Say yes to a change only once the agent has told you exactly what it is about to do."
PORTAL = (
    "You can sign in to your project portal with the same email and passphrase; when the agent asks you to do"
    " something there, do it yourself and say when it is done."
)
PERSONAS = [
    "You are on a noisy site and keep your answers short.",
    "You are polite but pressed for time.",
    "You want each step explained before it happens.",
    "You are careful and read back anything that matters.",
    "You are relaxed and chatty, but you stay on the point.",
]


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the caller's own in their portal when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier(agent_writes: int, trap: bool, user_steps: int) -> Tier:
    """How hard a task is, from what its gold does.

    Hard: a write other than the one asked, or the caller's portal steps beside two writes; medium: a refusal, portal
    steps or two writes; easy: one write as asked.
    """
    if (trap and agent_writes) or (user_steps and agent_writes >= 2):
        return "hard"
    return "medium" if trap or user_steps or agent_writes >= 2 else "easy"


def phrases(name: str) -> str:
    """A record name's spellings an agent may use (``rough_in``: ``rough in|rough_in|rough-in``)."""
    return "|".join(dict.fromkeys([name.replace("_", " "), name, name.replace("_", "-")]))


@dataclass
class Draft:
    """A task being solved over one world, for one caller."""

    world: World
    caller: Contact
    intent: str
    persona: str
    role: str
    """Who the caller is, as the instruction says it ("a Stonebridge site manager")."""
    portal: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def cid(self) -> str:
        return str(self.caller["contact_id"])

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

    def verify(self, authority: str) -> Draft:
        """Find and verify the caller (2.1); ``authority`` is the clause that lets them ask."""
        self.cite("2.1", authority)
        return self.do(
            act("find_contact", email=self.caller["email"]),
            act("verify_contact", contact_id=self.cid, passphrase=self.caller["passphrase"]),
        )

    def sign_in(self) -> Action:
        return act("portal_sign_in", "user", email=self.caller["email"], passphrase=self.caller["passphrase"])

    def instruction(self) -> str:
        c = self.caller
        who = (
            f"You are {c['first_name']} {c['last_name']}, {self.role}, calling Stonebridge's project desk. Your email"
            f" on record is {c['email']} and your project desk passphrase is {c['passphrase']}."
        )
        return " ".join([who, self.persona, *self.goal, *([PORTAL] if self.portal else []), CLOSING])

    def task(self, task_id: str, writes: frozenset[str], identity: frozenset[str]) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        agent_writes = [a for a in gold if a.requestor == "assistant" and a.name in writes and a.name not in identity]
        user_steps = sum(1 for a in gold if a.requestor == "user")
        trap = self.trap_rationale is not None
        return FactoryTask(
            id=task_id,
            user_id=self.cid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier(len(agent_writes), trap, user_steps),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=user_steps > 0,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
