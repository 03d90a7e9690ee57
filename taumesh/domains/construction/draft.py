"""A task as a reference solver builds it: steps, statements, trap and instruction, then the FactoryTask.

The instruction is one template per intent for trap and non-trap tasks alike: who the caller is and how they prove
it, a persona, what they want with the intent's fallback ("if it cannot be done, ..."), the portal sentence where the
intent uses the caller's portal, and the same closing line. Nothing is added for a trap, so nothing can cue it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

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
class Draft(TaskDraft):
    """A task being solved over one world, for one caller."""

    world: World
    caller: Contact
    persona: str
    role: str
    """Who the caller is, as the instruction says it ("a Stonebridge site manager")."""
    portal: bool = False
    goal: list[str] = field(default_factory=list)

    @property
    def cid(self) -> str:
        return str(self.caller["contact_id"])

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
        """The task; it is under dual control when a step of its gold is the caller's own, in their portal."""
        agent_writes = [a for a in self.gold if a.requestor == "assistant" and a.name in writes - identity]
        user_steps = sum(1 for a in self.gold if a.requestor == "user")
        self.dual = user_steps > 0
        return self.factory_task(
            task_id, self.cid, self.instruction(), tier(len(agent_writes), self.is_trap, user_steps)
        )
