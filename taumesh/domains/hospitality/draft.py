"""A task being solved: the steps of every allowed outcome, what the agent must say, and the guest's instruction.

Every solver starts a :class:`Draft` for one guest, lets it add the verification the policy allows (the card and
postal code; with the phone, a code pushed to the hotel app, resent or not), then the intent's own steps, and turns it
into a :class:`~taumesh.domains.factory.FactoryTask`. The instruction is built the same way for an intent's trap and
non-trap tasks: who the guest is, a persona, the goal, and one closing sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.hospitality.clock import app_code

IDENTITY_TOOLS = frozenset({"find_guest", "verify_guest", "send_app_code", "verify_app_code"})
"""The desk's identity checks: finding the guest's profile, then verifying the caller by card or app code."""
MAX_CODES = 2
"""A code resent once is still an allowed verification (policy 2.3)."""
CLOSING = "Agree to a change only after the agent has told you what it will do and what it costs."

Guest = dict[str, Any]


def tier_of(agent_writes: int, trap: bool, guest_steps: int) -> Tier:
    """Difficulty from the agent's writes beyond verification, a trap, and the guest's own steps in the app.

    Easy is one write the guest asked for; a second write, a trap or the guest's phone each make a task harder.
    """
    points = max(agent_writes - 1, 0) + (2 if trap else 0) + min(guest_steps, 2)
    return "easy" if points == 0 else "medium" if points <= 3 else "hard"


@dataclass
class Draft(TaskDraft):
    """One task under construction, for one guest of one world."""

    world: World
    guest: Guest
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def gid(self) -> str:
        return str(self.guest["guest_id"])

    @property
    def pin(self) -> str:
        return str(self.world["phones"][self.gid]["app_pin"])

    def verify(self) -> Self:
        """Find the guest, then every verification the policy allows (2.1-2.3): the app code first with the phone."""
        g = self.guest
        find = act("find_guest", first_name=g["first_name"], last_name=g["last_name"], email=g["email"])
        card = [
            find,
            act("verify_guest", guest_id=self.gid, card_last_four=g["card_last_four"], postal_code=g["postal_code"]),
        ]
        self.cite("2.1", "2.2")
        if not self.dual:
            return self.step("verification by card and postal code (2.2)", card)
        codes = [
            [
                find,
                *[act("send_app_code", guest_id=self.gid) for _ in range(sent)],
                act("open_hotel_app", "user", pin=self.pin),
                act("view_app_inbox", "user"),
                act("verify_app_code", guest_id=self.gid, code=app_code(self.gid, sent)),
            ]
            for sent in range(1, MAX_CODES + 1)
        ]
        self.cite("2.3")
        return self.step(
            "verification: the app code, resent or not, or the card (2.2, 2.3)", codes[0], card, *codes[1:]
        )

    def instruction(self) -> str:
        g = self.guest
        who = (
            f"You are {g['first_name']} {g['last_name']}; the email on your hotel profile is {g['email']}, the card"
            f" on file ends in {g['card_last_four']} and your postal code is {g['postal_code']}."
        )
        if self.dual:
            who += (
                f" You have your phone with the hotel app (its PIN is {self.pin}); use the app when the agent asks"
                " you to read or do something in it."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str, writes: frozenset[str]) -> FactoryTask:
        """The finished task; ``writes`` names the tools that change data (for the tier)."""
        agent_writes = [a for a in self.gold if a.requestor == "assistant" and a.name in writes - IDENTITY_TOOLS]
        guest_steps = sum(1 for a in self.gold if a.requestor == "user")
        tier = tier_of(len(agent_writes), self.is_trap, guest_steps)
        return self.factory_task(task_id, self.gid, self.instruction(), tier)
