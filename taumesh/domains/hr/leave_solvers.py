"""Reference solvers of the leave intents: booking annual leave, cancelling it, and cashing it out.

Each returns every outcome the policy allows for one employee, or None when the employee's record does not fit the
intent (or fits two refusals at once, whose reasons would compete).
"""

from __future__ import annotations

import math
import random
from datetime import timedelta

from taumesh.domains.factory import World, act
from taumesh.domains.hr.clock import (
    CASH_OUT_CAP_DAYS,
    CASH_OUT_FLOOR_DAYS,
    LONG_LEAVE_DAYS,
    LONG_LEAVE_NOTICE_DAYS,
    TODAY,
    day,
    payout,
    working_days,
    years_of_service,
)
from taumesh.domains.hr.draft import Draft, Employee

NOTICE = "two weeks|14 days|fourteen days|2 weeks"
STARTED = "already started|already begun|already under way|already underway|has started|already in progress"
FULL_TIME = "full-time|full time|part-time|part time"
SERVICE = "one year|1 year|12 months|a year of service|year of service"
YEARLY_LIMIT = "yearly limit|annual limit|limit of 5|limit of five|already cashed out"
MUST_REMAIN = "must remain|remain in your balance|at least 5 days|at least five days|left in your balance"


def _end_after(start: str, length: int) -> str:
    """The last day of ``length`` working days starting on ``start``."""
    end = day(start)
    while working_days(start, end.isoformat()) < length:
        end += timedelta(days=1)
    return end.isoformat()


def _overlaps(start: str, end: str, first: str, last: str) -> bool:
    return start <= last and first <= end


