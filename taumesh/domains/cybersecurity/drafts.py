"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk proves a caller (policy 2.1), how the
caller is introduced in the instruction (with what they would know: their email, desk PIN and, for intents where
they act on their phone, its app PIN), and how a task's tier follows from what it asks of the agent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Caller = dict[str, Any]
WRITES = frozenset(
    {
        "open_incident",
        "attach_device_check",
        "isolate_asset",
        "release_asset",
        "close_incident",
        "transfer_to_human_agents",
        "bind_authenticator",
        "schedule_remediation",
        "accept_risk",
        "generate_audit_report",
    }
)
CLOSING = "Agree to a change only after the agent has told you exactly what it will do."


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain write; medium: a trap, the phone, or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one caller."""

    world: World
    caller: Caller
    persona: str
    phone: bool = False
    """Whether the intent may ask the caller to act on their phone: the instruction then gives its app PIN."""
    goal: list[str] = field(default_factory=list)

    @property
    def eid(self) -> str:
        return str(self.caller["employee_id"])

    def identify(self) -> Self:
        """The desk finds the caller by email and verifies their desk PIN (2.1)."""
        self.cite("2.1", "2.3")
        find = act("find_employee", email=self.caller["email"])
        return self.do(find, act("verify_employee", employee_id=self.eid, desk_pin=self.caller["desk_pin"]))

    def instruction(self) -> str:
        c = self.caller
        name = f"{c['first_name']} {c['last_name']}"
        unit = self.world["business_units"][c["business_unit_id"]]["name"]
        job = "a security analyst" if c["role"] == "analyst" else f"a staff member in {unit}"
        who = (
            f"You are {name}, {job} at Ashgrove Holdings, calling the security operations desk. Your work email is"
            f" {c['email']} and your desk PIN is {c['desk_pin']}."
        )
        if self.phone:
            pin = self.world["phones"][self.eid]["app_pin"]
            who += f" The apps on your work phone open with your email and the app PIN {pin}."
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        """The task, dual control when its gold has the caller act on their phone (a trap may stop before that)."""
        self.dual = any(a.requestor == "user" for a in self.gold)
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        tier = tier_of(len(writes), self.is_trap, self.dual, transfer)
        return self.factory_task(task_id, self.eid, self.instruction(), tier)
