"""A task being solved: the caller, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows the two ways of verifying a caller (policy 2.2, 2.3),
that a bank change takes the portal code only (2.4), and that a caller who works in their portal signs in first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains.accounting.clock import portal_code
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

READS = frozenset(
    {
        "get_supplier",
        "list_supplier_invoices",
        "find_invoice",
        "get_purchase_order",
        "get_staff",
        "list_periods",
        "list_accounts",
        "list_tax_codes",
        "list_budgets",
    }
)
IDENTITY = frozenset({"find_caller", "verify_caller", "send_portal_code", "verify_portal_code"})
ROLE_WORDS = {
    "ap_clerk": "an accounts payable clerk",
    "accountant": "an accountant",
    "budget_holder": "a budget holder",
}
CLOSING = "Agree to a change only after the agent has told you exactly what it will record."


def tier_of(writes: int, trap: bool, dual: bool, transfer: bool) -> Tier:
    """Easy: one plain change; medium: a trap, the portal, or a hand-off; hard: two of these or more."""
    weight = trap + dual + transfer + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft(TaskDraft):
    """A task being solved for one caller (a staff record or a supplier record)."""

    world: World
    caller: dict[str, Any]
    persona: str
    goal: list[str] = field(default_factory=list)

    @property
    def is_staff(self) -> bool:
        return "staff_id" in self.caller

    @property
    def cid(self) -> str:
        return str(self.caller["staff_id"] if self.is_staff else self.caller["supplier_id"])

    @property
    def company(self) -> dict[str, Any]:
        company: dict[str, Any] = self.world["companies"][self.caller["company_id"]]
        return company

    @property
    def email(self) -> str:
        return str(self.caller["email"] if self.is_staff else self.caller["contact_email"])

    @property
    def detail(self) -> str:
        return str(self.caller["employee_number"] if self.is_staff else self.caller["tax_id"])

    def verify(self, code_only: bool = False) -> Draft:
        """Find the caller, then each verification the policy allows; in the portal, the caller signs in first."""
        find = act("find_caller", email=self.email)
        by_detail = [find, act("verify_caller", caller_id=self.cid, security_detail=self.detail)]
        self.cite("2.1", "2.2")
        if not self.dual:
            return self.step("identity by the security detail (2.2)", by_detail)
        portal = self.world["portals"][self.cid]
        self.do(act("sign_in_to_portal", "user", username=portal["username"], pin=portal["pin"]))
        by_code = [
            find,
            act("send_portal_code", caller_id=self.cid),
            act("read_portal_inbox", "user"),
            act("verify_portal_code", caller_id=self.cid, code=portal_code(self.cid)),
        ]
        self.cite("2.3")
        if code_only:
            return self.step("identity by the portal code only (2.4)", by_code)
        return self.step("either method of identity (2.2, 2.3)", by_detail, by_code)

    def instruction(self) -> str:
        company = self.company["name"]
        c = self.caller
        if self.is_staff:
            who = (
                f"You are {c['first_name']} {c['last_name']}, {ROLE_WORDS[c['role']]} at {company}; your work email is"
                f" {c['email']} and your employee number is {c['employee_number']}."
            )
        else:
            who = (
                f"You are {c['contact_name']}, the accounts contact of {c['name']}, a supplier to {company}; your email"
                f" is {c['contact_email']} and your company's tax registration number is {c['tax_id']}."
            )
        if self.dual:
            portal = self.world["portals"][self.cid]
            who += (
                f" You can use {company}'s portal on your phone (username {portal['username']}, PIN"
                f" {portal['pin']}); use it when the agent asks you to."
            )
        return " ".join([who, self.persona, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name not in READS | IDENTITY]
        transfer = any(a.name == "transfer_to_human_agents" for a in self.gold)
        tier = tier_of(len(writes), self.is_trap, self.dual, transfer)
        return self.factory_task(task_id, self.cid, self.instruction(), tier)
