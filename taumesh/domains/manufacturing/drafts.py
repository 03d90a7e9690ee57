"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk verifies a caller (policy 2.1), who the
caller is in the instruction (operator, planner or buyer, with what they would know), and that an operator who
works on their handheld signs in to it first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Contact = dict[str, Any]
READS = frozenset(
    {
        "get_contact",
        "list_work_orders",
        "get_work_order",
        "list_line_orders",
        "get_lot",
        "get_ncr",
        "list_lines",
        "list_maintenance_windows",
        "list_shift_runs",
        "calculate",
    }
)
IDENTITY = frozenset({"find_contact", "verify_contact"})
CLOSING = "Agree to a change only after the agent has said exactly what it will do."
ROLE_NAMES = {"operator": "a plant operator", "planner": "a production planner"}


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain change; medium: a trap, the handheld, or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one caller; ``dual`` when the operator works on their handheld in it."""

    world: World
    contact: Contact
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def cid(self) -> str:
        return str(self.contact["contact_id"])

    def verify(self) -> Draft:
        """The operator signs in to their handheld (dual control); the desk finds and verifies the caller (2.1)."""
        c = self.contact
        if self.dual:
            handheld = self.world["handhelds"][self.cid]
            self.do(act("sign_in_to_handheld", "user", badge_number=handheld["badge_number"], pin=handheld["pin"]))
            self.cite("2.4")
        find = act(
            "find_contact", first_name=c["first_name"], last_name=c["last_name"], contact_number=c["contact_number"]
        )
        self.cite("2.1", "2.3")
        return self.do(find, act("verify_contact", contact_id=self.cid, desk_pin=c["desk_pin"]))

    def instruction(self) -> str:
        c = self.contact
        if c["role"] == "buyer":
            company = self.world["customers"][c["customer_id"]]["name"]
            who = (
                f"You are {c['first_name']} {c['last_name']}, a buyer at {company}, calling the plant operations"
                f" desk of Kestrel Forge Components. Your customer account number is {c['contact_number']} and your"
                f" desk PIN is {c['desk_pin']}."
            )
        else:
            who = (
                f"You are {c['first_name']} {c['last_name']}, {ROLE_NAMES[c['role']]} at Kestrel Forge Components,"
                f" calling the plant operations desk. Your badge number is {c['contact_number']} and your desk PIN"
                f" is {c['desk_pin']}."
            )
        if self.dual:
            handheld = self.world["handhelds"][self.cid]
            who += (
                f" Your shop-floor handheld signs in with your badge number and the handheld PIN {handheld['pin']};"
                " use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        return self.factory_task(
            task_id, self.cid, self.instruction(), tier_of(len(writes), self.is_trap, self.dual, transfer)
        )
