"""A task being solved: who calls, what they want, every outcome the policy allows, and what must be said.

A solver fills a :class:`Draft` step by step; :meth:`Draft.task` turns it into a :class:`FactoryTask`. The caller's
identity steps are the policy's own: a rep gives their employee number; a client contact reads a code emailed to
them, sent once or resent (only the last counts), so both are allowed outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.sales.agent_tools import AGENT_TOOLS
from taumesh.domains.sales.clock import one_time_code

MAX_CODES = 2
"""A code resent once is still an allowed verification (policy 2.3)."""
ROLE_WORDS = {
    "account_executive": "an account executive",
    "senior_account_executive": "a senior account executive",
    "sales_manager": "a sales manager",
}
IDENTITY = frozenset(
    {"find_rep", "verify_rep", "find_contact", "send_contact_code", "read_mailbox", "verify_contact_code"}
)
"""The tools that find or verify the caller (the plugin's identity tools)."""
WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
TAIL = "When the agent says exactly what it is about to change and asks, say yes."


def tier(writes: int, trap: bool, dual: bool) -> Tier:
    """Difficulty from the agent's writes past identity, a trap's judgement, and the user's own steps."""
    points = writes + (2 if trap else 0) + (2 if dual else 0)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft(TaskDraft):
    """One task's solution in the making."""

    world: World
    user: dict[str, Any]
    """The caller's record: a rep, or a client contact."""
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def user_id(self) -> str:
        return str(self.user.get("rep_id") or self.user["contact_id"])

    def want(self, sentence: str) -> Draft:
        self.goal.append(sentence)
        return self

    def verify_rep(self) -> Draft:
        """The rep is found by email and verified by employee number (2.1, 2.2)."""
        rep = self.user
        self.cite("2.1", "2.2")
        return self.do(
            act("find_rep", email=rep["email"]),
            act("verify_rep", rep_id=rep["rep_id"], employee_number=rep["employee_number"]),
        )

    def verify_contact(self) -> Draft:
        """The contact is found by email, then verified by an emailed code, sent once or resent (2.3)."""
        contact_id = self.user["contact_id"]
        self.cite("2.1", "2.3")
        self.do(act("find_contact", email=self.user["email"]))
        paths = [
            [
                *[act("send_contact_code", contact_id=contact_id) for _ in range(sent)],
                act("read_mailbox", "user", email=self.user["email"]),
                act("verify_contact_code", contact_id=contact_id, code=one_time_code(contact_id, sent)),
            ]
            for sent in range(1, MAX_CODES + 1)
        ]
        return self.step("the emailed code, sent once or resent: only the last counts (2.3)", *paths)

    def who(self) -> str:
        """Who the user is, and what they know to be verified (their own details, never the answers)."""
        user = self.user
        if "rep_id" in user:
            return (
                f"You are {user['first_name']} {user['last_name']}, {ROLE_WORDS[user['role']]} at Northpeak in the"
                f" {user['territory']} territory; your work email is {user['email']} and your employee number is"
                f" {user['employee_number']}."
            )
        account = self.world["accounts"][user["account_id"]]["name"]
        return (
            f"You are {user['first_name']} {user['last_name']}, {user['title']} at {account}, a client of Northpeak;"
            f" your email is {user['email']}. Your email inbox and your e-signature app are open on your laptop:"
            " use them when the agent asks."
        )

    def instruction(self) -> str:
        return " ".join([self.who(), self.persona, *self.goal, TAIL])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES and a.name not in IDENTITY]
        return self.factory_task(task_id, self.user_id, self.instruction(), tier(len(writes), self.is_trap, self.dual))
