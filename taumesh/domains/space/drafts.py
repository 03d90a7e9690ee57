"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk identifies a caller (policy 2.1), who the
caller is in the instruction (an operator, or a customer's contact, with what they would know), and that an
operator whose approval is needed signs in to their console first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

Caller = dict[str, Any]
READS = frozenset(
    {
        "get_caller",
        "get_customer_account",
        "list_fleet",
        "get_spacecraft",
        "get_telemetry",
        "list_ground_stations",
        "list_passes",
        "list_alarms",
        "list_conjunctions",
        "get_maneuver",
        "calculate",
    }
)
IDENTITY = frozenset({"find_caller", "verify_caller"})
CLOSING = "Say yes to a change only once the agent has told you exactly what it is about to do."


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain write; medium: a trap, the console, or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one caller."""

    world: World
    caller: Caller
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def cid(self) -> str:
        return str(self.caller["caller_id"])

    def identify(self) -> Self:
        """The operator signs in to their console (dual control); the desk finds and verifies the caller (2.1)."""
        c = self.caller
        if self.dual:
            console = self.world["consoles"][self.cid]
            pin = console["console_pin"]
            self.do(act("console_sign_in", "user", operator_number=console["operator_number"], console_pin=pin))
            self.cite("2.4")
        find = act("find_caller", first_name=c["first_name"], last_name=c["last_name"], reference=c["reference"])
        self.cite("2.1", "2.3")
        return self.do(find, act("verify_caller", caller_id=self.cid, passphrase=c["passphrase"]))

    def instruction(self) -> str:
        c = self.caller
        name = f"{c['first_name']} {c['last_name']}"
        if c["role"] == "customer":
            company = self.world["customers"][c["customer_id"]]["name"]
            who = (
                f"You are {name}, who looks after the satellites of {company}, calling Halcyon Orbital's satellite"
                f" operations desk. Your company's account number is {c['reference']} and your desk passphrase is"
                f" '{c['passphrase']}'."
            )
        else:
            who = (
                f"You are {name}, a mission operator at Halcyon Orbital, calling the satellite operations desk."
                f" Your operator number is {c['reference']} and your desk passphrase is '{c['passphrase']}'."
            )
        if self.dual:
            pin = self.world["consoles"][self.cid]["console_pin"]
            who += (
                " Your authenticator console signs in with your operator number and the console PIN"
                f" {pin}; use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        tier = tier_of(len(writes), self.is_trap, self.dual, transfer)
        return self.factory_task(task_id, self.cid, self.instruction(), tier)
