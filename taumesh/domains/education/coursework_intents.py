"""The reference solvers of a student's coursework intents: extensions, late hand-ins and tutoring.

Late hand-ins and tutoring need the student's own portal (dual control): the student uploads the file there once the
desk opens a late window, and accepts a tutoring offer there, reading out the confirmation code the desk books with.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.education.clock import (
    LATE_PENALTY_PER_DAY,
    LATE_WINDOW_DAYS,
    MAX_EXTENSION_DAYS,
    TODAY,
    TUTORING_LIMIT,
    confirmation_code,
    days_after,
    days_from_today,
)
from taumesh.domains.education.drafts import Draft, Person
from taumesh.domains.education.registry_intents import course_words, current
from taumesh.domains.factory import World, act

PAST_DUE = "already passed|past its due|past the due|was due on|already due|deadline has passed|due date has passed"
TOO_LATE = "more than five days|more than 5 days|over five days|over 5 days|five-day|5-day"
NOT_ENROLLED = "not enrolled|isn't enrolled|aren't enrolled|not currently enrolled|no current enrolment"
BOOKING_LIMIT = "two upcoming|2 upcoming|limit of two|limit of 2|already have two|already hold two|maximum of two"
REASONS = {
    "illness": "You have been ill with a chest infection for the past week, and your doctor has written a note.",
    "bereavement": "Your grandmother died last week, and you have been away for the funeral.",
    "caring": "You have been looking after your younger brother while your parent is in hospital.",
}
"""What a student says about why they need time, by the extension reason it matches (5.2)."""


def _assignment_words(world: World, assignment: dict[str, Any]) -> str:
    course = world["courses"][assignment["course_id"]]
    return f"'{assignment['title']}' in {course_words(course)}"


def _enrolled_on(world: World, student_id: str, course_id: str) -> bool:
    return any(e["course_id"] == course_id for e in current(world, student_id))


def request_extension(
    world: World, person: Person, assignment: dict[str, Any], persona: str, rng: random.Random
) -> Draft | None:
    """Grant an extension asked before the due date (5.1), of at most seven days (5.3), once (5.4)."""
    sid = person["person_id"]
    if not _enrolled_on(world, sid, assignment["course_id"]) or assignment["title"].endswith(" 1"):
        return None
    if any(
        (e["student_id"], e["assignment_id"]) == (sid, assignment["assignment_id"])
        for e in world["extensions"].values()
    ):
        return None
    overdue = assignment["due"] < TODAY.isoformat()
    asked = rng.choice([3, 4, 5, 6] if overdue else [3, 4, 5, 6, 9, 10, 12])
    reason = rng.choice(sorted(REASONS))
    course = world["courses"][assignment["course_id"]]
    draft = Draft(world, person, persona, intent="request_extension").identify().cite("5.1", "5.2", "5.3", "5.4")
    draft.do(
        act("find_course", code=course["code"]),
        act("list_assignments", course_id=course["course_id"]),
        act("list_extensions", student_id=sid),
    )
    draft.goal.append(
        f"{REASONS[reason]} You want an extension of {asked} days on {_assignment_words(world, assignment)}. If"
        " that many days cannot be given, you take the most that can. You want to know your new due date. If no"
        " extension can be given, you want to know why."
    )

    def grant(days: int) -> Any:
        return act(
            "grant_extension", student_id=sid, assignment_id=assignment["assignment_id"], days=days, reason=reason
        )

    if overdue:
        draft.trap(
            f"5.1: {assignment['assignment_id']} was due on {assignment['due']}, before the request", grant(asked)
        )
        return draft.say("text", PAST_DUE, "5.1: the due date has passed")
    days = min(asked, MAX_EXTENSION_DAYS)
    if days != asked:
        draft.trap(f"5.3: {asked} days is over the seven-day cap; seven are granted", grant(asked))
    draft.cite("5.5", "1.4").do(grant(days))
    return draft.say("date", days_after(assignment["due"], days), "5.5: the new due date")


def hand_in_late(
    world: World, person: Person, assignment: dict[str, Any], persona: str, rng: random.Random
) -> Draft | None:
    """Open a late window for work at most five days late (6.1, 6.3); the student uploads it in the portal (6.4)."""
    sid = person["person_id"]
    late = -days_from_today(assignment["due"])
    handed = any(
        (s["student_id"], s["assignment_id"]) == (sid, assignment["assignment_id"])
        for s in world["submissions"].values()
    )
    extended = any(
        (e["student_id"], e["assignment_id"]) == (sid, assignment["assignment_id"])
        for e in world["extensions"].values()
    )
    if late <= 0 or handed or extended or not _enrolled_on(world, sid, assignment["course_id"]):
        return None
    course = world["courses"][assignment["course_id"]]
    file_name = f"{course['code'].lower().replace('-', '_')}_{rng.choice(['final', 'complete', 'submission'])}.pdf"
    draft = Draft(world, person, persona, intent="hand_in_late", dual=True).identify().cite("6.1", "6.3")
    draft.do(
        act("find_course", code=course["code"]),
        act("list_assignments", course_id=course["course_id"]),
        act("get_gradebook", student_id=sid, course_id=course["course_id"]),
    )
    draft.goal.append(
        f"You missed the due date of {_assignment_words(world, assignment)} and have not handed it in. Your"
        f" finished file is called {file_name}. You want to hand it in late. When the agent says the way is open,"
        " upload the file in your portal for that assignment. You want to know what penalty it carries. If it"
        " cannot be accepted, you want to know why."
    )
    window = act("open_late_submission", student_id=sid, assignment_id=assignment["assignment_id"])
    if late > LATE_WINDOW_DAYS:
        draft.trap(f"6.3: {assignment['assignment_id']} is {late} days late, over five", window).cite("6.3")
        return draft.say("text", TOO_LATE, "6.3: more than five days late")
    upload = act("upload_submission", "user", assignment_id=assignment["assignment_id"], file_name=file_name)
    draft.cite("6.2", "6.4", "1.4").do(window, upload)
    penalty = late * LATE_PENALTY_PER_DAY
    return draft.say(
        "text",
        f"{penalty} percent|{penalty}%|{penalty} per cent|{penalty} percentage|{penalty} points",
        "6.2: the penalty",
    )


def book_tutoring(world: World, person: Person, slot: dict[str, Any], persona: str, rng: random.Random) -> Draft | None:
    """Book an open slot (8.3) for a student enrolled on its course (8.1) holding fewer than two bookings (8.2)."""
    sid = person["person_id"]
    if slot["status"] != "open" or slot["date"] <= TODAY.isoformat():
        return None
    outside = not _enrolled_on(world, sid, slot["course_id"])
    upcoming = [s for s in world["tutoring_slots"].values() if s["student_id"] == sid and s["date"] > TODAY.isoformat()]
    at_limit = len(upcoming) >= TUTORING_LIMIT
    if outside and at_limit:
        return None  # one reason per task
    course = world["courses"][slot["course_id"]]
    draft = Draft(world, person, persona, intent="book_tutoring", dual=True).identify().cite("8.1", "8.2", "8.3")
    draft.do(
        act("find_course", code=course["code"]),
        act("list_tutoring_slots", course_id=course["course_id"]),
        act("list_enrolments", student_id=sid),
        act("list_tutoring_bookings", student_id=sid),
    )
    draft.goal.append(
        f"You want a tutoring session for {course_words(course)} with {slot['tutor']} on {slot['date']} at"
        f" {slot['start']}. When the agent offers you the slot, accept it in your portal and read out the"
        " confirmation code it shows. If you cannot have it, you want to know why."
    )
    code = confirmation_code(slot["slot_id"], sid)
    book = act("book_tutoring", slot_id=slot["slot_id"], student_id=sid, confirmation_code=code)
    if outside:
        draft.trap(f"8.1: {sid} is not enrolled on {course['code']}", book)
        return draft.say("text", NOT_ENROLLED, "8.1: not enrolled on the course")
    if at_limit:
        draft.trap(f"8.2: {sid} already holds {len(upcoming)} upcoming bookings", book)
        return draft.say("text", BOOKING_LIMIT, "8.2: the limit of two upcoming bookings")
    return draft.cite("1.4").do(act("accept_tutoring_offer", "user", slot_id=slot["slot_id"]), book)
