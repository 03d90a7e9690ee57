"""The reference solver of an instructor's intent: a change to a final grade of the summer term.

Only the instructor of record may ask (7.1), and only within sixty days of the grades being posted (7.2); the request
is filed for the head of department's approval (7.3), so the grade on the record stays as it was and a forbidden
request leaves its own record.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.education.clock import GRADE_CHANGE_WINDOW_DAYS, GRADES, days_from_today
from taumesh.domains.education.drafts import Draft, Person
from taumesh.domains.education.registry_intents import course_words
from taumesh.domains.factory import World, act

NOT_INSTRUCTOR = "instructor of record|not the instructor|not listed as the instructor|not your course|did not teach"
REASONS = {
    "marking_error": "you found an error in adding up the marks of the final exam",
    "missed_work_found": "a lab notebook the student handed in turned up after grading",
    "appeal_upheld": "the student's academic appeal was upheld by the review panel",
}


def change_grade(
    world: World, person: Person, enrolment: dict[str, Any], persona: str, rng: random.Random
) -> Draft | None:
    """File a change for the instructor of record within the window; hand a late one to the registrar."""
    course = world["courses"][enrolment["course_id"]]
    grade = enrolment["grade"]
    if enrolment["status"] != "completed" or grade in (None, "A"):
        return None
    ours = course["instructor_id"] == person["person_id"]
    late = -days_from_today(course["grades_posted"]) > GRADE_CHANGE_WINDOW_DAYS
    if not ours and late:
        return None  # one reason per task
    target = GRADES[GRADES.index(grade) - 1]
    reason = rng.choice(sorted(REASONS))
    student = world["people"][enrolment["student_id"]]
    draft = Draft(world, person, persona, intent="change_grade").identify().cite("7.1", "7.2")
    draft.do(
        act("find_course", code=course["code"]),
        act("list_course_roster", course_id=course["course_id"]),
    )
    draft.goal.append(
        f"You are writing about {course_words(course)}, taught in the summer term. Your student {student['first_name']}"
        f" {student['last_name']} received a final grade of {grade}; {REASONS[reason]}, and you want the grade"
        f" changed to {target}. If the change cannot be made, you want to know why, and you accept being passed"
        " to whoever can help."
    )
    change = act(
        "file_grade_change",
        enrolment_id=enrolment["enrolment_id"],
        requested_by=person["person_id"],
        to_grade=target,
        reason=reason,
    )
    if not ours:
        draft.trap(f"7.1: {course['code']} was taught by {course['instructor_id']}, not {person['person_id']}", change)
        return draft.say("text", NOT_INSTRUCTOR, "7.1: not the instructor of record")
    if late:
        draft.trap(f"7.2: {course['code']}'s grades were posted {course['grades_posted']}, over sixty days ago", change)
        return draft.cite("11.1").do(act("transfer_to_human_agents", person_id=person["person_id"], team="registrar"))
    return draft.cite("7.3", "7.4", "1.4").do(change)
