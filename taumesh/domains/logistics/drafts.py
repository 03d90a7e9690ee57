"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how each caller is verified: a client by account
number and postal code or by a passcode from their tracking app, resent once or not (policy 2.2, 2.3); an operator by
badge (2.4). A client who acts in their app signs in to it first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.logistics.agent_tools import IDENTITY_TOOLS, READ_TOOLS
from taumesh.domains.logistics.clock import app_passcode

Party = dict[str, Any]
PASSCODES = 2
"""A passcode resent once is still an allowed verification (policy 2.3)."""
CLOSING = "Agree to a change only after the agent has said exactly what it will do."


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain change; medium: a trap, the app or a hand-off; hard: two of those or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one caller: a client (``client_id``) or an operator (``operator_id``).

    ``dual`` when the client acts in their tracking app in it.
    """

    world: World
    party: Party
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def operator(self) -> bool:
        return "operator_id" in self.party

    @property
    def pid(self) -> str:
        return str(self.party["operator_id" if self.operator else "client_id"])

    def verify(self) -> Draft:
        """Verify the caller in every way the policy allows (2.1-2.4); a client in their app signs in first."""
        p = self.party
        if self.operator:
            self.cite("2.4")
            return self.do(act("verify_operator", operator_id=self.pid, badge_pin=p["badge_pin"]))
        find = act("find_client", email=p["email"])
        account = [
            find,
            act(
                "verify_client_account",
                client_id=self.pid,
                account_number=p["account_number"],
                postal_code=p["postal_code"],
            ),
        ]
        self.cite("2.1", "2.2")
        if not self.dual:
            return self.step("account number and postal code (2.2)", account)
        app = self.world["tracking_apps"][self.pid]
        self.do(act("sign_in_to_tracking_app", "user", username=app["username"], pin=app["pin"]))
        passcodes = [
            [
                find,
                *[act("send_app_passcode", client_id=self.pid) for _ in range(sent)],
                act("read_app_inbox", "user"),
                act("check_app_passcode", client_id=self.pid, passcode=app_passcode(self.pid, sent)),
            ]
            for sent in range(1, PASSCODES + 1)
        ]
        self.cite("2.3")
        return self.step(
            "either method, the passcode resent once or not (2.2, 2.3)", passcodes[0], account, *passcodes[1:]
        )

    def instruction(self) -> str:
        p = self.party
        if self.operator:
            depot = self.world["depots"][p["depot_id"]]["name"]
            who = (
                f"You are {p['first_name']} {p['last_name']}, an operator at the {depot}; your operator id is"
                f" {self.pid} and your badge PIN is {p['badge_pin']}."
            )
        else:
            who = (
                f"You are {p['first_name']} {p['last_name']} of {p['company']}. The email on your account is"
                f" {p['email']}, your account number is {p['account_number']} and your postal code is"
                f" {p['postal_code']}."
            )
        if self.dual:
            app = self.world["tracking_apps"][self.pid]
            who += (
                f" The Meridian tracking app is on your phone (username {app['username']}, PIN {app['pin']}); use it"
                " when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in READ_TOOLS | IDENTITY_TOOLS]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        difficulty = tier_of(len(writes), self.is_trap, self.dual, transfer)
        return self.factory_task(task_id, self.pid, self.instruction(), difficulty)
