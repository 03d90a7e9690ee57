"""A task being solved: who writes in, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk verifies a person (policy 2.1), how the
person introduces themselves in the instruction (a student or an instructor, with what they would know), and that a
student whose portal is needed signs in to it first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Person = dict[str, Any]
WRITES = frozenset(
    {
        "enrol_student",
        "join_waitlist",
        "drop_course",
        "grant_extension",
        "open_late_submission",
        "file_grade_change",
        "book_tutoring",
        "order_course_pack",
        "transfer_to_human_agents",
    }
)
CLOSING = "Agree to a change only after the agent has told you exactly what it is going to do."


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain write or a figure; medium: a trap, the portal or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one person."""

    world: World
    person: Person
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def pid(self) -> str:
        return str(self.person["person_id"])

    def identify(self) -> Self:
        """The student signs in to their portal (dual control); the desk finds and verifies the person (2.1)."""
        p = self.person
        if self.dual:
            pin = self.world["portals"][self.pid]["portal_pin"]
            self.do(act("portal_sign_in", "user", university_number=p["university_number"], portal_pin=pin))
            self.cite("2.4")
        find = act(
            "find_person",
            first_name=p["first_name"],
            last_name=p["last_name"],
            university_number=p["university_number"],
        )
        self.cite("2.1", "2.3")
        return self.do(find, act("verify_identity", person_id=self.pid, date_of_birth=p["date_of_birth"]))

    def instruction(self) -> str:
        p = self.person
        name = f"{p['first_name']} {p['last_name']}"
        role = "a student" if p["role"] == "student" else f"an instructor in {p['department']}"
        who = (
            f"You are {name}, {role} at Kestrel Vale University, writing to student services. Your university"
            f" number is {p['university_number']} and your date of birth is {p['date_of_birth']}."
        )
        if self.dual:
            pin = self.world["portals"][self.pid]["portal_pin"]
            who += (
                f" Your learning portal signs in with your university number and the PIN {pin}; keep the PIN to"
                " yourself and use the portal when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        tier = tier_of(len(writes), self.is_trap, self.dual, transfer)
        return self.factory_task(task_id, self.pid, self.instruction(), tier)
