"""A task being solved: the steps of every allowed outcome, what the agent must say, the trap and the instruction.

A solver (``tasks.py``) fills a :class:`Draft` for one client; :meth:`Draft.task` turns it into a
:class:`~taumesh.domains.factory.FactoryTask` whose gold is the first alternative of every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.real_estate.agent_tools import AGENT_TOOLS

IDENTITY_TOOLS = frozenset({"find_client", "verify_client"})
"""Finding the client, then verifying them (policy 2.1)."""
AGENT_WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes) - IDENTITY_TOOLS
CLOSING = (
    "When the agent says exactly what it is about to do, answer yes if it is what you asked for."
    " End the conversation once you have what you came for or know why you cannot have it."
)
"""The last sentences of every instruction, trap or not."""


def tier(agent_writes: int, client_acts: bool, trap: bool) -> Tier:
    """Easy: one thing to do; medium: two; hard: three or more (writes, the client's own part, a trap)."""
    load = agent_writes + client_acts + trap
    return "easy" if load <= 1 else "medium" if load == 2 else "hard"


@dataclass
class Draft(TaskDraft):
    """One client's task under construction; the solver adds steps, statements, the goal and any trap."""

    world: World
    client: dict[str, Any]
    portal: bool = False
    """The instruction gives the portal password: the client may act in it (every task of a portal intent)."""
    goal: list[str] = field(default_factory=list)

    @property
    def cid(self) -> str:
        return str(self.client["client_id"])

    def verify(self) -> Self:
        """Find the client by name and email, then verify postcode and phone (2.1)."""
        c = self.client
        self.cite("2.1")
        return self.do(
            act("find_client", first_name=c["first_name"], last_name=c["last_name"], email=c["email"]),
            act("verify_client", client_id=self.cid, postcode=c["postcode"], phone_last_four=c["phone"][-4:]),
        )

    def sign_in(self) -> Self:
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
        """The finished task: dual control when the client acts in it (a portal task's trap may leave them no part)."""
        writes = sum(1 for a in self.gold if a.requestor == "assistant" and a.name in AGENT_WRITES)
        self.dual = any(a.requestor == "user" for a in self.gold)
        return self.factory_task(task_id, self.cid, self.instruction(), tier(writes, self.dual, self.is_trap))
