"""A task being solved: who calls, what they want, every outcome the policy allows, and what must be said.

A solver fills a :class:`Draft` step by step; :meth:`Draft.task` turns it into a :class:`FactoryTask`. The caller's
identity steps are the manual's section 2: a lawyer by firm email and bar number, a client contact by email, client
number and postcode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.legal.agent_tools import AGENT_TOOLS

IDENTITY = frozenset({"find_attorney", "verify_attorney", "find_contact", "verify_contact"})
"""The tools that find or verify the caller (the plugin's identity tools)."""
WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
ROLE_WORDS = {"partner": "a partner", "senior_associate": "a senior associate", "associate": "an associate"}
TAIL = "When the agent tells you exactly what it is about to change and asks, say yes."


def full_name(person: dict[str, Any]) -> str:
    """A lawyer's or contact's first and last name, as the manual has the agent say it."""
    return f"{person['first_name']} {person['last_name']}"


def tier(writes: int, trap: bool, dual: bool) -> Tier:
    """Difficulty from the agent's writes past identity, a trap's judgement, and the user's own steps."""
    points = writes + (2 if trap else 0) + (2 if dual else 0)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft(TaskDraft):
    """One task's solution in the making."""

    world: World
    user: dict[str, Any]
    """The caller's record: a lawyer, or a client contact."""
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def user_id(self) -> str:
        return str(self.user.get("attorney_id") or self.user["contact_id"])

    def want(self, sentence: str) -> Draft:
        self.goal.append(sentence)
        return self

    def verify(self) -> Draft:
        """The caller found and verified (2.1 or 2.2, and 2.3)."""
        user = self.user
        self.cite("2.3")
        if "attorney_id" in user:
            return self.cite("2.1").do(
                act("find_attorney", email=user["email"]),
                act("verify_attorney", attorney_id=user["attorney_id"], bar_number=user["bar_number"]),
            )
        client = self.world["clients"][user["client_id"]]
        return self.cite("2.2").do(
            act("find_contact", email=user["email"]),
            act(
                "verify_contact",
                contact_id=user["contact_id"],
                client_number=client["client_number"],
                postcode=user["postcode"],
            ),
        )

    def who(self) -> str:
        """Who the user is, and what they know to be verified (their own details, never the answers)."""
        user = self.user
        if "attorney_id" in user:
            return (
                f"You are {full_name(user)}, {ROLE_WORDS[user['role']]} at Larkspur & Vane; your firm email is"
                f" {user['email']} and your bar number is {user['bar_number']}."
            )
        client = self.world["clients"][user["client_id"]]
        speaks = "yourself" if client["kind"] == "individual" else client["name"]
        return (
            f"You are {full_name(user)}, a client of Larkspur & Vane speaking for {speaks}; your email is"
            f" {user['email']}, your client number is {client['client_number']} and your postcode is"
            f" {user['postcode']}. Your client portal is open in your browser: use it when the agent asks."
        )

    def instruction(self) -> str:
        return " ".join([self.who(), self.persona, *self.goal, TAIL])

    def task(self, task_id: str) -> FactoryTask:
        """The task; it is under dual control when a step of its gold is the user's own, in their portal."""
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES and a.name not in IDENTITY]
        self.dual = any(a.requestor == "user" for a in self.gold)
        return self.factory_task(task_id, self.user_id, self.instruction(), tier(len(writes), self.is_trap, self.dual))
