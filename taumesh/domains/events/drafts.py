"""A task being solved: who calls, the steps of every allowed outcome, what must be said, the trap, the instruction.

Every intent's solver fills a :class:`Draft`; :meth:`Draft.task` turns it into a :class:`FactoryTask`. The caller's
identity comes first in each: an attendee is verified by booking reference and postcode, or (when the task has them
act in their ticket app) by the sign-in code the app shows, either accepted (policy 2.2) and listed as alternatives
in every attendee's task, the task's own first; an organiser by passphrase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self

from taumesh.domains import Action
from taumesh.domains.events.clock import sign_in_code
from taumesh.domains.factory import FactoryTask, TaskDraft, Tier, World, act

IDENTITY = frozenset({"find_attendee", "verify_booking_holder", "check_app_code", "find_organiser", "verify_organiser"})
"""The tools that find or verify the caller."""
TAIL = "Say yes only once the agent has told you exactly what it will do."
"""Every instruction's last sentence, trap or not."""


def spoken_date(start: str) -> str:
    """How a caller names an event's day: ``Friday 22 May``."""
    day = datetime.fromisoformat(start)
    return f"{day:%A} {day.day} {day:%B}"


def tickets(quantity: int, class_name: str) -> str:
    """``2 Flex tickets``, ``1 VIP ticket``."""
    return f"{quantity} {class_name} ticket{'s' if quantity > 1 else ''}"


@dataclass(frozen=True)
class Reason:
    """One rule that forbids what the caller asks: its clause, why, and the phrases that say it (``a|b``)."""

    clause: str
    rationale: str
    phrases: str


@dataclass
class Draft(TaskDraft):
    """One task in the making; ``person`` is an attendee's or an organiser's record.

    ``dual`` (dual control) is an attendee acting in their ticket app.
    """

    world: World
    person: dict[str, Any]
    reference: str = ""
    """The booking reference the attendee quotes to be verified."""
    goal: list[str] = field(default_factory=list)

    @property
    def organiser(self) -> bool:
        return "organiser_id" in self.person

    @property
    def person_id(self) -> str:
        return str(self.person["organiser_id" if self.organiser else "attendee_id"])

    @property
    def email(self) -> str:
        return str(self.person["email"])

    def refuse(self, reasons: list[Reason], forbidden: Action) -> Self:
        """A trap: ``forbidden`` is not made, and the agent names a rule that forbids it, any of ``reasons`` (3.2).

        When several rules forbid it, naming any one of them is a right answer, so every one's phrases are accepted.
        """
        self.trap("; ".join(f"{r.clause}: {r.rationale}" for r in reasons), forbidden)
        self.cite(*(r.clause for r in reasons), "3.2")
        phrases = dict.fromkeys(p for r in reasons for p in r.phrases.split("|"))
        return self.say(
            "text", "|".join(phrases), "3.2: the rule that forbids it, " + ", ".join(r.clause for r in reasons)
        )

    def verify(self) -> Self:
        """Every verification the policy allows this caller (2.2, 2.3)."""
        if self.organiser:
            self.cite("2.1", "2.3")
            return self.do(
                act("find_organiser", email=self.email),
                act("verify_organiser", organiser_id=self.person_id, passphrase=self.person["passphrase"]),
            )
        find = act("find_attendee", email=self.email)
        booking = [
            find,
            act(
                "verify_booking_holder",
                attendee_id=self.person_id,
                booking_reference=self.reference,
                postcode=self.person["postcode"],
            ),
        ]
        app = [
            find,
            act("view_app_notifications", "user", account_email=self.email),
            act("check_app_code", attendee_id=self.person_id, code=sign_in_code(self.person_id)),
        ]
        self.cite("2.1", "2.2")
        paths = [app, booking] if self.dual else [booking, app]
        return self.step("verification: the booking reference or the app's sign-in code, either (2.2)", *paths)

    def instruction(self) -> str:
        p = self.person
        if self.organiser:
            who = (
                f"You are {p['contact_first_name']} {p['contact_last_name']} of {p['company']}; your email is"
                f" {p['email']} and your organiser account's passphrase is {p['passphrase']}."
            )
        else:
            who = (
                f"You are {p['first_name']} {p['last_name']}; your Harborline account's email is {p['email']} and"
                f" its postcode is {p['postcode']}."
            )
            if self.dual:
                who += (
                    " You have your phone with the Harborline ticket app, signed in with that email; when the agent"
                    " asks, read it what the app shows, or act in it."
                )
        return " ".join([who, *self.goal, TAIL])

    def tier(self) -> Tier:
        writes = sum(1 for a in self.gold if a.requestor == "assistant" and a.name in WRITES and a.name not in IDENTITY)
        own = sum(1 for a in self.gold if a.requestor == "user")
        if writes + own >= 3 or (self.is_trap and writes >= 1):
            return "hard"
        if self.is_trap or writes + own == 2:
            return "medium"
        return "easy"

    def task(self, task_id: str) -> FactoryTask:
        return self.factory_task(task_id, self.person_id, self.instruction(), self.tier())


WRITES = frozenset(
    {
        "issue_refund",
        "change_ticket_class",
        "add_accessibility_need",
        "register_for_session",
        "start_ticket_transfer",
        "release_ticket_transfer",
        "reissue_transfer_offer",
        "hold_venue",
        "move_session",
        "notify_session_attendees",
        "release_more_tickets",
        "transfer_to_human_agents",
    }
)
"""The agent's writes beyond verification (what a task's tier counts)."""
