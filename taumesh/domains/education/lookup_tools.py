"""The desk's identity and read tools: who is asking, and what the registry, gradebook and timetable hold.

Reads never change anything; verifying identity writes one record, which the reward sees, so an agent that acts
without verifying ends in another state.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.education.records import dump, fetch, params, student, text

_STUDENT = text("The student's person id, such as 'stu-w1-07'.")
_COURSE = text("The course id, such as 'crs-w1-05'.")


class FindPerson(Tool):
    name = "find_person"
    description = "Find a student's or instructor's person id by full name and university number."
    parameters = params(
        first_name=text("First name."), last_name=text("Last name."), university_number=text("Such as 'U4821937'.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, university_number: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), university_number.strip().upper())
        for person in data["people"].values():
            if (person["first_name"].lower(), person["last_name"].lower(), person["university_number"]) == wanted:
                return str(person["person_id"])
        raise Refusal("no one with that name and university number")


class VerifyIdentity(Tool):
    name = "verify_identity"
    writes = True
    description = "Verify the person by the date of birth on their university record (YYYY-MM-DD)."
    parameters = params(person_id=text("The person id."), date_of_birth=text("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, person_id: str, date_of_birth: str) -> str:
        person = fetch(data, "people", person_id, "person")
        if person["date_of_birth"] != date_of_birth.strip():
            raise Refusal("the date of birth does not match the record")
        data["verifications"][person_id] = {"person_id": person_id, "verified": True}
        return dump({"person_id": person_id, "verified": True, "role": person["role"]})


class GetPerson(Tool):
    name = "get_person"
    description = "A person's record: role, department and, for a student, the credit limit of their standing."
    parameters = params(person_id=text("The person id."))

    @staticmethod
    def invoke(data: Data, person_id: str) -> str:
        person = dict(fetch(data, "people", person_id, "person"))
        person.pop("date_of_birth")
        return dump(person)


class GetFeeAccount(Tool):
    name = "get_fee_account"
    description = "A student's fee account: balance this term, overdue amount, fee band and bursary."
    parameters = params(student_id=_STUDENT)

    @staticmethod
    def invoke(data: Data, student_id: str) -> str:
        return dump(fetch(data, "accounts", student_id, "fee account"))


class FindCourse(Tool):
    name = "find_course"
    description = "A course by its code (such as 'HIST-2104'): term, instructor, credits, places, dates, prerequisite."
    parameters = params(code=text("The course code."))

    @staticmethod
    def invoke(data: Data, code: str) -> str:
        wanted = code.strip().upper()
        for course in data["courses"].values():
            if course["code"] == wanted:
                return dump(course)
        raise Refusal(f"no course with code {wanted}")


class GetCourse(Tool):
    name = "get_course"
    description = "A course by its id."
    parameters = params(course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, course_id: str) -> str:
        return dump(fetch(data, "courses", course_id, "course"))


class ListEnrolments(Tool):
    name = "list_enrolments"
    description = "Every enrolment of a student, current and past, with the course's code, term, credits and grade."
    parameters = params(student_id=_STUDENT)

    @staticmethod
    def invoke(data: Data, student_id: str) -> str:
        student(data, student_id)
        found = []
        for _, enrolment in sorted(data["enrolments"].items()):
            if enrolment["student_id"] == student_id:
                course = data["courses"][enrolment["course_id"]]
                found.append(
                    {**enrolment, "code": course["code"], "term": course["term"], "credits": course["credits"]}
                )
        return dump(found)


class ListCourseRoster(Tool):
    name = "list_course_roster"
    description = "A course's enrolments with each student's name and grade (for its staff)."
    parameters = params(course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, course_id: str) -> str:
        fetch(data, "courses", course_id, "course")
        roster = []
        for _, enrolment in sorted(data["enrolments"].items()):
            if enrolment["course_id"] == course_id:
                person = data["people"][enrolment["student_id"]]
                roster.append({**enrolment, "student_name": f"{person['first_name']} {person['last_name']}"})
        return dump(roster)


class ListAssignments(Tool):
    name = "list_assignments"
    description = "A course's assignments: title, due date and weight."
    parameters = params(course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, course_id: str) -> str:
        fetch(data, "courses", course_id, "course")
        return dump([a for _, a in sorted(data["assignments"].items()) if a["course_id"] == course_id])


class GetGradebook(Tool):
    name = "get_gradebook"
    description = "A student's work in one course: each assignment with its weight, their submission and mark."
    parameters = params(student_id=_STUDENT, course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, student_id: str, course_id: str) -> str:
        student(data, student_id)
        fetch(data, "courses", course_id, "course")
        rows: list[dict[str, Any]] = []
        for key, assignment in sorted(data["assignments"].items()):
            if assignment["course_id"] != course_id:
                continue
            handed = [
                s for s in data["submissions"].values() if s["assignment_id"] == key and s["student_id"] == student_id
            ]
            rows.append({**assignment, "submission": handed[0] if handed else None})
        return dump(rows)


class ListExtensions(Tool):
    name = "list_extensions"
    description = "The extensions a student has been granted, on any assignment."
    parameters = params(student_id=_STUDENT)

    @staticmethod
    def invoke(data: Data, student_id: str) -> str:
        student(data, student_id)
        return dump([e for _, e in sorted(data["extensions"].items()) if e["student_id"] == student_id])


class ListTutoringSlots(Tool):
    name = "list_tutoring_slots"
    description = "A course's tutoring slots: tutor, date, start time and whether the slot is open or booked."
    parameters = params(course_id=_COURSE)

    @staticmethod
    def invoke(data: Data, course_id: str) -> str:
        fetch(data, "courses", course_id, "course")
        slots = [s for s in data["tutoring_slots"].values() if s["course_id"] == course_id]
        shown = [{k: v for k, v in s.items() if k not in ("student_id", "confirmation_code")} for s in slots]
        return dump(sorted(shown, key=lambda s: (s["date"], s["start"], s["slot_id"])))


class ListTutoringBookings(Tool):
    name = "list_tutoring_bookings"
    description = "The tutoring slots a student has booked, past and upcoming, on every course."
    parameters = params(student_id=_STUDENT)

    @staticmethod
    def invoke(data: Data, student_id: str) -> str:
        student(data, student_id)
        booked = [s for s in data["tutoring_slots"].values() if s["student_id"] == student_id]
        return dump(sorted(booked, key=lambda s: (s["date"], s["start"])))


class Compute(Tool):
    name = "compute"
    description = "Evaluate arithmetic (numbers, + - * / and parentheses), such as a weighted average."
    parameters = params(expression=text("Such as '(72 * 20 + 85 * 30) / 50'."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in "0123456789+-*/(). " for char in expression):
            raise Refusal("only numbers, + - * / and parentheses")
        check_powers(expression)
        try:
            return str(round(float(eval(expression, {"__builtins__": None}, {})), 6))  # noqa: S307 - characters checked
        except (SyntaxError, ZeroDivisionError, TypeError, NameError) as error:
            raise Refusal(f"cannot evaluate: {error}") from None


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindPerson,
    VerifyIdentity,
    GetPerson,
    GetFeeAccount,
    FindCourse,
    GetCourse,
    ListEnrolments,
    ListCourseRoster,
    ListAssignments,
    GetGradebook,
    ListExtensions,
    ListTutoringSlots,
    ListTutoringBookings,
    Compute,
)
IDENTITY_TOOLS = frozenset({"find_person", "verify_identity"})
"""Finding the person by name and university number, then verifying them by their date of birth."""
