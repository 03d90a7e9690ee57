"""The HR desk's worlds: one Northwind site per seed, its people, leave, rosters, onboarding and openings.

Every id but the shared pay grades carries the world's tag, and every email the site's domain, so an entity belongs
to one world; :data:`INVARIANTS` states the rules each built world keeps (a salary inside its band, a manager in the
same department, leave days that are the range's working days, one shift a day per person).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.hr.clock import TODAY, working_days
from taumesh.domains.hr.names import (
    BLACKOUT_REASONS,
    CITIES,
    DEPARTMENTS,
    FIRST,
    LAST,
    MANAGER_GRADE,
    ONBOARDING_ITEMS,
    PAY_GRADES,
    RELATIONS,
    STREETS,
)

SEEDS = {"w1": 44_101, "w2": 44_102, "w3": 44_103}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
SITES = {"w1": "harbor", "w2": "summit", "w3": "prairie"}
"""Each world is one site of the company, with its own email domain."""
STAFF_PER_DEPARTMENT = 9
"""Employees under each department manager."""
ROSTER_WEEKS = 3
"""Weeks of shifts the roster holds, from this week on."""
SHIFT_TIMES = [("07:00", "15:00"), ("15:00", "23:00")]


def tag_of(identifier: str) -> str:
    """The world tag an id carries (``emp-w1-004`` -> ``w1``)."""
    return identifier.split("-")[1]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world from ``seed``; every id but the pay grades' carries ``tag``."""
    rng = random.Random(seed)
    tables: World = {
        "pay_grades": {
            grade: {"pay_grade": grade, "label": label, "salary_min": low, "salary_max": high}
            for grade, (label, low, high) in PAY_GRADES.items()
        },
        **{
            table: {}
            for table in (
                "departments",
                "employees",
                "leave_balances",
                "leave_requests",
                "shifts",
                "swap_requests",
                "onboarding_items",
                "documents",
                "portal_accounts",
                "job_openings",
                "pay_changes",
                "verifications",
                "record_changes",
                "handoffs",
            )
        },
    }
    names = rng.sample([(f, last) for f in FIRST for last in LAST], len(DEPARTMENTS) * (STAFF_PER_DEPARTMENT + 1))
    slack = [0, 0, 1, 1, 2, 3]
    rng.shuffle(slack)
    for number, (name, shift_based, roles) in enumerate(DEPARTMENTS, 1):
        department_id = f"dep-{tag}-{number:02d}"
        people = names[(number - 1) * (STAFF_PER_DEPARTMENT + 1) : number * (STAFF_PER_DEPARTMENT + 1)]
        manager_id = _employee(rng, tables, tag, department_id, "department manager", MANAGER_GRADE, people[0], None)
        for person in people[1:]:
            role = rng.choice(sorted(roles))
            _employee(rng, tables, tag, department_id, role, roles[role], person, manager_id)
        openings = _openings(rng, tables, tag, department_id, roles)
        start = TODAY + timedelta(days=rng.randint(10, 90))
        tables["departments"][department_id] = {
            "department_id": department_id,
            "name": name,
            "manager_id": manager_id,
            "budgeted_headcount": STAFF_PER_DEPARTMENT + 1 + openings + slack[number - 1],
            "shift_based": shift_based,
            "roles": sorted(roles),
            "blackouts": [
                {
                    "start": start.isoformat(),
                    "end": (start + timedelta(days=rng.randint(4, 9))).isoformat(),
                    "reason": BLACKOUT_REASONS[name],
                }
            ],
        }
        if shift_based:
            _roster(rng, tables, tag, department_id)
    return tables


def _date_between(rng: random.Random, first: date, last: date) -> date:
    return first + timedelta(days=rng.randint(0, (last - first).days))


def _employee(
    rng: random.Random,
    tables: World,
    tag: str,
    department_id: str,
    role: str,
    grade: str,
    name: tuple[str, str],
    manager_id: str | None,
) -> str:
    employee_id = f"emp-{tag}-{len(tables['employees']) + 1:03d}"
    first, last = name
    kind = rng.random()
    if manager_id is not None and kind < 0.12:
        hired = _date_between(rng, TODAY - timedelta(days=28), TODAY)  # a new hire, still onboarding
    elif kind < 0.25:
        hired = _date_between(rng, TODAY - timedelta(days=330), TODAY - timedelta(days=40))
    else:
        hired = _date_between(rng, date(2012, 1, 9), date(2024, 12, 16))
    _, low, high = PAY_GRADES[grade]
    salary = high - rng.randint(0, 1500) if rng.random() < 0.12 else rng.randrange(low, high - 4000, 250)
    new = (TODAY - hired).days < 40
    changed = None
    if (TODAY - hired).days > 240:
        recent = rng.random() < 0.3
        first_day = (
            TODAY - timedelta(days=170) if recent else max(hired + timedelta(days=30), TODAY - timedelta(days=900))
        )
        changed = _date_between(rng, first_day, TODAY - timedelta(days=20 if recent else 200)).isoformat()
    part_time = manager_id is not None and rng.random() < 0.15
    relation = rng.choice(RELATIONS)
    tables["employees"][employee_id] = {
        "employee_id": employee_id,
        "first_name": first,
        "last_name": last,
        "work_email": f"{first.lower()}.{last.lower()}@{SITES[tag]}.northwind.example",
        "date_of_birth": _date_between(rng, date(1964, 1, 1), date(2003, 12, 31)).isoformat(),
        "ssn_last_four": f"{rng.randint(0, 9999):04d}",
        "department_id": department_id,
        "role": role,
        "manager_id": manager_id,
        "employment_type": "part_time" if part_time else "full_time",
        "hire_date": hired.isoformat(),
        "pay_grade": grade,
        "annual_salary": salary,
        "last_pay_change": changed,
        "home_address": f"{rng.randint(2, 980)} {rng.choice(STREETS)}, {rng.choice(CITIES)}",
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}",
        "emergency_contact": f"{rng.choice(FIRST)} {last} ({relation}), 555-{rng.randint(200, 989):03d}-"
        f"{rng.randint(1000, 9999):04d}",
    }
    tables["portal_accounts"][employee_id] = {
        "employee_id": employee_id,
        "pin": f"{rng.randint(1000, 9999)}",
        "signed_in": False,
        "codes_sent": 0,
        "messages": [],
    }
    _leave(rng, tables, tag, employee_id, new, part_time)
    if new:
        _onboarding(rng, tables, tag, employee_id, hired)
    return employee_id


def _leave(rng: random.Random, tables: World, tag: str, employee_id: str, new: bool, part_time: bool) -> None:
    tables["leave_balances"][employee_id] = {
        "employee_id": employee_id,
        "annual_days": 1.5 if new else rng.randrange(0, 49) / 2,
        "sick_days": float(rng.randint(0, 10)),
        "accrual_days_per_month": 0.75 if part_time else 1.5,
        "cashed_out_this_year": 0.0 if new else float(rng.choice([0, 0, 0, 2, 3, 5])),
    }
    if new:
        return
    cursor = TODAY - timedelta(days=rng.randint(5, 50))
    for _ in range(rng.randint(1, 3)):
        start = cursor + timedelta(days=(7 - cursor.weekday()) % 7)  # a Monday
        end = start + timedelta(days=rng.choice([1, 2, 3, 4, 7, 8, 11]))
        request_id = f"lr-{tag}-{len(tables['leave_requests']) + 1:04d}"
        tables["leave_requests"][request_id] = {
            "request_id": request_id,
            "employee_id": employee_id,
            "leave_type": rng.choice(["annual", "annual", "annual", "sick"]),
            "start_date": start.isoformat(),
            "end_date": end.isoformat(),
            "days": working_days(start.isoformat(), end.isoformat()),
            "status": "cancelled" if rng.random() < 0.1 else "approved",
        }
        cursor = end + timedelta(days=rng.randint(10, 60))


def _onboarding(rng: random.Random, tables: World, tag: str, employee_id: str, hired: date) -> None:
    for name, kind in ONBOARDING_ITEMS:
        item_id = f"ob-{tag}-{len(tables['onboarding_items']) + 1:04d}"
        document_id = None
        done = rng.random() < 0.2
        if kind == "signature":
            document_id = f"doc-{tag}-{len(tables['documents']) + 1:04d}"
            signed = done or rng.random() < 0.3
            tables["documents"][document_id] = {
                "document_id": document_id,
                "employee_id": employee_id,
                "title": name,
                "signed": signed,
            }
        score = rng.choice([None, 64, 72, 85, 91, 96]) if kind == "training" else None
        tables["onboarding_items"][item_id] = {
            "item_id": item_id,
            "employee_id": employee_id,
            "name": name,
            "kind": kind,
            "document_id": document_id,
            "training_score": score,
            "due_date": (hired + timedelta(days=30)).isoformat(),
            "status": "complete" if done and kind == "signature" else "open",
        }


def _openings(rng: random.Random, tables: World, tag: str, department_id: str, roles: dict[str, str]) -> int:
    count = rng.randint(0, 2)
    for _ in range(count):
        opening_id = f"job-{tag}-{len(tables['job_openings']) + 1:03d}"
        role = rng.choice(sorted(roles))
        _, low, high = PAY_GRADES[roles[role]]
        posted = TODAY - timedelta(days=rng.randint(3, 25))
        tables["job_openings"][opening_id] = {
            "opening_id": opening_id,
            "department_id": department_id,
            "title": role,
            "pay_grade": roles[role],
            "salary_min": low,
            "salary_max": high - 2000,
            "posted_on": posted.isoformat(),
            "closing_date": (posted + timedelta(days=30)).isoformat(),
            "status": "open",
        }
    return count


def _roster(rng: random.Random, tables: World, tag: str, department_id: str) -> None:
    staff = [
        e["employee_id"]
        for e in tables["employees"].values()
        if e["department_id"] == department_id and e["manager_id"] is not None
    ]
    for employee_id in staff:
        role = tables["employees"][employee_id]["role"]
        for week in range(ROSTER_WEEKS):
            monday = TODAY + timedelta(days=7 * week)
            for offset in sorted(rng.sample(range(6), rng.choice([3, 4, 4, 5]))):
                start, end = rng.choice(SHIFT_TIMES)
                when = (monday + timedelta(days=offset)).isoformat()
                shift_id = f"sh-{tag}-{len(tables['shifts']) + 1:04d}"
                tables["shifts"][shift_id] = {
                    "shift_id": shift_id,
                    "employee_id": employee_id,
                    "department_id": department_id,
                    "role": role,
                    "start": f"{when}T{start}",
                    "end": f"{when}T{end}",
                }


def _salary_in_band(employee: dict[str, Any]) -> str | None:
    _, low, high = PAY_GRADES[employee["pay_grade"]]
    return None if low <= employee["annual_salary"] <= high else f"salary {employee['annual_salary']} outside its band"


def _manager_in_department(world: World) -> list[str]:
    employees = world["employees"]
    return [
        f"employees[{key}] reports to {e['manager_id']} of another department"
        for key, e in employees.items()
        if e["manager_id"] is not None and employees[e["manager_id"]]["department_id"] != e["department_id"]
    ]


def _one_shift_a_day(world: World) -> list[str]:
    seen: set[tuple[str, str]] = set()
    clashes = []
    for key, shift in world["shifts"].items():
        slot = (shift["employee_id"], shift["start"][:10])
        if slot in seen:
            clashes.append(f"shifts[{key}] is a second shift that day")
        seen.add(slot)
    return clashes


def _leave_days(request: dict[str, Any]) -> str | None:
    counted = working_days(request["start_date"], request["end_date"])
    return None if counted == request["days"] else f"days {request['days']} but the range holds {counted}"


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table != "pay_grades"
        for key in records
        if tag_of(key) not in SEEDS
    ]


INVARIANTS = (
    per_record("employees", "salaries lie inside their grade's band", _salary_in_band),
    per_record(
        "employees",
        "pay changes follow the hire date",
        lambda e: None if not e["last_pay_change"] or e["last_pay_change"] > e["hire_date"] else "changed before hire",
    ),
    per_record("leave_requests", "leave days are the range's working days", _leave_days),
    per_record(
        "onboarding_items",
        "onboarding items fall due after today",
        lambda i: None if i["due_date"] > TODAY.isoformat() else f"due {i['due_date']}, already past",
    ),
    Invariant("managers are in their reports' department", _manager_in_department),
    Invariant("nobody works two shifts a day", _one_shift_a_day),
    Invariant("every id carries its world's tag", _tagged),
)
