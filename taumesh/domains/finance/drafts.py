"""A task being solved: who the client is, what they want, every outcome the policy allows, and what must be said.

A solver fills a :class:`Draft` step by step; :meth:`Draft.task` turns it into a :class:`FactoryTask`. Every client
is found by email and verified by date of birth and postcode (policy 2.1, 2.2); a task is under dual control when
the client acts in their own app in its gold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act
from taumesh.domains.finance.agent_tools import AGENT_TOOLS

IDENTITY = frozenset({"find_client", "verify_client"})
"""The tools that find or verify the caller (the plugin's identity tools)."""
WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
KIND_WORDS = {
    "general": "general investment account",
    "isa": "stocks and shares ISA",
    "pension": "self-invested pension",
}
TAIL = "Answer yes when the agent sets out exactly what it is about to do and asks you to confirm."


def tier(writes: int, trap: bool, dual: bool) -> Tier:
    """Difficulty from the agent's writes past identity, a trap's judgement, and the client's own steps."""
    points = writes + (2 if trap else 0) + (2 if dual else 0)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft(TaskDraft):
    """One task's solution in the making."""

    world: World
    client: dict[str, Any]
    persona: str
    goal: list[str] = field(default_factory=list)
    app: bool = False
    """The intent has the client use their app, so every one of its instructions says it is at hand."""

    def want(self, sentence: str) -> Draft:
        self.goal.append(sentence)
        return self

    def verified(self) -> Draft:
        """The client is found by email and verified by date of birth and postcode (2.1, 2.2)."""
        client = self.client
        self.cite("2.1", "2.2")
        return self.do(
            act("find_client", email=client["email"]),
            act(
                "verify_client",
                client_id=client["client_id"],
                date_of_birth=client["date_of_birth"],
                postcode=client["postcode"],
            ),
        )

    def approved_in_app(self, request_id: str) -> list[Action]:
        """The client opens their app and approves the request there (3.2)."""
        self.cite("3.2")
        return [
            act("open_wealth_app", "user", email=self.client["email"]),
            act("approve_request", "user", request_id=request_id),
        ]

    def who(self) -> str:
        """Who the client is and what they know to be verified (their own details, never the answers)."""
        c = self.client
        app = " Your Harrowgate app is open on your phone: use it when the agent asks." if self.app else ""
        return (
            f"You are {c['first_name']} {c['last_name']}, a client of Harrowgate Wealth. Your email is {c['email']},"
            f" your date of birth is {c['date_of_birth']} and your postcode is {c['postcode']}.{app}"
        )

    def task(self, task_id: str) -> FactoryTask:
        """The task; it is under dual control when a step of its gold is the client's own, in their app."""
        writes = [a for a in self.gold if a.requestor == "assistant" and a.name in WRITES and a.name not in IDENTITY]
        self.dual = any(a.requestor == "user" for a in self.gold)
        instruction = " ".join([self.who(), self.persona, *self.goal, TAIL])
        difficulty = tier(len(writes), self.is_trap, self.dual)
        return self.factory_task(task_id, self.client["client_id"], instruction, difficulty)
