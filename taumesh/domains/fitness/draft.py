"""A task being solved: the member, the steps of every allowed outcome, what must be said, and the instruction.

The instruction is the member's identity, one goal template per intent (the same for trap and non-trap tasks, so no
sentence cues a trap), a persona, and a closing line on confirmations. The tier follows from what the agent must do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
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


@dataclass
class Draft(TaskDraft):
    """A task about one member: the desk verifies them first (1.1, 1.2), so every task cites those clauses."""

    world: World
    member: dict[str, Any]
    persona: str
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=lambda: ["1.1", "1.2"], kw_only=True)

    @property
    def mid(self) -> str:
        return str(self.member["member_id"])

    @property
    def club(self) -> str:
        return str(self.member["home_club_id"])

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

    def tier(self) -> Tier:
        """easy: one plain write; medium: one more demand (a trap, the watch, a second duty); hard: two or more."""
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in IDENTITY_TOOLS and _writes(a)]
        duties = len(writes) + len(self.statements)
        demands = int(self.is_trap) + int(self.dual) + int(duties >= 2)
        return "easy" if demands == 0 else "medium" if demands == 1 else "hard"

    def task(self, task_id: str) -> FactoryTask:
        return self.factory_task(task_id, self.mid, self.instruction(), self.tier())


WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
"""The agent's tools that change the club's data (what the tier counts)."""


def _writes(action: Action) -> bool:
    return action.name in WRITES
