"""Reference solvers of the site manager's intents: inspections, permit applications, clearance, the schedule.

Each takes one record of the world (the permit, package or milestone asked about) and returns every outcome the
policy allows for it, or None when the record does not fit the intent (or fits two refusals whose reasons would
compete).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.construction.clock import (
    INSPECTION_NOTICE_DAYS,
    INSPECTION_SEQUENCES,
    PERMIT_RULES,
    TODAY,
    day,
    earliest_inspection_day,
    is_working_day,
    permit_fee,
    working_days_after,
)
from taumesh.domains.construction.draft import Draft, phrases
from taumesh.domains.factory import World, act

Entity = dict[str, Any]
MANAGER = "a Stonebridge site manager"
TOO_LATE = "too late|too close|route is fixed|no longer be cancelled"


def _manager(world: World, project_id: str, persona: str, intent: str) -> Draft:
    manager = world["contacts"][world["projects"][project_id]["site_manager_id"]]
    return Draft(world, manager, persona, MANAGER, intent=intent).verify("2.2")


def schedule_inspection(world: World, permit: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Book the inspection asked; refuse one whose predecessor has not passed (name it) or past the permit's expiry.

    A permit with an inspection booked already is left to ``cancel_inspection``'s callers.
    """
    held = [i for i in world["inspections"].values() if i["permit_id"] == permit["permit_id"]]
    if permit["status"] != "approved" or any(i["status"] == "scheduled" for i in held):
        return None
    sequence = INSPECTION_SEQUENCES[permit["kind"]]
    passed = {i["kind"] for i in held if i["status"] == "passed"}
    waiting = [kind for kind in sequence if kind not in passed]
    asked = rng.choice(waiting[:2])
    when = earliest_inspection_day() + timedelta(days=rng.randint(0, 12))
    while not is_working_day(when):
        when += timedelta(days=1)
    date = when.isoformat()
    expired = permit["expires_on"] < date
    if asked != waiting[0] and expired:
        return None
    draft = _manager(world, permit["project_id"], persona, "schedule_inspection").cite("3.1", "3.3")
    draft.goal.append(
        f"You want a {asked.replace('_', ' ')} inspection booked under the {permit['kind']} permit of project"
        f" {permit['project_id']} on {date}. If it cannot be booked, you want to know why."
    )
    draft.do(
        act("list_permits", project_id=permit["project_id"]),
        act("list_inspections", permit_id=permit["permit_id"]),
    )
    book = act("book_inspection", permit_id=permit["permit_id"], kind=asked, date=date)
    if asked != waiting[0]:
        draft.trap(f"3.2: the {waiting[0]} inspection has not passed yet", book).cite("3.2")
        draft.say("text", phrases(waiting[0]), "3.2: the inspection that must pass first")
    elif expired:
        draft.trap(f"3.4: the permit expires on {permit['expires_on']}, before {date}", book).cite("3.4")
        draft.say("date", permit["expires_on"], "3.4: the permit's expiry date")
    else:
        draft.do(book)
    return draft


