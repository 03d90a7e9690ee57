"""A task being solved: the steps of every allowed outcome, what the agent must say, and the guest's instruction.

Every solver starts a :class:`Draft` for one guest, lets it add the verification the policy allows (the card and
postal code; with the phone, a code pushed to the hotel app, resent or not), then the intent's own steps, and turns it
into a :class:`~taumesh.domains.factory.FactoryTask`. The instruction is built the same way for an intent's trap and
non-trap tasks: who the guest is, a persona, the goal, and one closing sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World
from taumesh.domains.hospitality.clock import app_code

IDENTITY_TOOLS = frozenset({"find_guest", "verify_guest", "send_app_code", "verify_app_code"})
"""The desk's identity checks: finding the guest's profile, then verifying the caller by card or app code."""
MAX_CODES = 2
"""A code resent once is still an allowed verification (policy 2.3)."""
CLOSING = "Agree to a change only after the agent has told you what it will do and what it costs."

Guest = dict[str, Any]


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the guest's own, in the hotel app, when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier_of(agent_writes: int, trap: bool, guest_steps: int) -> Tier:
    """Difficulty from the agent's writes beyond verification, a trap, and the guest's own steps in the app.

    Easy is one write the guest asked for; a second write, a trap or the guest's phone each make a task harder.
    """
    points = max(agent_writes - 1, 0) + (2 if trap else 0) + min(guest_steps, 2)
    return "easy" if points == 0 else "medium" if points <= 3 else "hard"


@dataclass
class Draft:
    """One task under construction, for one guest of one world."""

    world: World
    guest: Guest
    intent: str
    persona: str
    dual: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def gid(self) -> str:
        return str(self.guest["guest_id"])

    @property
    def pin(self) -> str:
        return str(self.world["phones"][self.gid]["app_pin"])

    def step(self, why: str, *alternatives: list[Action]) -> Draft:
        self.steps.append(Step(why=why, alternatives=list(alternatives)))
        return self

    def do(self, *actions: Action) -> Draft:
        """A step with one alternative: these actions, in order."""
        return self.step(", ".join(a.name for a in actions), list(actions))

    def cite(self, *clauses: str) -> Draft:
        self.clauses += [c for c in clauses if c not in self.clauses]
        return self

    def trap(self, rationale: str, *forbidden: Action) -> Draft:
        self.trap_rationale = rationale
        self.forbidden = list(forbidden)
        return self

    def say(self, kind: str, value: str, why: str) -> Draft:
        self.statements.append(Statement.model_validate({"kind": kind, "value": value, "why": why}))
        return self

    def verify(self) -> Draft:
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
        gold = [a for step in self.steps for a in step.alternatives[0]]
        agent_writes = [a for a in gold if a.requestor == "assistant" and a.name in writes - IDENTITY_TOOLS]
        guest_steps = sum(1 for a in gold if a.requestor == "user")
        trap = self.trap_rationale is not None
        return FactoryTask(
            id=task_id,
            user_id=self.gid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier_of(len(agent_writes), trap, guest_steps),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
