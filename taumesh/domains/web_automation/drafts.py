"""A task being solved: the member, the steps of every allowed outcome, what must be said, and its instruction.

Every intent's solver fills a :class:`Draft`. The draft knows how the desk identifies a member (policy 2.1) and
learns their team (2.3), how the member is described in the instruction (with what they would know: their name,
employee number and passphrase), and how a tier is read from what the task asks of the agent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, Tier, World

Member = dict[str, Any]
WRITES = frozenset(
    {
        "run_extraction",
        "create_schedule",
        "pause_schedule",
        "delete_schedule",
        "create_watch",
        "acknowledge_change",
        "export_extraction",
        "submit_form",
        "link_account",
        "transfer_to_human_agents",
    }
)
CLOSING = "Agree to a change only after the agent has told you exactly what it is going to do."


def act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    """A gold action (the member's own, in their browser or authenticator, when ``requestor`` is ``"user"``)."""
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def tier_of(writes: int, trap: bool, dual: bool) -> Tier:
    """Easy: a plain request; medium: a trap or the member's own device; hard: both."""
    weight = trap + dual + (writes > 1)
    return "easy" if weight == 0 else "medium" if weight == 1 else "hard"


@dataclass
class Draft:
    """A task being solved for one member."""

    world: World
    member: Member
    intent: str
    manner: str
    dual: bool = False
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    @property
    def mid(self) -> str:
        return str(self.member["member_id"])

    @property
    def team(self) -> str:
        return str(self.member["team_id"])

    def do(self, *actions: Action) -> Draft:
        """A step with one alternative: these actions, in order."""
        self.steps.append(Step(why=", ".join(a.name for a in actions), alternatives=[list(actions)]))
        return self

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

    def identify(self) -> Draft:
        """Find and verify the member (2.1), then read their record for their team (2.3)."""
        m = self.member
        find = act(
            "find_member", first_name=m["first_name"], last_name=m["last_name"], employee_number=m["employee_number"]
        )
        self.cite("2.1", "2.3")
        self.do(find, act("verify_member", member_id=self.mid, passphrase=m["passphrase"]))
        return self.do(act("get_member", member_id=self.mid))

    def instruction(self) -> str:
        m = self.member
        team = self.world["teams"][self.team]["name"]
        who = (
            f"You are {m['first_name']} {m['last_name']} of Brightlane's {team} team, writing to the web automation"
            f" desk. Your employee number is {m['employee_number']} and your desk passphrase is '{m['passphrase']}'."
        )
        return " ".join([who, self.manner, *self.goal, CLOSING])

    def task(self, task_id: str) -> FactoryTask:
        gold = [a for step in self.steps for a in step.alternatives[0]]
        writes = [a for a in gold if a.requestor == "assistant" and a.name in WRITES]
        trap = self.trap_rationale is not None
        return FactoryTask(
            id=task_id,
            user_id=self.mid,
            instruction=self.instruction(),
            actions=gold,
            outputs=[s.value for s in self.statements if s.kind != "text"],
            intent=self.intent,
            tier=tier_of(len(writes), trap, self.dual),
            trap=trap,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            dual_control=self.dual,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )
