"""A task being solved for one developer: how the desk verifies them, and how their instruction reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

CLOSING = "Say yes to a change only once the agent has told you exactly what it will do."
AUTHENTICATOR = "Your authenticator app is on your phone; read its code to the agent only if the agent asks for it."
CODE_WORK = frozenset({"fix_failing_tests"})


@dataclass(kw_only=True)
class Draft(TaskDraft):
    """A task for ``developer`` of ``world``: the person, their manner, and what they ask (``goal``)."""

    world: World
    developer: dict[str, Any]
    persona: str
    goal: list[str] = field(default_factory=list)
    codes: bool = False
    """The intent can need the developer's authenticator code: every task of it says where the app is."""

    @property
    def developer_id(self) -> str:
        return str(self.developer["developer_id"])

    def identify(self) -> Draft:
        """Find the developer by handle and verify them by their account's email (policy 2.1)."""
        d = self.developer
        self.do(
            act("find_developer", handle=d["handle"]),
            act("verify_developer", developer_id=self.developer_id, email=d["email"]),
        )
        self.cite("2.1")
        return self

    def code(self) -> str:
        """The developer reads their authenticator's code in their own app (dual control)."""
        self.dual = True
        self.do(act("read_authenticator_code", "user", handle=self.developer["handle"]))
        return str(self.world["authenticators"][self.developer_id]["code"])

    def instruction(self) -> str:
        d = self.developer
        who = (
            f"You are {d['full_name']}, a developer on the code host; your handle is {d['handle']} and your"
            f" account's email is {d['email']}."
        )
        return " ".join([who, self.persona, *self.goal, *([AUTHENTICATOR] if self.codes else []), CLOSING])

    def tier(self) -> Tier:
        """Easy: one plain change; medium: a trap, the developer's phone or a code fix; hard: two of those."""
        weight = self.is_trap + self.dual + (self.intent in CODE_WORK)
        return "easy" if weight == 0 else "medium" if weight == 1 else "hard"

    def task(self, task_id: str) -> FactoryTask:
        return self.factory_task(task_id, self.developer_id, self.instruction(), self.tier())
