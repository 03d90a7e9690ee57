"""A task as a reference solver builds it: its steps, statements, trap and instruction, then the FactoryTask.

The instruction is one template per intent for trap and non-trap tasks alike: who the caller is, a persona, what
they want with the intent's fallback ("if it cannot be done, ..."), the portal sentence where the intent uses the
portal, and the same closing line. No sentence is added for a trap, so none can cue it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.hr.world import SITES, tag_of

Employee = dict[str, Any]
IDENTITY_TOOLS = frozenset({"find_employee", "verify_employee"})
"""The desk's identity checks: finding the caller by work email, then verifying them (policy 2.1). The portal code of
a contact change (10.1) confirms the change, not the caller, so it is not one of them."""
CLOSING = "Agree to a change only once the agent has told you exactly what it will do."
PERSONAS = [
    "You are friendly and get to the point.",
    "You are between two meetings and want this settled fast.",
    "You are a little worried and ask the agent to repeat anything important.",
    "You like to understand the reason behind each step.",
    "You are calm and precise, and answer only what you are asked.",
]


def tier(agent_writes: int, trap: bool, user_steps: int) -> Tier:
    """Hard: an alternative write instead of the one asked, or the employee's own steps between two writes."""
    if (trap and agent_writes) or (user_steps and agent_writes >= 2):
        return "hard"
    return "medium" if trap or user_steps or agent_writes >= 2 else "easy"


@dataclass
class Draft(TaskDraft):
    """A task being solved over one world, for one caller."""

    world: World
    employee: Employee
    persona: str
    portal: bool = False
    """The intent uses the employee's portal: the instruction gives its PIN (in trap and plain tasks alike)."""
    goal: list[str] = field(default_factory=list)

    @property
    def eid(self) -> str:
        return str(self.employee["employee_id"])

    @property
    def pin(self) -> str:
        return str(self.world["portal_accounts"][self.eid]["pin"])

    def identity(self) -> list[Action]:
        e = self.employee
        return [
            act("find_employee", work_email=e["work_email"]),
            act(
                "verify_employee",
                employee_id=self.eid,
                date_of_birth=e["date_of_birth"],
                ssn_last_four=e["ssn_last_four"],
            ),
        ]

    def verify(self, optional: bool = False) -> Draft:
        """The identity check (2.1); ``optional``: a transfer may go without it too (11.2)."""
        self.cite("2.1")
        if optional:
            return self.step("verification, or none before a transfer (11.2)", self.identity(), [])
        return self.step("verification (2.1)", self.identity())

    def instruction(self) -> str:
        e = self.employee
        who = (
            f"You are {e['first_name']} {e['last_name']} and work at Northwind's {SITES[tag_of(self.eid)]} site;"
            f" your work email is {e['work_email']}, the date of birth on your HR record is {e['date_of_birth']},"
            f" and the last four digits of your social security number are {e['ssn_last_four']}."
        )
        portal = (
            [
                f"Your self-service portal PIN is {self.pin}; use the portal yourself when the agent asks you to do"
                " something there, and say when it is done."
            ]
            if self.portal
            else []
        )
        return " ".join([who, self.persona, *self.goal, *portal, CLOSING])

    def task(self, task_id: str, writes: frozenset[str]) -> FactoryTask:
        """The task; it is dual control when the employee acts in their portal in the gold outcome."""
        agent_writes = [
            a for a in self.gold if a.requestor == "assistant" and a.name in writes and a.name not in IDENTITY_TOOLS
        ]
        user_steps = sum(1 for a in self.gold if a.requestor == "user")
        self.dual = user_steps > 0
        task_tier = tier(len(agent_writes), self.is_trap, user_steps)
        return self.factory_task(task_id, self.eid, self.instruction(), task_tier)
