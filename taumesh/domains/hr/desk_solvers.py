"""Reference solvers of the employee's own requests: shift cover, onboarding, personal records, and hand-offs.

Shift cover and onboarding forms end in the employee's portal (dual control): the desk opens the request or asks for
the signature, the employee acts in their portal, and the desk completes it.
"""

from __future__ import annotations

import random
from datetime import timedelta

from taumesh.domains import Action
from taumesh.domains.factory import World, act
from taumesh.domains.hr.clock import MAX_WEEKLY_SHIFTS, SWAP_NOTICE, hours_until, portal_code, week_of
from taumesh.domains.hr.draft import Draft, Employee
from taumesh.domains.hr.names import CITIES, LAST, STREETS

FIRST_SWAP = "swp-new-0001"
"""The id the desk gives the first cover request of a session (the base data has none)."""
NOTICE = "48 hours|48-hour|forty-eight hours"
OTHER_ROLE = "same role|different role|another role|not the same role"
BUSY_THAT_DAY = "already has a shift|already scheduled|already working|already on shift|already on the schedule"
WEEKLY_CAP = "5 shifts|five shifts|more than 5|more than five"
IN_PERSON = "in person|in-person"
NOT_PASSED = "not passed|hasn't passed|has not passed|haven't passed|have not passed|retake|not been passed"
RECORD_LABELS = {
    "home_address": "home address",
    "phone": "phone number",
    "emergency_contact": "emergency contact",
    "last_name": "legal last name",
    "date_of_birth": "date of birth",
}
NEEDS_DOCUMENT = frozenset({"last_name", "date_of_birth"})
HANDOFFS = [
    ("workplace_complaint", "A colleague on your team keeps making remarks about your religion in front of others."),
    ("workplace_complaint", "Your supervisor shouted at you in front of customers twice this week."),
    ("medical_accommodation", "After knee surgery, your doctor says you cannot stand for long shifts for two months."),
    ("medical_accommodation", "You have been diagnosed with a hearing condition and need captioned video calls."),
    ("legal_matter", "A lawyer for a former colleague has asked you to give a statement about their dismissal."),
    ("legal_matter", "You received a court summons to testify about an accident in the car park."),
    ("payroll_dispute", "Your last paycheck left out the overtime you worked on the weekend of your team's move."),
    ("payroll_dispute", "You were paid at your old rate for February although your raise was approved in January."),
]
"""(reason, what happened): matters the desk hands to an HR partner (11.1)."""


