"""A task being solved: the requester, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk identifies a requester (policy 2.1), how
the requester is introduced in the instruction (with what they would know: their staff number and passphrase), and
that a data owner whose approval is needed signs in to their approval app first (dual control, 2.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Person = dict[str, Any]
IDENTITY = frozenset({"find_requester", "verify_requester"})
READS = frozenset(
    {
        "get_requester",
        "list_datasets",
        "profile_table",
        "preview_rows",
        "list_cleaned_tables",
        "list_grants",
        "list_reports",
        "list_models",
    }
)
ROLE_WORDS = {
    "analyst": "a data analyst",
    "stakeholder": "a business manager who relies on the analysts' figures",
    "owner": "the data owner responsible for some of the group's customer data sets",
}
CLOSING = "Agree to a change only once the agent has told you exactly what it is about to create or change."


def tier_of(writes: int, trap: bool, dual: bool) -> Tier:
    """Easy: one plain write; medium: a trap, the approval app or two writes; hard: two of those or more."""
    weight = trap + dual + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass(kw_only=True)
class Draft(TaskDraft):
    """A task being solved for one requester."""

    world: World
    requester: Person
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def rid(self) -> str:
        return str(self.requester["requester_id"])

    def identify(self) -> Draft:
        """An owner signs in to their approval app (dual control); the desk finds and verifies the requester (2.1)."""
        r = self.requester
        if self.dual:
            app = self.world["approval_apps"][self.rid]
            self.do(act("approval_app_sign_in", "user", staff_number=app["staff_number"], app_pin=app["app_pin"]))
            self.cite("2.4")
        find = act(
            "find_requester", first_name=r["first_name"], last_name=r["last_name"], staff_number=r["staff_number"]
        )
        self.cite("2.1")
        self.do(find, act("verify_requester", requester_id=self.rid, passphrase=r["passphrase"]))
        return self.do(act("get_requester", requester_id=self.rid))

    def instruction(self) -> str:
        r = self.requester
        who = (
            f"You are {r['first_name']} {r['last_name']}, {ROLE_WORDS[r['role']]} in the {r['team']} team of the"
            f" Northwind retail group, writing to the Northwind Analytics service desk. Your staff number is"
            f" {r['staff_number']} and your desk passphrase is '{r['passphrase']}'."
        )
        if self.dual:
            pin = self.world["approval_apps"][self.rid]["app_pin"]
            who += (
                f" Your data-owner approval app signs in with your staff number and the app PIN {pin}; use it when the"
                " agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        tier = tier_of(len(writes), self.is_trap, self.dual)
        return self.factory_task(task_id, self.rid, self.instruction(), tier)