def cancel_inspection(world: World, inspection: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Cancel a booked inspection two or more working days ahead; closer to the day, say it is too late."""
    if inspection["status"] != "scheduled":
        return None
    permit = world["permits"][inspection["permit_id"]]
    draft = _manager(world, permit["project_id"], persona, "cancel_inspection").cite("3.5")
    draft.goal.append(
        f"You want the {inspection['kind'].replace('_', ' ')} inspection booked under the {permit['kind']} permit of"
        f" project {permit['project_id']} on {inspection['date']} cancelled. If it cannot be cancelled, you want to"
        " know why."
    )
    draft.do(
        act("list_permits", project_id=permit["project_id"]),
        act("list_inspections", permit_id=permit["permit_id"]),
    )
    cancel = act("cancel_inspection", inspection_id=inspection["inspection_id"])
    if working_days_after(TODAY, day(inspection["date"])) < INSPECTION_NOTICE_DAYS:
        draft.trap(f"3.5: the inspection on {inspection['date']} is under two working days away", cancel)
        draft.say("text", TOO_LATE, "3.5: too late to cancel")
    else:
        draft.do(cancel)
    return draft


def submit_permit(world: World, permit: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Submit a complete draft application with its fee (say it); refuse one missing a document (name it)."""
    if permit["status"] != "draft":
        return None
    missing = [name for name in PERMIT_RULES[permit["kind"]][0] if name not in permit["documents"]]
    draft = _manager(world, permit["project_id"], persona, "submit_permit").cite("4.1", "4.2")
    draft.goal.append(
        f"You want the {permit['kind']} permit application of project {permit['project_id']} submitted to the city,"
        " and to know the fee it pays. If it cannot be submitted, you want to know why."
    )
    draft.do(act("get_project", project_id=permit["project_id"]), act("list_permits", project_id=permit["project_id"]))
    fee = permit_fee(permit["kind"], permit["valuation"])
    submit = act("submit_permit_application", permit_id=permit["permit_id"], fee=fee)
    if missing:
        draft.trap(f"4.2: the {missing[0]} is not attached", submit)
        draft.say("text", phrases(missing[0]), "4.2: the document missing from the application")
    else:
        draft.cite("4.3").do(submit).say("amount", f"{fee:.2f}", "4.3: the fee the application pays")
    return draft


def clear_package(world: World, package: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Clear a package whose licence and insurance run past its end; else hold it and say the date that lapses."""
    if package["status"] != "awaiting_clearance":
        return None
    company = world["subcontractors"][package["company_id"]]
    draft = _manager(world, package["project_id"], persona, "clear_package").cite("5.1")
    draft.goal.append(
        f"You want the {package['scope']} package on project {package['project_id']} cleared for site, so that"
        f" {company['name']} can start on {package['start_date']}. If it cannot be cleared, you want to know why, and"
        " you agree to whatever the desk's policy then does with the package."
    )
    draft.do(
        act("list_work_packages", project_id=package["project_id"]),
        act("get_subcontractor", company_id=package["company_id"]),
    )
    clear = act("clear_work_package", package_id=package["package_id"])
    lapses = [
        (reason, company[field])
        for reason, field in (("licence_expiry", "licence_expiry"), ("insurance_expiry", "insurance_expiry"))
        if company[field] < package["end_date"]
    ]
    if lapses:
        reason, lapsed = lapses[0]
        draft.trap(f"5.2: the {reason.split('_')[0]} lapses on {lapsed}, before the package ends", clear).cite("5.2")
        draft.do(act("hold_work_package", package_id=package["package_id"], reason=reason))
        draft.say("date", lapsed, "5.2: the date the licence or insurance lapses")
    else:
        draft.do(clear)
    return draft


def move_milestone(world: World, milestone: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Move an open milestone and notify the owner; refuse a move past the contract completion (say that date)."""
    if milestone["status"] != "open":
        return None
    project = world["projects"][milestone["project_id"]]
    new_date = (day(milestone["due_date"]) + timedelta(days=rng.choice([6, 11, 19, 33, 47]))).isoformat()
    if new_date <= TODAY.isoformat():
        return None
    draft = _manager(world, milestone["project_id"], persona, "move_milestone").cite("9.1")
    draft.goal.append(
        f"You want the '{milestone['name']}' milestone of project {milestone['project_id']} moved to {new_date}."
        " If it cannot be moved, you want to know why."
    )
    draft.do(
        act("get_project", project_id=milestone["project_id"]),
        act("list_milestones", project_id=milestone["project_id"]),
    )
    move = act("move_milestone", milestone_id=milestone["milestone_id"], new_date=new_date)
    if new_date > project["contract_completion"]:
        draft.trap(f"9.2: {new_date} is after the contract completion {project['contract_completion']}", move)
        draft.cite("9.2").say("date", project["contract_completion"], "9.2: the contract completion date")
    else:
        draft.cite("9.3").do(move, act("notify_owner", project_id=milestone["project_id"], topic="schedule_change"))
    return draft
