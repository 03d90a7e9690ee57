"""The reference solvers of a student's registry intents: enrolling, leaving a course, course packs, progress.

A student names a course by its code; the solver reads what the agent must read to judge the request (the course,
the student's enrolments and standing, their fee account) and lists the one outcome the policy allows.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains.education.clock import (
    CURRENT_TERM,
    PASSING,
    TODAY,
    money,
    pack_charge,
    tuition,
    weighted_average,
    withdrawal_fee,
)
from taumesh.domains.education.drafts import Draft, Person
from taumesh.domains.factory import World, act

ADD_CLOSED = (
    "add date|add deadline|deadline to add|enrolment has closed|enrollment has closed|enrolment is closed"
    "|enrollment is closed|closed for enrolment|closed for enrollment|no longer open"
)
PREREQUISITE = "prerequisite|pre-requisite|required course"
CREDIT_LIMIT = "credit limit|credit cap|too many credits|exceed your credit|above your credit|over your credit"
WITHDRAWAL_CLOSED = "withdrawal deadline|withdrawal date|deadline to withdraw|too late to withdraw|too late to drop"
FINANCIAL_HOLD = "overdue|financial hold|hold on your account|account hold|outstanding balance|unpaid balance"


def course_words(course: dict[str, Any]) -> str:
    """How a person names a course: its code and title."""
    return f"{course['code']} ({course['title']})"


def current(world: World, student_id: str) -> list[dict[str, Any]]:
    """The student's enrolments of this term on which they are enrolled."""
    return [
        e
        for e in world["enrolments"].values()
        if e["student_id"] == student_id
        and e["status"] == "enrolled"
        and world["courses"][e["course_id"]]["term"] == CURRENT_TERM
    ]


def _passed(world: World, student_id: str, course_id: str) -> bool:
    return any(
        e["student_id"] == student_id and e["course_id"] == course_id and e["grade"] in PASSING
        for e in world["enrolments"].values()
    )


def enrol_course(world: World, person: Person, course: dict[str, Any], persona: str) -> Draft | None:
    """Enrol within the add date (3.1), prerequisite (3.2) and credit limit (3.3); a full course: the waiting list."""
    sid = person["person_id"]
    if any(
        e["course_id"] == course["course_id"] and e["status"] in ("enrolled", "waitlisted")
        for e in world["enrolments"].values()
        if e["student_id"] == sid
    ):
        return None
    load = sum(world["courses"][e["course_id"]]["credits"] for e in current(world, sid))
    closed = course["add_by"] < TODAY.isoformat()
    missing = course["prerequisite_id"] is not None and not _passed(world, sid, course["prerequisite_id"])
    over = load + course["credits"] > person["credit_limit"]
    full = course["enrolled"] >= course["capacity"]
    if closed + missing + over > 1 or (full and (closed or missing or over)):
        return None  # one reason per task
    draft = Draft(world, person, persona, intent="enrol_course").identify().cite("3.1", "3.2", "3.3")
    draft.do(
        act("get_person", person_id=sid),
        act("find_course", code=course["code"]),
        act("list_enrolments", student_id=sid),
        act("get_fee_account", student_id=sid),
    )
    draft.goal.append(
        f"You want to enrol on {course_words(course)} this term. If it is full, you will go on its waiting list."
        " You want to know how much it adds to your fees. If you cannot join it, you want to know why."
    )
    enrol = act("enrol_student", student_id=sid, course_id=course["course_id"])
    if closed:
        draft.trap(f"3.1: {course['code']}'s add date {course['add_by']} has passed", enrol)
        return draft.say("text", ADD_CLOSED, "3.1: the add date has passed")
    if missing:
        required = world["courses"][course["prerequisite_id"]]["code"]
        draft.trap(f"3.2: {sid} has not passed the prerequisite {required}", enrol)
        return draft.say("text", PREREQUISITE, "3.2: the prerequisite is missing")
    if over:
        draft.trap(f"3.3: {load} + {course['credits']} credits is over the limit {person['credit_limit']}", enrol)
        return draft.say("text", CREDIT_LIMIT, "3.3: the credit limit")
    if full:
        return draft.cite("3.4", "1.4").do(act("join_waitlist", student_id=sid, course_id=course["course_id"]))
    band = world["accounts"][sid]["fee_band"]
    draft.cite("3.5", "1.4").do(enrol)
    return draft.say("amount", money(tuition(course["credits"], band)), "3.5: the tuition charged")


