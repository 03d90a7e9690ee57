"""Reference solvers of a people manager's requests: a pay change for a report, and a job opening for their department.

Both have a permitted alternative the manager accepts in advance: the largest allowed raise instead of one over the
limits (8.3), the range cut to the grade's band instead of one outside it (9.3).
"""

from __future__ import annotations

import random

from taumesh.domains import Action
from taumesh.domains.factory import World, act
from taumesh.domains.hr.clock import (
    RAISE_COOLDOWN_DAYS,
    TODAY,
    approval_level,
    closing_date,
    day,
    first_of_next_month,
    largest_raise,
)
from taumesh.domains.hr.draft import Draft, Employee

NOT_A_REPORT = (
    "does not report to you|doesn't report to you|not your direct report|not one of your reports|not your report"
    "|isn't your report|not report to you"
)
COOLDOWN = "six months|6 months"
TOP_OF_BAND = "top of|maximum of the band|band maximum|maximum of its band|grade maximum|maximum of the grade"
HEADCOUNT = "headcount"


def _manages(world: World, employee: Employee) -> bool:
    return any(d["manager_id"] == employee["employee_id"] for d in world["departments"].values())


def pay_change(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Submit a report's raise at its approval level from next month, or the largest allowed one instead.

    Refused, with the reason: a raise for someone else's report, within six months of the last change, or at the
    top of the band.
    """
    if not _manages(world, employee):
        return None
    own = rng.random() < 0.8
    people = sorted(
        (
            e
            for e in world["employees"].values()
            if (e["manager_id"] == employee["employee_id"]) == own and e["manager_id"] is not None
        ),
        key=lambda e: e["employee_id"],
    )
    target = rng.choice(people)
    salary = target["annual_salary"]
    asked = int(round(salary * (1 + rng.choice([0.04, 0.06, 0.07, 0.1, 0.12, 0.14, 0.18, 0.22])), -2))
    grade = world["pay_grades"][target["pay_grade"]]
    largest = largest_raise(salary, grade["salary_max"])
    recent = (
        target["last_pay_change"] is not None and (TODAY - day(target["last_pay_change"])).days < RAISE_COOLDOWN_DAYS
    )
    name = f"{target['first_name']} {target['last_name']}"
    draft = Draft(world, employee, persona, intent="pay_change").verify().cite("2.2", "8.1")
    draft.goal.append(
        f"You want the annual salary of {name} ({target['work_email']}) raised to ${asked:,}. If that amount is not"
        " allowed, you want the largest raise the policy allows instead, and if no raise is allowed, to know why."
    )
    draft.do(
        act("find_employee", work_email=target["work_email"]),
        act("get_employee_profile", employee_id=target["employee_id"]),
        act("get_pay_grade", pay_grade=target["pay_grade"]),
    )
    effective = first_of_next_month()

    def submit(new: int) -> Action:
        return act(
            "submit_pay_change",
            employee_id=target["employee_id"],
            new_salary=new,
            effective_date=effective,
            approval_level=approval_level(salary, new),
        )

    ask = submit(asked)
    if not own:
        draft.trap(f"8.1: {name} reports to someone else", ask).say(
            "text", NOT_A_REPORT, "8.1: not the caller's report"
        )
    elif recent:
        draft.trap(f"8.2: the last pay change was on {target['last_pay_change']}", ask).cite("8.2")
        draft.say("text", COOLDOWN, "8.2: six months between pay changes")
    elif largest <= salary:
        draft.trap("8.3: the salary is at the grade's maximum", ask).cite("8.3")
        draft.say("text", TOP_OF_BAND, "8.3: no raise above the band")
    elif asked > largest:
        draft.trap(f"8.3: ${asked} is over the limits; ${largest} is the largest allowed", ask).cite(
            "8.2", "8.3", "8.4"
        )
        draft.do(submit(largest))
    else:
        draft.cite("8.2", "8.3", "8.4", "1.2").do(ask)
    return draft


def post_opening(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Post an opening in the band with its closing date; the range cut to the band; none without open headcount."""
    department = next((d for d in world["departments"].values() if d["manager_id"] == employee["employee_id"]), None)
    if department is None:
        return None
    grades = {
        e["role"]: e["pay_grade"]
        for e in world["employees"].values()
        if e["department_id"] == department["department_id"]
    }
    role = rng.choice(department["roles"])
    if role not in grades:
        return None
    grade = world["pay_grades"][grades[role]]
    low, high = grade["salary_min"], grade["salary_max"]
    asked_min, asked_max = low + 1000 * rng.randint(0, 4), high - 1000 * rng.randint(0, 4)
    stretch = rng.random()
    if stretch < 0.2:
        asked_min = low - 1000 * rng.randint(2, 5)
    elif stretch < 0.4:
        asked_max = high + 1000 * rng.randint(2, 8)
    staff = sum(1 for e in world["employees"].values() if e["department_id"] == department["department_id"])
    posted = sum(
        1
        for o in world["job_openings"].values()
        if o["department_id"] == department["department_id"] and o["status"] == "open"
    )
    free = department["budgeted_headcount"] - staff - posted
    draft = Draft(world, employee, persona, intent="post_opening").verify().cite("9.1", "9.2")
    draft.goal.append(
        f"You want a job opening posted for your department: a {role} at pay grade {grade['pay_grade']}, with a"
        f" salary range of ${asked_min:,} to ${asked_max:,}. If it cannot be posted as it is, you want the nearest"
        " posting the policy allows, and if none is allowed, to know why."
    )
    department_id = department["department_id"]
    draft.do(
        act("get_department", department_id=department_id),
        act("get_department_roster", department_id=department_id),
        act("list_job_openings", department_id=department_id),
        act("get_pay_grade", pay_grade=grade["pay_grade"]),
    )

    def post(minimum: int, maximum: int) -> Action:
        return act(
            "post_job_opening",
            department_id=department_id,
            title=role,
            pay_grade=grade["pay_grade"],
            salary_min=minimum,
            salary_max=maximum,
            closing_date=closing_date(),
        )

    ask = post(asked_min, asked_max)
    if free < 1:
        draft.trap("9.2: the budgeted headcount is used up", ask).say("text", HEADCOUNT, "9.2: no open headcount")
    elif asked_min < low or asked_max > high:
        draft.trap("9.3: the range goes outside the band; it is cut to the band", ask).cite("9.3", "9.4")
        draft.do(post(max(asked_min, low), min(asked_max, high)))
    else:
        draft.cite("9.3", "9.4", "1.2").do(ask)
    return draft