def request_leave(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Book annual leave; refuse over the balance (say it), in a blackout (name it), or long without notice."""
    balance = world["leave_balances"][employee["employee_id"]]["annual_days"]
    department = world["departments"][employee["department_id"]]
    length = rng.choice([2, 3, 4, 6, 8])
    start_day = TODAY + timedelta(days=rng.randint(3, 100))
    start_day += timedelta(days=(7 - start_day.weekday()) % 7 if start_day.weekday() >= 5 else 0)
    start = start_day.isoformat()
    end = _end_after(start, length)
    booked = [
        r
        for r in world["leave_requests"].values()
        if r["employee_id"] == employee["employee_id"] and r["status"] == "approved"
    ]
    if balance < 1 or any(_overlaps(start, end, r["start_date"], r["end_date"]) for r in booked):
        return None
    blackout = next((b for b in department["blackouts"] if _overlaps(start, end, b["start"], b["end"])), None)
    short_notice = length > LONG_LEAVE_DAYS and (start_day - TODAY).days < LONG_LEAVE_NOTICE_DAYS
    reasons = [blackout is not None, short_notice, length > balance]
    if sum(reasons) > 1:
        return None
    draft = Draft(world, employee, persona, intent="request_leave").verify().cite("3.1")
    draft.goal.append(f"You want annual leave from {start} to {end}. If it cannot be booked, you want to know why.")
    draft.do(
        act("get_employee_profile", employee_id=draft.eid),
        act("get_department", department_id=department["department_id"]),
        act("get_leave_balance", employee_id=draft.eid),
        act("count_working_days", start_date=start, end_date=end),
    )
    book = act("submit_leave_request", employee_id=draft.eid, start_date=start, end_date=end)
    if blackout is not None:
        draft.trap(f"3.3: the dates fall in the department's {blackout['reason']} blackout", book).cite("3.3")
        draft.say("text", f"blackout|{blackout['reason']}", "3.3: the blackout the dates fall in")
    elif short_notice:
        draft.trap("3.4: more than 5 working days starting in under 14 days", book).cite("3.4")
        draft.say("text", NOTICE, "3.4: long leave needs two weeks' notice")
    elif length > balance:
        draft.trap(f"3.2: {length} working days exceed the balance of {balance:g}", book).cite("3.2")
        draft.say("amount", f"{balance:.2f}", "3.2: the annual balance the employee has now, in days")
    else:
        draft.cite("1.2").do(book)
    return draft


def cancel_leave(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Cancel leave not yet started and say the balance after; leave already started cannot be (say so)."""
    requests = sorted(
        (
            r
            for r in world["leave_requests"].values()
            if r["employee_id"] == employee["employee_id"]
            and r["status"] == "approved"
            and r["leave_type"] == "annual"
            and r["end_date"] >= TODAY.isoformat()
        ),
        key=lambda r: r["request_id"],
    )
    if not requests:
        return None
    request = rng.choice(requests)
    balance = world["leave_balances"][employee["employee_id"]]["annual_days"]
    draft = Draft(world, employee, persona, intent="cancel_leave").verify()
    draft.goal.append(
        f"You want the annual leave you booked from {request['start_date']} to {request['end_date']} cancelled, and"
        " to know how many annual leave days you will have after that. If it cannot be cancelled, you want to know"
        " why."
    )
    draft.do(act("get_leave_requests", employee_id=draft.eid))
    cancel = act("cancel_leave_request", request_id=request["request_id"])
    if request["start_date"] <= TODAY.isoformat():
        draft.trap("4.2: the leave has already started; only the manager can end it early", cancel).cite("4.2")
        draft.say("text", STARTED, "4.2: the leave has already started")
    else:
        draft.cite("4.1", "1.2").do(act("get_leave_balance", employee_id=draft.eid), cancel)
        draft.say("amount", f"{balance + request['days']:.2f}", "4.1: the annual balance once the days return")
    return draft


def cash_out_leave(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Cash out the days asked, or the most both limits allow (with the payout); refuse the ineligible, saying why."""
    balance = world["leave_balances"][employee["employee_id"]]
    asked = rng.choice([2, 3, 4, 5])
    cap_left = math.floor(CASH_OUT_CAP_DAYS - balance["cashed_out_this_year"])
    floor_left = math.floor(balance["annual_days"] - CASH_OUT_FLOOR_DAYS)
    allowed = min(asked, cap_left, floor_left)
    draft = Draft(world, employee, persona, intent="cash_out_leave").verify().cite("5.1")
    draft.goal.append(
        f"You want to cash out {asked} days of your annual leave, and to know how much that pays before tax. If you"
        " cannot have all of them, you want as many days as the policy allows, and if none are allowed, to know why."
    )
    draft.do(act("get_employee_profile", employee_id=draft.eid), act("get_leave_balance", employee_id=draft.eid))
    ask = act("cash_out_leave", employee_id=draft.eid, days=asked)
    salary = employee["annual_salary"]
    if employee["employment_type"] == "part_time":
        draft.trap("5.1: part-time employees cannot cash out leave", ask).say("text", FULL_TIME, "5.1: full-time only")
    elif years_of_service(employee["hire_date"]) < 1:
        draft.trap("5.1: under one year of service", ask).say("text", SERVICE, "5.1: one year of service needed")
    elif allowed <= 0:
        phrases = [YEARLY_LIMIT] * (cap_left <= 0) + [MUST_REMAIN] * (floor_left <= 0)
        draft.trap("5.2: no day is allowed under the yearly limit and the days that must remain", ask).cite(
            "5.2", "5.3"
        )
        draft.say("text", "|".join(phrases), "5.3: which limit stops the cash-out")
    elif allowed < asked:
        draft.trap(f"5.3: only {allowed} of the {asked} days are allowed; those are cashed out", ask)
        draft.cite("5.2", "5.3", "5.4").do(act("cash_out_leave", employee_id=draft.eid, days=allowed))
        draft.say("amount", f"{payout(salary, allowed):.2f}", "5.4: the payout before tax")
    else:
        draft.cite("5.2", "5.4", "1.2").do(ask)
        draft.say("amount", f"{payout(salary, asked):.2f}", "5.4: the payout before tax")
    return draft
