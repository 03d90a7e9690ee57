"""A task being solved for one member: who they are, how the desk identifies them, and how their instruction reads.

Every intent's solver fills a :class:`Draft`, the factory's :class:`~taumesh.domains.factory.TaskDraft` with the
member. The draft knows how the desk identifies a member (policy 2.1) and learns their team (2.3), how the member is
described in the instruction (with what they would know: their name, employee number and passphrase), and how a
tier is read from what the task asks of the agent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Member = dict[str, Any]
WRITES = frozenset(
    {
        "run_extraction",
        "create_schedule",
        "pause_schedule",
        "delete_schedule",
        "create_watch",
        "acknowledge_change",
        "export_extraction",
        "submit_form",
        "link_account",
        "transfer_to_human_agents",
    }
)
CLOSING = "Agree to a change only after the agent has told you exactly what it is going to do."


def tier_of(writes: int, trap: bool, dual: bool) -> Tier:
    """Easy: a plain request; medium: a trap or the member's own device; hard: both."""
    weight = trap + dual + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one member."""

    world: World
    member: Member
    manner: str
    goal: list[str] = field(default_factory=list)

    @property
    def mid(self) -> str:
        return str(self.member["member_id"])

    @property
    def team(self) -> str:
        return str(self.member["team_id"])

    def identify(self) -> Self:
        """Find and verify the member (2.1), then read their record for their team (2.3)."""
        m = self.member
        find = act(
            "find_member", first_name=m["first_name"], last_name=m["last_name"], employee_number=m["employee_number"]
        )
        self.cite("2.1", "2.3")
        self.do(find, act("verify_member", member_id=self.mid, passphrase=m["passphrase"]))
        return self.do(act("get_member", member_id=self.mid))

    def instruction(self) -> str:
        m = self.member
        team = self.world["teams"][self.team]["name"]
        who = (
            f"You are {m['first_name']} {m['last_name']} of Brightlane's {team} team, writing to the web automation"
            f" desk. Your employee number is {m['employee_number']} and your desk passphrase is '{m['passphrase']}'."
        )
        return " ".join([who, self.manner, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES]
        tier = tier_of(len(writes), self.is_trap, self.dual)
        return self.factory_task(task_id, self.mid, self.instruction(), tier)
