"""The university's worlds, one a seed.

Each holds two departments with their instructors, twenty-six students with fee accounts and portals, four courses
of the summer term (completed, graded) and six of the autumn term (current), the courses' assignments with the work
handed in and marked, extensions granted earlier, tutoring slots and course-pack orders. Every id carries the world's
tag. The autumn courses play set parts (:data:`AUTUMN`) so that every world holds each case the policy tells apart:
a course open for adding, one with a prerequisite, a full one, one past its drop date but open for withdrawal, one
past its withdrawal date. :data:`INVARIANTS` states what the registry keeps true.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.education.catalogue import ASSIGNMENT_KINDS, DEPARTMENTS, FILE_STEMS, FIRST, LAST, TUTORS
from taumesh.domains.education.clock import (
    CURRENT_TERM,
    GRADES,
    TODAY,
    TUTORING_LIMIT,
    confirmation_code,
    days_after,
    pack_charge,
    tuition,
)
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 46_501, "w2": 46_502, "w3": 46_503}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
STUDENTS, INSTRUCTORS = 26, 6
SUMMER_POSTED = {1: -35, 2: -42, 3: -68, 4: -72}
"""Days from today to when each summer course's grades were posted: two inside the change window, two outside."""
AUTUMN: dict[int, dict[str, Any]] = {
    5: {"add": 3, "drop": 10, "withdraw": 40, "prerequisite": None, "full": False},
    6: {"add": 4, "drop": 11, "withdraw": 41, "prerequisite": 1, "full": False},
    7: {"add": 5, "drop": 12, "withdraw": 42, "prerequisite": None, "full": True},
    8: {"add": -20, "drop": -6, "withdraw": 21, "prerequisite": None, "full": False},
    9: {"add": -30, "drop": -20, "withdraw": -3, "prerequisite": None, "full": False},
    10: {"add": 2, "drop": 9, "withdraw": 38, "prerequisite": 2, "full": False},
}
"""Each autumn course (by number in its world): days from today to its add, drop and withdrawal dates, its
prerequisite (a summer course's number) and whether it is full."""
SECOND_DUE = [3, 8, 2, 4, 7, 5]
"""Days since the second assignment of each autumn course fell due: late work inside five days, and beyond."""
WEIGHTS = [(10, 20, 30, 40), (15, 25, 25, 35), (20, 20, 30, 30)]
LIMITS = (12, 15, 18)
STARTS = ["09:00", "11:00", "13:30", "15:00", "17:00"]

Rec = dict[str, Any]
TABLES = [
    "people", "accounts", "courses", "enrolments", "assignments", "submissions", "extensions", "late_windows",
    "grade_changes", "tutoring_slots", "pack_orders", "verifications", "handoffs", "portals",
]  # fmt: skip


def _empty() -> World:
    return {name: {} for name in TABLES}


def _people(world: World, rng: random.Random, tag: str, departments: list[str]) -> None:
    names = rng.sample([(f, last) for f in FIRST for last in LAST], STUDENTS + INSTRUCTORS)
    numbers = rng.sample(range(1_000_000, 9_999_999), STUDENTS + INSTRUCTORS)
    for n in range(1, INSTRUCTORS + 1):
        first, last = names[n - 1]
        key = f"ins-{tag}-{n}"
        world["people"][key] = {
            "person_id": key,
            "first_name": first,
            "last_name": last,
            "role": "instructor",
            "university_number": f"U{numbers[n - 1]}",
            "date_of_birth": f"{rng.randint(1962, 1988)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "department": departments[(n - 1) % 2],
            "credit_limit": None,
        }
    for n in range(1, STUDENTS + 1):
        first, last = names[INSTRUCTORS + n - 1]
        key = f"stu-{tag}-{n:02d}"
        number = f"U{numbers[INSTRUCTORS + n - 1]}"
        world["people"][key] = {
            "person_id": key,
            "first_name": first,
            "last_name": last,
            "role": "student",
            "university_number": number,
            "date_of_birth": f"{rng.randint(1998, 2007)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "department": departments[n % 2],
            "credit_limit": 0,
        }
        world["portals"][key] = {
            "person_id": key,
            "university_number": number,
            "portal_pin": f"{rng.randint(100000, 999999)}",
            "signed_in": False,
            "shown": [],
        }


def _courses(world: World, rng: random.Random, tag: str, index: int) -> None:
    chosen = DEPARTMENTS[2 * index : 2 * index + 2]
    titles = [rng.sample(titles, 5) for _, _, titles in chosen]
    for n in range(1, 11):
        _, prefix, _ = chosen[n % 2]
        title = titles[n % 2][(n - 1) // 2]
        summer = n <= 4
        case = AUTUMN.get(n, {})
        key = f"crs-{tag}-{n:02d}"
        world["courses"][key] = {
            "course_id": key,
            "code": f"{prefix}-{(1 + n % 3)}{rng.randint(10, 99)}{n % 10}",
            "title": title,
            "term": "summer-2026" if summer else CURRENT_TERM,
            "instructor_id": f"ins-{tag}-{1 + (n - 1) % INSTRUCTORS}",
            "credits": rng.choice([3, 4, 5]),
            "capacity": rng.randint(30, 40) if summer else 0,
            "enrolled": 0,
            "add_by": days_after(TODAY, -130 if summer else case["add"]),
            "drop_by": days_after(TODAY, -120 if summer else case["drop"]),
            "withdraw_by": days_after(TODAY, -100 if summer else case["withdraw"]),
            "grades_posted": days_after(TODAY, SUMMER_POSTED[n]) if summer else None,
            "prerequisite_id": f"crs-{tag}-{case['prerequisite']:02d}" if case.get("prerequisite") else None,
            "pack_price": rng.choice([38.5, 42.75, 56.25, 64.5, 72.4, 85.5]),
        }


def _assignments(world: World, rng: random.Random, tag: str) -> None:
    second = rng.sample(SECOND_DUE, len(SECOND_DUE))
    for n in range(1, 11):
        weights = rng.choice(WEIGHTS)
        if n <= 4:
            dues = [days_after(TODAY, -130 + 18 * k) for k in range(4)]
        else:
            dues = [
                days_after(TODAY, -rng.randint(18, 25)),
                days_after(TODAY, -second[n - 5]),
                days_after(TODAY, rng.randint(2, 8)),
                days_after(TODAY, rng.randint(14, 30)),
            ]
        for k in range(1, 5):
            key = f"asg-{tag}-{n:02d}{k}"
            world["assignments"][key] = {
                "assignment_id": key,
                "course_id": f"crs-{tag}-{n:02d}",
                "title": f"{ASSIGNMENT_KINDS[k - 1]} {k}",
                "due": dues[k - 1],
                "weight": weights[k - 1],
            }


def _enrol(world: World, tag: str, student_id: str, course_id: str, status: str, grade: str | None) -> Rec:
    number = len(world["enrolments"]) + 1
    key = f"enr-{tag}-{number:03d}"
    record = {
        "enrolment_id": key,
        "student_id": student_id,
        "course_id": course_id,
        "status": status,
        "grade": grade,
        "waitlist_position": None,
        "tuition_charged": 0.0,
        "withdrawal_fee": 0.0,
    }
    world["enrolments"][key] = record
    return record


def _submit(world: World, rng: random.Random, tag: str, student_id: str, assignment: Rec, marked: bool) -> None:
    key = f"sub-{tag}-{len(world['submissions']) + 1:04d}"
    world["submissions"][key] = {
        "submission_id": key,
        "assignment_id": assignment["assignment_id"],
        "student_id": student_id,
        "submitted_on": days_after(assignment["due"], -rng.randint(0, 2)),
        "file_name": f"{rng.choice(FILE_STEMS)}.pdf",
        "mark": float(rng.randint(48, 97)) if marked else None,
    }


def _enrolments(world: World, rng: random.Random, tag: str) -> None:
    students = sorted(k for k, p in world["people"].items() if p["role"] == "student")
    summer = [f"crs-{tag}-{n:02d}" for n in range(1, 5)]
    autumn = [f"crs-{tag}-{n:02d}" for n in AUTUMN]
    for student_id in students:
        for course_id in sorted(rng.sample(summer, 2)):
            grade = rng.choice(GRADES[:-1] * 3 + ("F", "F"))
            _enrol(world, tag, student_id, course_id, "completed", grade)
            for assignment in _assignments_of(world, course_id):
                _submit(world, rng, tag, student_id, assignment, True)
        for course_id in sorted(rng.sample(autumn, 3)):
            _enrol(world, tag, student_id, course_id, "enrolled", None)
            first, second, *_ = _assignments_of(world, course_id)
            _submit(world, rng, tag, student_id, first, True)
            if rng.random() < 0.75:
                _submit(world, rng, tag, student_id, second, True)
    for course_id in autumn:
        course = world["courses"][course_id]
        course["enrolled"] = sum(
            1 for e in world["enrolments"].values() if e["course_id"] == course_id and e["status"] == "enrolled"
        )
        course["capacity"] = course["enrolled"] + (0 if AUTUMN[int(course_id[-2:])]["full"] else rng.randint(4, 9))
    full = f"crs-{tag}-07"
    outside = [s for s in students if not any(e["course_id"] == full for e in _of(world, s))]
    for position, student_id in enumerate(rng.sample(outside, 2), 1):
        _enrol(world, tag, student_id, full, "waitlisted", None)["waitlist_position"] = position


def _of(world: World, student_id: str) -> list[Rec]:
    return [e for e in world["enrolments"].values() if e["student_id"] == student_id]


def _assignments_of(world: World, course_id: str) -> list[Rec]:
    return [a for _, a in sorted(world["assignments"].items()) if a["course_id"] == course_id]


def _current_credits(world: World, student_id: str) -> int:
    return sum(world["courses"][e["course_id"]]["credits"] for e in _of(world, student_id) if e["status"] == "enrolled")


def _accounts(world: World, rng: random.Random, tag: str) -> None:
    for key, person in sorted(world["people"].items()):
        if person["role"] != "student":
            continue
        load = _current_credits(world, key)
        fitting = [limit for limit in LIMITS if limit >= load]
        person["credit_limit"] = fitting[0] if rng.random() < 0.5 else fitting[-1]
        band = "international" if rng.random() < 0.3 else "home"
        owed = 0.0
        for enrolment in _of(world, key):
            if enrolment["status"] == "enrolled":
                enrolment["tuition_charged"] = tuition(world["courses"][enrolment["course_id"]]["credits"], band)
                owed += enrolment["tuition_charged"]
        paid = round(owed * rng.choice([0.25, 0.4, 0.5, 0.6]), 2)
        world["accounts"][key] = {
            "student_id": key,
            "balance": round(owed - paid, 2),
            "overdue": float(rng.choice([120, 245, 380, 515, 640])) if rng.random() < 0.25 else 0.0,
            "fee_band": band,
            "bursary": rng.random() < 0.3,
        }


def _tutoring(world: World, rng: random.Random, tag: str, index: int) -> None:
    tutors = TUTORS[4 * index : 4 * index + 4]
    for n in AUTUMN:
        for k, start in enumerate(rng.sample(STARTS, 4), 1):
            key = f"tut-{tag}-{n:02d}{k}"
            world["tutoring_slots"][key] = {
                "slot_id": key,
                "course_id": f"crs-{tag}-{n:02d}",
                "tutor": rng.choice(tutors),
                "date": days_after(TODAY, rng.randint(1, 9)),
                "start": start,
                "status": "open",
                "student_id": None,
                "confirmation_code": None,
            }
    students = sorted(k for k, p in world["people"].items() if p["role"] == "student")
    for student_id in rng.sample(students, 8):
        courses = [e["course_id"] for e in _of(world, student_id) if e["status"] == "enrolled"]
        wanted = TUTORING_LIMIT if rng.random() < 0.5 else 1
        for course_id in rng.sample(courses, wanted):
            open_slots = [
                s
                for _, s in sorted(world["tutoring_slots"].items())
                if s["course_id"] == course_id and s["status"] == "open"
            ]
            slot = rng.choice(open_slots)
            code = confirmation_code(slot["slot_id"], student_id)
            slot.update(status="booked", student_id=student_id, confirmation_code=code)


def _history(world: World, rng: random.Random, tag: str) -> None:
    """Extensions granted earlier, course packs ordered and grade changes approved: what a desk accumulates."""
    enrolled = [e for _, e in sorted(world["enrolments"].items()) if e["status"] == "enrolled"]
    for n, enrolment in enumerate(rng.sample(enrolled, 6), 1):
        assignment = _assignments_of(world, enrolment["course_id"])[2 + n % 2]
        key = f"ext-{tag}-{n:02d}"
        days = rng.randint(2, 7)
        world["extensions"][key] = {
            "extension_id": key,
            "assignment_id": assignment["assignment_id"],
            "student_id": enrolment["student_id"],
            "days": days,
            "new_due": days_after(assignment["due"], days),
            "reason": rng.choice(["illness", "caring", "bereavement"]),
        }
    for n, enrolment in enumerate(rng.sample(enrolled, 8), 1):
        account = world["accounts"][enrolment["student_id"]]
        charge = pack_charge(world["courses"][enrolment["course_id"]]["pack_price"], account["bursary"])
        key = f"pack-{tag}-{n:02d}"
        world["pack_orders"][key] = {
            "order_id": key,
            "student_id": enrolment["student_id"],
            "course_id": enrolment["course_id"],
            "charge": charge,
        }
    graded = [e for _, e in sorted(world["enrolments"].items()) if e["status"] == "completed" and e["grade"] != "A"]
    for n, enrolment in enumerate(rng.sample(graded, 2), 1):
        key = f"gc-{tag}-{n:02d}"
        world["grade_changes"][key] = {
            "request_id": key,
            "enrolment_id": enrolment["enrolment_id"],
            "requested_by": world["courses"][enrolment["course_id"]]["instructor_id"],
            "from_grade": GRADES[GRADES.index(enrolment["grade"]) + 1] if enrolment["grade"] != "F" else "F",
            "to_grade": enrolment["grade"],
            "reason": "marking_error",
            "status": "approved",
        }


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    index = int(tag[1:]) - 1
    world = _empty()
    departments = [name for name, _, _ in DEPARTMENTS[2 * index : 2 * index + 2]]
    _people(world, rng, tag, departments)
    _courses(world, rng, tag, index)
    _assignments(world, rng, tag)
    _enrolments(world, rng, tag)
    _accounts(world, rng, tag)
    _tutoring(world, rng, tag, index)
    _history(world, rng, tag)
    return world


def _places(world: World) -> list[str]:
    """A course's enrolled count is its enrolled students, never above its capacity."""
    problems = []
    for key, course in world["courses"].items():
        count = sum(1 for e in world["enrolments"].values() if e["course_id"] == key and e["status"] == "enrolled")
        if course["enrolled"] != count or count > course["capacity"]:
            problems.append(f"{key} counts {course['enrolled']} of {count} enrolled, capacity {course['capacity']}")
    return problems


def _within_limit(world: World) -> list[str]:
    """No student carries more credits this term than their standing allows."""
    return [
        f"{key} carries {_current_credits(world, key)} credits over a limit of {person['credit_limit']}"
        for key, person in world["people"].items()
        if person["role"] == "student" and _current_credits(world, key) > person["credit_limit"]
    ]


def _waitlist_full(world: World) -> list[str]:
    """Only a full course has a waiting list."""
    return [
        f"{key} waits for {e['course_id']}, which has places"
        for key, e in world["enrolments"].items()
        if e["status"] == "waitlisted"
        and world["courses"][e["course_id"]]["enrolled"] < world["courses"][e["course_id"]]["capacity"]
    ]


def _bookings(world: World) -> list[str]:
    """A booked slot carries its student's confirmation code; no student holds more than the limit upcoming."""
    problems = []
    held: dict[str, int] = {}
    for key, slot in world["tutoring_slots"].items():
        if slot["status"] == "booked":
            held[slot["student_id"]] = held.get(slot["student_id"], 0) + 1
            if slot["confirmation_code"] != confirmation_code(key, slot["student_id"]):
                problems.append(f"{key} is booked without its code")
    return problems + [f"{who} holds {count} bookings" for who, count in held.items() if count > TUTORING_LIMIT]


def _graded(enrolment: Rec) -> str | None:
    if (enrolment["status"] == "completed") != (enrolment["grade"] is not None):
        return "has a grade without having completed, or completed without a grade"
    return None


def _on_time(world: World) -> list[str]:
    """Work on record was handed in by its due date (late work comes in only through a late window)."""
    return [
        f"{key} was handed in after {world['assignments'][s['assignment_id']]['due']}"
        for key, s in world["submissions"].items()
        if s["submitted_on"] > world["assignments"][s["assignment_id"]]["due"]
    ]


def _tagged(world: World) -> list[str]:
    return [f"{table}[{key}]" for table, records in world.items() for key in records if key.split("-")[1] not in SEEDS]


INVARIANTS = (
    per_record("enrolments", "a completed enrolment, and only one, has a grade", _graded),
    Invariant("a course's enrolled count is its students, within capacity", _places),
    Invariant("no student carries more credits than their limit", _within_limit),
    Invariant("only a full course has a waiting list", _waitlist_full),
    Invariant("a booked tutoring slot carries its code; no one holds more than the limit", _bookings),
    Invariant("work on record was handed in on time", _on_time),
    Invariant("every id carries its world's tag", _tagged),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
