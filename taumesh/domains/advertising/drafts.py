"""A task being solved: who calls, what they want, every outcome the policy allows, and what must be said.

A solver fills a :class:`Draft` step by step; :meth:`Draft.task` turns it into a :class:`FactoryTask`. Every caller
is an advertiser's registered contact, found by email and verified by their account PIN (policy 2.1, 2.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from taumesh.domains import Action
from taumesh.domains.advertising.agent_tools import AGENT_TOOLS
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

IDENTITY = frozenset({"find_advertiser", "verify_advertiser"})
"""The tools that find or verify the caller (the plugin's identity tools)."""
WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
TAIL = (
    "When the agent says exactly what it is about to change and asks, say yes; when it asks you to approve a change"
    " request in your dashboard, open the dashboard and approve the request it names."
)


def tier(writes: int, trap: bool, dual: bool, reads: int) -> Tier:
    """Difficulty from the agent's writes past identity, a trap's judgement, the user's own steps and the lookups."""
    points = writes + (2 if trap else 0) + (3 if dual else 0) + (1 if reads >= 3 else 0)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


class CasedTask(FactoryTask):
    """A task with the case its trap shows, so that a later world's solver can choose another case.

    The case is not shipped (its file holds what every factory task holds): the release hands the earlier worlds'
    tasks to the later worlds' solvers as they are made.
    """

    case: str = Field(default="plain", exclude=True)


@dataclass
class Draft(TaskDraft):
    """One task's solution in the making."""

    world: World
    advertiser: dict[str, Any]
    persona: str
    case: str = "plain"
    """Which of the intent's cases this is (a trap's reason), so that the worlds' tasks can vary them."""
    goal: list[str] = field(default_factory=list)

    def trap_case(self, case: str, rationale: str, *forbidden: Action) -> Draft:
        """A trap (:meth:`trap`) of one of the intent's cases, which the worlds' choices vary."""
        self.case = case
        return self.trap(rationale, *forbidden)

    def want(self, sentence: str) -> Draft:
        self.goal.append(sentence)
        return self

    def verify(self) -> Draft:
        """The advertiser is found by email and verified by account PIN (2.1, 2.2)."""
        advertiser = self.advertiser
        self.cite("2.1", "2.2")
        return self.do(
            act("find_advertiser", email=advertiser["email"]),
            act("verify_advertiser", advertiser_id=advertiser["advertiser_id"], account_pin=advertiser["account_pin"]),
        )

    def approve_in_dashboard(self, request_id: str) -> Draft:
        """The advertiser opens their dashboard and approves the request the desk prepared (3.2, dual control)."""
        self.dual = True
        return self.cite("3.2").do(
            act("open_dashboard", "user", email=self.advertiser["email"]),
            act("approve_change_request", "user", request_id=request_id),
        )

    def instruction(self) -> str:
        advertiser = self.advertiser
        who = (
            f"You are {advertiser['contact_name']}, who runs the Kestrel Ads account of {advertiser['company']}; you"
            f" sign in with {advertiser['email']} and your account PIN is {advertiser['account_pin']}. Your ads"
            " dashboard is open on your laptop."
        )
        return " ".join([who, self.persona, *self.goal, TAIL])

    def task(self, task_id: str) -> CasedTask:
        agent = [a for a in self.gold if a.requestor == "assistant" and a.name not in IDENTITY]
        writes = [a for a in agent if a.name in WRITES]
        task_tier = tier(len(writes), self.is_trap, self.dual, len(agent) - len(writes))
        task = self.factory_task(task_id, self.advertiser["advertiser_id"], self.instruction(), task_tier)
        return CasedTask(**dict(task), case=self.case)
