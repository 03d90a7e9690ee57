"""A task as a reference solver builds it: steps, statements, trap and instruction, then the FactoryTask.

The instruction is one template per intent for trap and non-trap tasks alike: who the caller is and how they prove
it, a manner, what they want with the intent's fallback ("if it cannot be done, ..."), the study-app sentence where
the intent uses the participant's app, and the same closing line. Nothing is added for a trap, so nothing cues it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

Caller = dict[str, Any]
CLOSING = "Agree to a change only after the agent has said exactly what it is going to do."
APP = (
    "Your Halcyon study app is on your phone: you open it with your email and app PIN {pin}. When the agent asks"
    " you to do something in the app, do it yourself and say when it is done."
)
MANNERS = [
    "You are between two appointments and keep it brief.",
    "You are courteous and want each step explained.",
    "You are a little anxious and ask the agent to repeat anything important.",
    "You are methodical and confirm details back to the agent.",
    "You are friendly and talkative, but you keep to your request.",
]


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the participant's own, in their study app, when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier(agent_writes: int, trap: bool, user_steps: int) -> Tier:
    """How hard a task is, from its gold.

    Hard: a write other than the one asked for, or app steps beside two writes; medium: a refusal, app steps or two
    writes; easy: one write, as asked.
    """
    if (trap and agent_writes) or (user_steps and agent_writes >= 2):
        return "hard"
    return "medium" if trap or user_steps or agent_writes >= 2 else "easy"


@dataclass
class Draft:
    """A task being solved over one world, for one caller."""

    world: World
    caller: Caller
    intent: str
    manner: str
    role: str
    """Who the caller is, as the instruction says it ("the research coordinator at ...")."""
    app: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def cid(self) -> str:
        return str(self.caller["caller_id"])

    def do(self, *actions: Action) -> Draft:
        """One step with a single alternative: these actions, in order."""
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

    def identify(self, authority: str) -> Draft:
        """Find and verify the caller (2.1); ``authority`` is the clause that lets them ask."""
        self.cite("2.1", authority)
        return self.do(
            act("find_caller", email=self.caller["email"]),
            act("verify_caller", caller_id=self.cid, passcode=self.caller["desk_passcode"]),
        )

    def open_app(self) -> Action:
        return act("app_sign_in", "user", email=self.caller["email"], pin=self.caller["app_pin"])

    def instruction(self) -> str:
        c = self.caller
        who = (
            f"You are {c['first_name']} {c['last_name']}, {self.role}, contacting Halcyon's trial operations desk."
            f" Your email on record is {c['email']} and your desk passcode is {c['desk_passcode']}."
        )
        app = [APP.format(pin=c["app_pin"])] if self.app else []
        return " ".join([who, self.manner, *self.goal, *app, CLOSING])

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
