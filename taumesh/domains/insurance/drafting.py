"""A task while its solver writes it: the steps of every allowed outcome, the statements, the trap, the instruction.

The identity steps are the desk's own (policy section 2): date of birth and ZIP code, or a security code texted to
the phone the policyholder holds, resent up to twice; changing a payout account takes the code only (2.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World
from taumesh.domains.insurance.clock import security_code

MAX_CODES = 3
"""A code texted up to three times (resent twice) is still an allowed verification (2.3)."""
IDENTITY = frozenset({"find_policyholder", "verify_policyholder", "text_security_code", "confirm_security_code"})
CLOSING = "Say yes to an action only once the agent has told you exactly what it will do."


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the policyholder's own when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier(agent_writes: int, trap: bool, user_steps: int) -> Tier:
    """Difficulty from the agent's writes beyond the first, a trap, and the policyholder's own steps."""
    points = max(agent_writes - 1, 0) + (2 if trap else 0) + min(user_steps, 2)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


@dataclass
class Draft:
    """One task being solved for one policyholder."""

    world: World
    holder: dict[str, Any]
    intent: str
    dual: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def holder_id(self) -> str:
        return str(self.holder["policyholder_id"])

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

    def verify(self, code_only: bool = False) -> Draft:
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

    def task(self, task_id: str, writes: frozenset[str]) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        agent_writes = [a for a in gold if a.requestor == "assistant" and a.name in writes and a.name not in IDENTITY]
        user_steps = sum(1 for a in gold if a.requestor == "user")
        trap = self.trap_rationale is not None
        return FactoryTask(
            id=task_id,
            user_id=self.holder_id,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier(len(agent_writes), trap, user_steps),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
