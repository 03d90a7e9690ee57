"""A task being solved: the grower, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft opens with the identity check every task needs (policy 2.1),
signs the grower in to their field app first when the task needs the app (dual control), and writes the
instruction from one template per intent, so that no sentence tells a trap from a plain task.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Grower = dict[str, Any]
READS = frozenset(
    {
        "get_grower",
        "list_fields",
        "get_field",
        "get_probe_readings",
        "get_forecast",
        "list_products",
        "list_spray_jobs",
        "list_irrigation_events",
        "list_yield_records",
        "list_plantings",
        "calculate",
    }
)
IDENTITY = frozenset({"find_grower", "verify_grower"})
CLOSING = "Agree to a change only after the agent has said exactly what it will do."


def tier_of(trap: bool, dual: bool, transfer: bool, statements: int) -> Tier:
    """Easy: a plain change; medium: one of a trap, the app, a hand-off or a figure to state; hard: two or more."""
    weight = trap + dual + transfer + (statements > 0)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one grower."""

    world: World
    grower: Grower
    persona: str = ""
    goal: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        g = self.grower
        self.cite("1.1", "2.1", "3.3")
        self.do(
            act("find_grower", first_name=g["first_name"], last_name=g["last_name"], farm_name=g["farm_name"]),
            act("verify_grower", grower_id=self.gid, member_number=g["member_number"], postal_code=g["postal_code"]),
        )

    @property
    def gid(self) -> str:
        return str(self.grower["grower_id"])

    @property
    def app(self) -> dict[str, Any]:
        found: dict[str, Any] = self.world["field_apps"][self.gid]
        return found

    def sign_in(self) -> Self:
        """The grower signs in to their field app (dual control)."""
        self.dual = True
        return self.do(act("sign_in_to_field_app", "user", username=self.app["username"], pin=self.app["pin"]))

    def trap(self, rationale: str, *forbidden: Action) -> Self:
        """A trap, which also cites 1.3: a refusal names the reason that applies to this grower."""
        self.cite("1.3")
        return super().trap(rationale, *forbidden)

    def instruction(self) -> str:
        g = self.grower
        who = (
            f"You are {g['first_name']} {g['last_name']}, who runs {g['farm_name']}; your co-op member number is"
            f" {g['member_number']} and the farm's postal code is {g['postal_code']}."
        )
        if self.dual:
            who += (
                f" You have the FieldLink app on your phone (username {self.app['username']}, PIN"
                f" {self.app['pin']}); sign in and use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        tier = tier_of(self.is_trap, self.dual, transfer, len(self.statements))
        return self.factory_task(task_id, self.gid, self.instruction(), tier)