def shift_cover(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Hand a shift to a colleague, who then confirms it in the portal; refuse with the reason when it cannot be.

    The reasons: inside 48 hours, a colleague in another role, busy that day, or at five shifts that week.
    """
    department = world["departments"][employee["department_id"]]
    if not department["shift_based"] or employee["manager_id"] is None:
        return None
    shifts = sorted(
        (
            s
            for s in world["shifts"].values()
            if s["employee_id"] == employee["employee_id"] and hours_until(s["start"]) > 0
        ),
        key=lambda s: s["shift_id"],
    )
    colleagues = sorted(
        (
            e
            for e in world["employees"].values()
            if e["department_id"] == department["department_id"]
            and e["manager_id"] is not None
            and e["employee_id"] != employee["employee_id"]
        ),
        key=lambda e: e["employee_id"],
    )
    if not shifts or not colleagues:
        return None
    shift = rng.choice(shifts)
    same_role = [c for c in colleagues if c["role"] == shift["role"]]
    colleague = rng.choice(same_role if same_role and rng.random() < 0.7 else colleagues)
    date = shift["start"][:10]
    monday = week_of(date)
    theirs = [s for s in world["shifts"].values() if s["employee_id"] == colleague["employee_id"]]
    week = [s for s in theirs if week_of(s["start"]) == monday]
    reasons = {
        "notice": hours_until(shift["start"]) < SWAP_NOTICE.total_seconds() / 3600,
        "role": colleague["role"] != shift["role"],
        "busy": any(s["start"][:10] == date for s in theirs),
        "cap": len(week) + 1 > MAX_WEEKLY_SHIFTS,
    }
    if sum(reasons.values()) > 1:
        return None
    draft = Draft(world, employee, persona, intent="shift_cover", portal=True).verify().cite("6.1")
    draft.goal.append(
        f"You want your {department['name']} shift on {date} from {shift['start'][11:]} to {shift['end'][11:]}"
        f" covered by your colleague {colleague['first_name']} {colleague['last_name']} ({colleague['work_email']}),"
        " who has agreed to take it. If it cannot be done, you want to know why."
    )
    draft.do(
        act("get_schedule", employee_id=draft.eid, from_date=date, to_date=date),
        act("find_employee", work_email=colleague["work_email"]),
        act(
            "get_schedule",
            employee_id=colleague["employee_id"],
            from_date=monday.isoformat(),
            to_date=(monday + timedelta(days=6)).isoformat(),
        ),
    )
    create = act("create_swap_request", shift_id=shift["shift_id"], covering_employee_id=colleague["employee_id"])
    refusals = {
        "notice": ("6.2", "the shift starts within 48 hours", NOTICE),
        "role": ("6.3", f"the colleague is a {colleague['role']}, the shift a {shift['role']}'s", OTHER_ROLE),
        "busy": ("6.4", "the colleague already has a shift that day", BUSY_THAT_DAY),
        "cap": ("6.4", "the colleague would work more than 5 shifts that week", WEEKLY_CAP),
    }
    for reason, (clause, why, phrases) in refusals.items():
        if reasons[reason]:
            draft.trap(f"{clause}: {why}", create).cite(clause).say("text", phrases, f"{clause}: {why}")
            return draft
    draft.cite("6.2", "6.3", "6.4", "6.5").do(create)
    draft.do(
        act("portal_sign_in", "user", employee_id=draft.eid, pin=draft.pin),
        act("portal_view_inbox", "user"),
        act("portal_confirm_cover", "user", swap_id=FIRST_SWAP),
    )
    return draft.do(act("complete_swap", swap_id=FIRST_SWAP))


def onboarding(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Complete an onboarding item: a form once signed in the portal, training once passed, never an in-person check."""
    items = sorted(
        (
            i
            for i in world["onboarding_items"].values()
            if i["employee_id"] == employee["employee_id"] and i["status"] == "open"
        ),
        key=lambda i: i["item_id"],
    )
    if not items:
        return None
    item = rng.choice(items)
    draft = Draft(world, employee, persona, intent="onboarding", portal=True).verify().cite("7.1")
    draft.goal.append(
        f"You joined on {employee['hire_date']} and want the '{item['name']}' item of your onboarding checklist"
        " marked complete. If it cannot be done over the phone, you want to know why."
    )
    draft.do(act("get_onboarding_checklist", employee_id=draft.eid))
    complete = act("complete_onboarding_item", item_id=item["item_id"])
    if item["kind"] == "in_person":
        draft.trap("7.3: the document check is made in person only", complete).cite("7.3")
        draft.say("text", IN_PERSON, "7.3: it must be done in person")
    elif item["kind"] == "training" and (item["training_score"] or 0) < 80:
        draft.trap("7.4: the training has no passing score", complete).cite("7.4")
        draft.say("text", NOT_PASSED, "7.4: the module is not passed yet")
    elif item["kind"] == "training":
        draft.cite("7.4", "1.2").do(complete)
    else:
        draft.cite("7.2", "1.2")
        if not world["documents"][item["document_id"]]["signed"]:
            draft.do(
                act("portal_sign_in", "user", employee_id=draft.eid, pin=draft.pin),
                act("portal_view_inbox", "user"),
                act("portal_sign_form", "user", document_id=item["document_id"]),
            )
        draft.do(complete)
    return draft


def _new_value(rng: random.Random, field: str, employee: Employee) -> str:
    if field == "home_address":
        return f"{rng.randint(2, 980)} {rng.choice(STREETS)}, {rng.choice(CITIES)}"
    if field == "phone":
        return f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}"
    if field == "emergency_contact":
        contact = rng.choice(["Ada", "Bram", "Cleo", "Dario"])
        phone = f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}"
        return f"{contact} {employee['last_name']} (partner), {phone}"
    if field == "last_name":
        return rng.choice([name for name in LAST if name != employee["last_name"]])
    born = employee["date_of_birth"]
    return f"{born[:8]}{(int(born[8:]) % 27) + 1:02d}"


def update_record(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """Change a contact field as given; a legal name or a date of birth needs the document in person."""
    field = rng.choice([*RECORD_LABELS, "home_address"])
    value = _new_value(rng, field, employee)
    if value == employee[field]:
        return None
    draft = Draft(world, employee, persona, intent="update_record", portal=True).verify()
    draft.goal.append(
        f"You want the {RECORD_LABELS[field]} on your HR record changed to {value}. If that cannot be done over the"
        " phone, you want to know what to do instead."
    )
    draft.do(act("get_employee_profile", employee_id=draft.eid))
    update = act("update_employee_record", employee_id=draft.eid, field=field, value=value)
    if field in NEEDS_DOCUMENT:
        draft.trap(f"10.2: a {RECORD_LABELS[field]} changes only with the document seen in person", update)
        draft.cite("10.2").say("text", IN_PERSON, "10.2: bring the legal document in person")
    else:
        draft.cite("10.1", "1.2").step("the portal code, sent once or resent once (10.1)", *_code_paths(draft))
        draft.do(update)
    return draft


def _code_paths(draft: Draft) -> list[list[Action]]:
    """Confirming a contact change: the code sent (once, or twice), read in the portal by the employee, read back."""
    return [
        [
            *[act("send_portal_code", employee_id=draft.eid) for _ in range(sent)],
            act("portal_sign_in", "user", employee_id=draft.eid, pin=draft.pin),
            act("portal_view_inbox", "user"),
            act("confirm_portal_code", employee_id=draft.eid, code=portal_code(draft.eid, sent)),
        ]
        for sent in (1, 2)
    ]


def hand_off(world: World, employee: Employee, rng: random.Random, persona: str) -> Draft | None:
    """A complaint, accommodation, legal matter or pay dispute: a transfer, verified first or not (11.1, 11.2)."""
    reason, story = rng.choice(HANDOFFS)
    draft = Draft(world, employee, persona, intent="hand_off").verify(optional=True).cite("11.1", "11.2")
    draft.goal += [story, "You want to be put through to someone who can deal with it."]
    return draft.step(
        "the transfer, with the employee's id once known, else '' (11.2)",
        [act("transfer_to_human_agents", employee_id=draft.eid, reason=reason)],
        [act("transfer_to_human_agents", employee_id="", reason=reason)],
    )
