"""A task as a reference solver builds it: steps, statements, trap and instruction, then the FactoryTask.

The instruction is one template per intent for trap and non-trap tasks alike: who the caller is and how they prove
it, a manner, what they want with the intent's fallback ("if it cannot be done, ..."), the study-app sentence where
the intent uses the participant's app, and the same closing line. Nothing is added for a trap, so nothing cues it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

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


def tier(agent_writes: int, trap: bool, dual: bool) -> Tier:
    """How hard a task is, from its gold.

    Hard: a write other than the one asked for, or app steps beside two writes; medium: a refusal, app steps or two
    writes; easy: one write, as asked.
    """
    if (trap and agent_writes) or (dual and agent_writes >= 2):
        return "hard"
    return "medium" if trap or dual or agent_writes >= 2 else "easy"


@dataclass
class Draft(TaskDraft):
    """A task being solved over one world, for one caller."""

    world: World
    caller: Caller
    manner: str
    role: str
    """Who the caller is, as the instruction says it ("the research coordinator at ...")."""
    app: bool = False
    """Whether the instruction tells the caller how to open their study app."""
    goal: list[str] = field(default_factory=list)

    @property
    def cid(self) -> str:
        return str(self.caller["caller_id"])

    def identify(self, authority: str) -> Self:
        """Find and verify the caller (2.1); ``authority`` is the clause that lets them ask."""
        self.cite("2.1", authority)
        return self.do(
            act("find_caller", email=self.caller["email"]),
            act("verify_caller", caller_id=self.cid, passcode=self.caller["desk_passcode"]),
        )

    def open_app(self) -> Action:
        """The participant's sign-in to their study app, which opens their own steps (dual control)."""
        self.dual = True
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
        agent_writes = [
            a for a in self.gold if a.requestor == "assistant" and a.name in writes and a.name not in identity
        ]
        difficulty = tier(len(agent_writes), self.is_trap, self.dual)
        return self.factory_task(task_id, self.cid, self.instruction(), difficulty)
