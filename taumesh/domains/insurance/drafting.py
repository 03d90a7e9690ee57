"""A task while its solver writes it: the steps of every allowed outcome, the statements, the trap, the instruction.

The identity steps are the desk's own (policy section 2): date of birth and ZIP code, or a security code texted to
the phone the policyholder holds, resent up to twice; changing a payout account takes the code only (2.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.insurance.agent_tools import AGENT_TOOLS
from taumesh.domains.insurance.clock import security_code
from taumesh.domains.insurance.user_tools import USER_TOOLS

MAX_CODES = 3
"""A code texted up to three times (resent twice) is still an allowed verification (2.3)."""
IDENTITY = frozenset({"find_policyholder", "verify_policyholder", "text_security_code", "confirm_security_code"})
WRITES = frozenset(tool.name for tool in (*AGENT_TOOLS, *USER_TOOLS) if tool.writes)
"""The tools that change the world: an agent's write beyond the first makes a task harder."""
CLOSING = "Say yes to an action only once the agent has told you exactly what it will do."


def tier(agent_writes: int, trap: bool, user_steps: int) -> Tier:
    """Difficulty from the agent's writes beyond the first, a trap, and the policyholder's own steps."""
    points = max(agent_writes - 1, 0) + (2 if trap else 0) + min(user_steps, 2)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft(TaskDraft):
    """One task being solved for one policyholder."""

    world: World
    holder: dict[str, Any]
    goal: list[str] = field(default_factory=list)

    @property
    def holder_id(self) -> str:
        return str(self.holder["policyholder_id"])

    def _find(self) -> Action:
        h = self.holder
        return act(
            "find_policyholder", first_name=h["first_name"], last_name=h["last_name"], date_of_birth=h["date_of_birth"]
        )

    def _by_code(self, sent: int) -> list[Action]:
        return [
            self._find(),
            *[act("text_security_code", policyholder_id=self.holder_id) for _ in range(sent)],
            act("read_text_messages", "user"),
            act("confirm_security_code", policyholder_id=self.holder_id, code=security_code(self.holder_id, sent)),
        ]

    def verify(self, code_only: bool = False) -> Self:
        """The unlock (with the phone), then every verification the policy allows for this request."""
        by_details = [
            self._find(),
            act(
                "verify_policyholder",
                policyholder_id=self.holder_id,
                date_of_birth=self.holder["date_of_birth"],
                zip_code=self.holder["zip_code"],
            ),
        ]
        if not self.dual:
            self.cite("2.1", "2.2")
            return self.step("verification by date of birth and ZIP code (2.2)", by_details)
        self.do(act("unlock_phone", "user", passcode=self.world["devices"][self.holder_id]["passcode"]))
        codes = [self._by_code(sent) for sent in range(1, MAX_CODES + 1)]
        if code_only:
            self.cite("2.1", "2.3", "2.4")
            return self.step("verification by security code only, resent or not (2.3, 2.4)", *codes)
        self.cite("2.1", "2.2", "2.3")
        return self.step(
            "verification: either method, a code resent or not (2.2, 2.3)", codes[0], by_details, *codes[1:]
        )

    def instruction(self) -> str:
        h = self.holder
        who = (
            f"You are {h['first_name']} {h['last_name']}, born {h['date_of_birth']}; your ZIP code is {h['zip_code']}."
        )
        if self.dual:
            passcode = self.world["devices"][self.holder_id]["passcode"]
            who += (
                f" Your phone is with you and its passcode is {passcode}: use it when the agent asks you to read a"
                " text or upload something."
            )
        return " ".join([who, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        agent_writes = [
            a for a in self.gold if a.requestor == "assistant" and a.name in WRITES and a.name not in IDENTITY
        ]
        user_steps = sum(1 for a in self.gold if a.requestor == "user")
        return self.factory_task(
            task_id, self.holder_id, self.instruction(), tier(len(agent_writes), self.is_trap, user_steps)
        )
