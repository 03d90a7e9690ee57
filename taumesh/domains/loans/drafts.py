"""A task being solved: the borrower, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft` (the factory's :class:`~taumesh.domains.factory.TaskDraft` for one
borrower); the draft knows the two verification methods (policy 2.2), that a
code may be resent (2.3), and that a borrower who acts in their app signs in first (dual control).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.loans.clock import app_code

Borrower = dict[str, Any]
CODES_SENT = 3
"""A code resent up to twice is still an allowed verification (policy 2.3)."""
READS = frozenset(
    {
        "get_borrower_profile",
        "list_loans",
        "get_loan_details",
        "list_payments",
        "list_products",
        "list_applications",
        "calculate_monthly_payment",
        "calculate",
    }
)
IDENTITY = frozenset({"find_borrower", "verify_identity", "send_app_code", "verify_app_code"})
CLOSING = "Say yes to a change only once the agent has told you exactly what it will do."


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain change; medium: a trap, the app, or an escalation; hard: two of them or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one borrower."""

    world: World
    borrower: Borrower
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def bid(self) -> str:
        return str(self.borrower["borrower_id"])

    def verify(self) -> Self:
        """Sign in to the app (dual control), find the borrower, then every verification the policy allows."""
        b = self.borrower
        find = act(
            "find_borrower", first_name=b["first_name"], last_name=b["last_name"], date_of_birth=b["date_of_birth"]
        )
        identity = [
            find,
            act(
                "verify_identity", borrower_id=self.bid, ssn_last_four=b["ssn_last_four"], postal_code=b["postal_code"]
            ),
        ]
        self.cite("2.1", "2.2")
        if not self.dual:
            return self.step("identity: SSN digits and postal code (2.2)", identity)
        portal = self.world["portals"][self.bid]
        self.do(act("sign_in_to_app", "user", username=portal["username"], pin=portal["pin"]))
        codes = [
            [
                find,
                *[act("send_app_code", borrower_id=self.bid) for _ in range(sent)],
                act("read_app_messages", "user"),
                act("verify_app_code", borrower_id=self.bid, code=app_code(self.bid, sent)),
            ]
            for sent in range(1, CODES_SENT + 1)
        ]
        self.cite("2.3")
        return self.step("either method, a code resent or not (2.2, 2.3)", codes[0], identity, *codes[1:])

    def instruction(self) -> str:
        b = self.borrower
        who = (
            f"You are {b['first_name']} {b['last_name']}, born {b['date_of_birth']}; the last four digits of your"
            f" Social Security number are {b['ssn_last_four']} and your postal code is {b['postal_code']}."
        )
        if self.dual:
            portal = self.world["portals"][self.bid]
            who += (
                f" You have your lender's banking app on your phone (username {portal['username']}, PIN"
                f" {portal['pin']}); use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        tier = tier_of(len(writes), self.is_trap, self.dual, transfer)
        return self.factory_task(task_id, self.bid, self.instruction(), tier)