def leave_course(world: World, person: Person, enrolment: dict[str, Any], persona: str) -> Draft | None:
    """A drop with its refund by the drop date (4.2), a withdrawal with its fee after it (4.3), none later (4.4)."""
    if enrolment["status"] != "enrolled" or enrolment["student_id"] != person["person_id"]:
        return None
    course = world["courses"][enrolment["course_id"]]
    if course["term"] != CURRENT_TERM:
        return None
    draft = Draft(world, person, persona, intent="leave_course").identify().cite("4.1")
    draft.do(
        act("list_enrolments", student_id=draft.pid),
        act("get_course", course_id=course["course_id"]),
    )
    draft.goal.append(
        f"You want to leave {course_words(course)}, which you are taking this term. You want to know how much"
        " money that moves on your fee account. If you cannot leave it, you want to know why."
    )
    leave = act("drop_course", enrolment_id=enrolment["enrolment_id"])
    today = TODAY.isoformat()
    if course["withdraw_by"] < today:
        draft.trap(f"4.4: {course['code']}'s withdrawal date {course['withdraw_by']} has passed", leave).cite("4.4")
        return draft.say("text", WITHDRAWAL_CLOSED, "4.4: the withdrawal deadline has passed")
    draft.cite("1.4").do(leave)
    if course["drop_by"] >= today:
        return draft.cite("4.2").say("amount", money(enrolment["tuition_charged"]), "4.2: the refund")
    return draft.cite("4.3").say("amount", money(withdrawal_fee(course["credits"])), "4.3: the withdrawal fee")


def order_pack(world: World, person: Person, enrolment: dict[str, Any], persona: str) -> Draft | None:
    """A pack for a current course, once (9.1), never under a financial hold (9.2), half price on a bursary (9.3)."""
    sid = person["person_id"]
    course = world["courses"][enrolment["course_id"]]
    ordered = any(
        (o["student_id"], o["course_id"]) == (sid, course["course_id"]) for o in world["pack_orders"].values()
    )
    if enrolment["status"] != "enrolled" or course["term"] != CURRENT_TERM or ordered:
        return None
    account = world["accounts"][sid]
    draft = Draft(world, person, persona, intent="order_course_pack").identify().cite("9.1", "9.2")
    draft.do(
        act("find_course", code=course["code"]),
        act("list_enrolments", student_id=sid),
        act("get_fee_account", student_id=sid),
    )
    draft.goal.append(
        f"You want the printed course pack for {course_words(course)}, which you are taking. You want to know"
        " what you will be charged for it. If it cannot be ordered, you want to know why."
    )
    order = act("order_course_pack", student_id=sid, course_id=course["course_id"])
    if account["overdue"] > 0:
        draft.trap(f"9.2: {sid} has {account['overdue']} overdue: a financial hold", order)
        return draft.say("text", FINANCIAL_HOLD, "9.2: the financial hold")
    draft.cite("9.3", "1.4").do(order)
    return draft.say("amount", money(pack_charge(course["pack_price"], account["bursary"])), "9.3: the charge")


def course_progress(world: World, person: Person, enrolment: dict[str, Any], persona: str) -> Draft | None:
    """The student's weighted average over the marked assignments of a course they take (10.1)."""
    course = world["courses"][enrolment["course_id"]]
    if enrolment["status"] != "enrolled" or course["term"] != CURRENT_TERM:
        return None
    marked = []
    for key, assignment in sorted(world["assignments"].items()):
        if assignment["course_id"] != course["course_id"]:
            continue
        for submission in world["submissions"].values():
            found = (submission["assignment_id"], submission["student_id"]) == (key, person["person_id"])
            if found and submission["mark"] is not None:
                marked.append((submission["mark"], assignment["weight"]))
    if len(marked) < 2:
        return None
    draft = Draft(world, person, persona, intent="course_progress").identify().cite("10.1", "1.2")
    draft.do(
        act("find_course", code=course["code"]),
        act("get_gradebook", student_id=draft.pid, course_id=course["course_id"]),
    )
    draft.goal.append(
        f"You want to know your current average in {course_words(course)}, which you are taking, to two decimals."
    )
    return draft.say("amount", money(weighted_average(marked)), "10.1: the weighted average of the marked work")
