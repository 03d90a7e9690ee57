"""The desk's writes: enrolment, drops, extensions, late work, grade changes, tutoring, course packs, hand-offs.

Each write computes its own effects (a tuition charge, a refund, a withdrawal fee, a new due date, a late penalty, a
pack's price) from the record and the fixed clock, so any correct way of reaching a write lands in the same state.
A tool refuses what can never be done (a full course, a second extension, a wrong code); whether the policy allows
the rest is the agent's to judge, so that a trap's forbidden write is possible and leaves a trace.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.education.clock import (
    CURRENT_TERM,
    EXTENSION_REASONS,
    GRADE_CHANGE_REASONS,
    GRADES,
    LATE_PENALTY_PER_DAY,
    TODAY,
    confirmation_code,
    day,
    days_after,
    days_from_today,
    pack_charge,
    tuition,
    withdrawal_fee,
)
from taumesh.domains.education.records import dump, fetch, new_id, params, student, text, whole

TEAMS = ("registrar", "academic_department", "student_finance")
_STUDENT = text("The student's person id.")
_COURSE = text("The course id.")


def _current(data: Data, student_id: str, course_id: str) -> list[dict[str, Any]]:
    return [
        e
        for e in data["enrolments"].values()
        if (e["student_id"], e["course_id"]) == (student_id, course_id) and e["status"] in ("enrolled", "waitlisted")
    ]


def _enrolment(data: Data, student_id: str, course_id: str, status: str, position: int | None, fee: float) -> Any:
    key = new_id(data, "enrolments", "enr")
    record = {
        "enrolment_id": key,
        "student_id": student_id,
        "course_id": course_id,
        "status": status,
        "grade": None,
        "waitlist_position": position,
        "tuition_charged": fee,
        "withdrawal_fee": 0.0,
    }
    data["enrolments"][key] = record
    return record


def _open_course(data: Data, student_id: str, course_id: str) -> Any:
    student(data, student_id)
    course = fetch(data, "courses", course_id, "course")
    if course["term"] != CURRENT_TERM:
        raise Refusal("only courses of the current term take enrolments")
    if _current(data, student_id, course_id):
        raise Refusal("the student is already enrolled or waitlisted on this course")
    return course


class EnrolStudent(Tool):
    name = "enrol_student"
    writes = True
    description = "Enrol a student on a course of the current term with a free place; charges its tuition."
    parameters = params(student_id=_STUDENT, course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, student_id: str, course_id: str) -> str:
        course = _open_course(data, student_id, course_id)
        if course["enrolled"] >= course["capacity"]:
            raise Refusal("the course is full")
        account = data["accounts"][student_id]
        charge = tuition(course["credits"], account["fee_band"])
        account["balance"] = round(account["balance"] + charge, 2)
        course["enrolled"] += 1
        return dump(_enrolment(data, student_id, course_id, "enrolled", None, charge))


class JoinWaitlist(Tool):
    name = "join_waitlist"
    writes = True
    description = "Put a student on a full course's waiting list; nothing is charged until a place is offered."
    parameters = params(student_id=_STUDENT, course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, student_id: str, course_id: str) -> str:
        course = _open_course(data, student_id, course_id)
        if course["enrolled"] < course["capacity"]:
            raise Refusal("the course has free places: enrol instead")
        waiting = [
            e for e in data["enrolments"].values() if e["course_id"] == course_id and e["status"] == "waitlisted"
        ]
        return dump(_enrolment(data, student_id, course_id, "waitlisted", len(waiting) + 1, 0.0))


class DropCourse(Tool):
    name = "drop_course"
    writes = True
    description = (
        "Take a student off a current course: by its drop date a drop with the tuition refunded, after it a"
        " withdrawal (grade W) with the withdrawal fee charged."
    )
    parameters = params(enrolment_id=text("The enrolment id, such as 'enr-w1-031'."))

    @staticmethod
    def invoke(data: Data, enrolment_id: str) -> str:
        enrolment = fetch(data, "enrolments", enrolment_id, "enrolment")
        if enrolment["status"] != "enrolled":
            raise Refusal("only a current enrolment can be dropped")
        course = data["courses"][enrolment["course_id"]]
        account = data["accounts"][enrolment["student_id"]]
        if day(course["drop_by"]) >= TODAY:
            enrolment["status"] = "dropped"
            account["balance"] = round(account["balance"] - enrolment["tuition_charged"], 2)
            result = {"refund": enrolment["tuition_charged"]}
        else:
            fee = withdrawal_fee(course["credits"])
            enrolment.update(status="withdrawn", grade="W", withdrawal_fee=fee)
            account["balance"] = round(account["balance"] + fee, 2)
            result = {"withdrawal_fee": fee}
        course["enrolled"] -= 1
        return dump({**enrolment, **result})


class GrantExtension(Tool):
    name = "grant_extension"
    writes = True
    description = "Grant a student an extension of some days on one assignment, for a recognised reason."
    parameters = params(
        student_id=_STUDENT,
        assignment_id=text("The assignment id, such as 'asg-w1-52'."),
        days=whole("Days added to the due date."),
        reason=text("The reason.", EXTENSION_REASONS),
    )

    @staticmethod
    def invoke(data: Data, student_id: str, assignment_id: str, days: int, reason: str) -> str:
        student(data, student_id)
        assignment = fetch(data, "assignments", assignment_id, "assignment")
        if reason not in EXTENSION_REASONS:
            raise Refusal(f"reason must be one of {list(EXTENSION_REASONS)}")
        if not 1 <= days <= 30:
            raise Refusal("an extension is between 1 and 30 days")
        if not any(e["status"] == "enrolled" for e in _current(data, student_id, assignment["course_id"])):
            raise Refusal("the student is not enrolled on the assignment's course")
        if any(
            e["student_id"] == student_id and e["assignment_id"] == assignment_id for e in data["extensions"].values()
        ):
            raise Refusal("the student already has an extension on this assignment")
        key = new_id(data, "extensions", "ext")
        record = {
            "extension_id": key,
            "assignment_id": assignment_id,
            "student_id": student_id,
            "days": days,
            "new_due": days_after(assignment["due"], days),
            "reason": reason,
        }
        data["extensions"][key] = record
        return dump(record)


class OpenLateSubmission(Tool):
    name = "open_late_submission"
    writes = True
    description = "Open the portal for a student to hand in an overdue assignment; records the days late and penalty."
    parameters = params(student_id=_STUDENT, assignment_id=text("The assignment id."))

    @staticmethod
    def invoke(data: Data, student_id: str, assignment_id: str) -> str:
        student(data, student_id)
        assignment = fetch(data, "assignments", assignment_id, "assignment")
        due = assignment["due"]
        for extension in data["extensions"].values():
            if extension["student_id"] == student_id and extension["assignment_id"] == assignment_id:
                due = extension["new_due"]
        late = -days_from_today(due)
        if late <= 0:
            raise Refusal("the assignment is not overdue: it is handed in as usual")
        handed = [
            s
            for s in data["submissions"].values()
            if (s["student_id"], s["assignment_id"]) == (student_id, assignment_id)
        ]
        opened = [
            w
            for w in data["late_windows"].values()
            if (w["student_id"], w["assignment_id"]) == (student_id, assignment_id)
        ]
        if handed or opened:
            raise Refusal("the work was handed in already, or a late window is open")
        key = new_id(data, "late_windows", "late")
        record = {
            "window_id": key,
            "assignment_id": assignment_id,
            "student_id": student_id,
            "days_late": late,
            "penalty_percent": min(100, late * LATE_PENALTY_PER_DAY),
        }
        data["late_windows"][key] = record
        return dump(record)


class FileGradeChange(Tool):
    name = "file_grade_change"
    writes = True
    description = "File an instructor's request to change a final grade; it waits for the head of department."
    parameters = params(
        enrolment_id=text("The completed enrolment."),
        requested_by=text("The instructor's person id."),
        to_grade=text("The new grade.", GRADES),
        reason=text("Why.", GRADE_CHANGE_REASONS),
    )

    @staticmethod
    def invoke(data: Data, enrolment_id: str, requested_by: str, to_grade: str, reason: str) -> str:
        enrolment = fetch(data, "enrolments", enrolment_id, "enrolment")
        if fetch(data, "people", requested_by, "person")["role"] != "instructor":
            raise Refusal("only an instructor requests a grade change")
        if enrolment["status"] != "completed" or enrolment["grade"] is None:
            raise Refusal("only a final grade of a completed course can change")
        if to_grade not in GRADES or to_grade == enrolment["grade"]:
            raise Refusal("the new grade must be another valid letter grade")
        if reason not in GRADE_CHANGE_REASONS:
            raise Refusal(f"reason must be one of {list(GRADE_CHANGE_REASONS)}")
        key = new_id(data, "grade_changes", "gc")
        record = {
            "request_id": key,
            "enrolment_id": enrolment_id,
            "requested_by": requested_by,
            "from_grade": enrolment["grade"],
            "to_grade": to_grade,
            "reason": reason,
            "status": "pending_approval",
        }
        data["grade_changes"][key] = record
        return dump(record)


class BookTutoring(Tool):
    name = "book_tutoring"
    writes = True
    description = "Book an open tutoring slot for a student with the confirmation code their portal showed them."
    parameters = params(
        slot_id=text("The slot id, such as 'tut-w1-43'."),
        student_id=_STUDENT,
        confirmation_code=text("The code the student reads from their portal, such as 'TB-1A2B3C'."),
    )

    @staticmethod
    def invoke(data: Data, slot_id: str, student_id: str, confirmation_code: str) -> str:
        slot = fetch(data, "tutoring_slots", slot_id, "tutoring slot")
        student(data, student_id)
        if slot["status"] != "open" or day(slot["date"]) <= TODAY:
            raise Refusal("the slot is not open for booking")
        code = confirmation_code.strip().upper()
        if code != _code(slot_id, student_id):
            raise Refusal("that confirmation code was not issued to this student for this slot")
        slot.update(status="booked", student_id=student_id, confirmation_code=code)
        return dump(slot)


def _code(slot_id: str, student_id: str) -> str:
    return confirmation_code(slot_id, student_id)


class OrderCoursePack(Tool):
    name = "order_course_pack"
    writes = True
    description = "Order a course's printed pack for a student enrolled on it; charges the pack to their account."
    parameters = params(student_id=_STUDENT, course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, student_id: str, course_id: str) -> str:
        student(data, student_id)
        course = fetch(data, "courses", course_id, "course")
        if not any(e["status"] == "enrolled" for e in _current(data, student_id, course_id)):
            raise Refusal("the student is not enrolled on this course")
        if any((o["student_id"], o["course_id"]) == (student_id, course_id) for o in data["pack_orders"].values()):
            raise Refusal("the pack was ordered already")
        account = data["accounts"][student_id]
        charge = pack_charge(course["pack_price"], account["bursary"])
        account["balance"] = round(account["balance"] + charge, 2)
        key = new_id(data, "pack_orders", "pack")
        record = {"order_id": key, "student_id": student_id, "course_id": course_id, "charge": charge}
        data["pack_orders"][key] = record
        return dump(record)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = (
        "Hand the person to a university office (registrar, academic department, student finance); ends the chat."
    )
    parameters = params(person_id=text("The person id."), team=text("The office.", TEAMS))

    @staticmethod
    def invoke(data: Data, person_id: str, team: str) -> str:
        fetch(data, "people", person_id, "person")
        if team not in TEAMS:
            raise Refusal(f"team must be one of {list(TEAMS)}")
        key = new_id(data, "handoffs", "handoff")
        data["handoffs"][key] = {"handoff_id": key, "person_id": person_id, "team": team}
        return "Transferred; the office takes the conversation from here."


DESK_TOOLS: tuple[type[Tool], ...] = (
    EnrolStudent,
    JoinWaitlist,
    DropCourse,
    GrantExtension,
    OpenLateSubmission,
    FileGradeChange,
    BookTutoring,
    OrderCoursePack,
    TransferToHumanAgents,
)
