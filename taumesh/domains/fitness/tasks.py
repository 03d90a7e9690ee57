"""The reference solvers: per intent, every outcome the policy allows, from a world and a member.

Each solver reads the member's record as the agent would through its tools, then writes the steps of every allowed
outcome (ties between classes or trainer slots, any safe routine of the same focus), the statements the agent must
make (the condition that rules a request out, a total, a date, an amount due), and for a trap the write the member
asks for that the policy forbids, with the clause that forbids it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import Any

from taumesh.domains.factory import FactoryTask, World, act
from taumesh.domains.fitness.catalog import GUESTS
from taumesh.domains.fitness.clock import (
    MAX_FREEZE_MONTHS,
    NOW,
    TODAY,
    add_months,
    cancellation_effective,
    goal_cap,
    importable,
    in_last_week,
    late_cancellation,
    money,
    termination_fee,
    waiver_available,
)
from taumesh.domains.fitness.draft import PERSONAS, Draft
from taumesh.domains.fitness.safety import (
    active_conditions,
    blocking_conditions,
    may_coach,
    spoken_reason,
)

Member = dict[str, Any]
Solver = Callable[[World, Member, random.Random, str], Draft | None]
CONDITION_CLAUSE = {
    "knee_injury": "3.3",
    "lower_back_pain": "3.4",
    "hypertension": "3.5",
    "pregnancy": "3.6",
    "asthma": "3.7",
}
"""The policy clause of each condition's rule."""


def _when(start: str) -> tuple[str, str]:
    return start[:10], start[11:]


def _conditions_cited(draft: Draft, item: dict[str, Any]) -> Draft:
    """The safety clauses a class or routine decision rests on: each condition whose rule applies, and 3.8."""
    member = draft.member
    for condition in member["conditions"]:
        clause = CONDITION_CLAUSE[condition]
        if condition in member["cleared_conditions"]:
            draft.cite("3.8", clause)
        elif blocking_conditions({**member, "conditions": [condition]}, item):
            draft.cite(clause)
    return draft


def _class_ok(member: Member, session: dict[str, Any], world: World) -> bool:
    """Bookable by this member: a spot left, not started, not already booked by them."""
    mine = {
        b["class_id"]
        for b in world["bookings"].values()
        if b["member_id"] == member["member_id"] and b["status"] == "booked"
    }
    return (
        session["booked"] < session["capacity"]
        and session["start"] > NOW.isoformat()
        and session["class_id"] not in mine
    )


def book_class(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """The class the member names; if the safety rules rule it out, the earliest allowed class that day (4.6)."""
    if member["status"] != "active":
        return None
    day = (TODAY.fromordinal(TODAY.toordinal() + rng.randint(1, 6))).isoformat()
    classes = sorted(
        (c for c in world["classes"].values() if c["club_id"] == member["home_club_id"] and c["start"][:10] == day),
        key=lambda c: (c["start"], c["class_id"]),
    )
    open_classes = [c for c in classes if _class_ok(member, c, world)]
    if not open_classes:
        return None
    target = rng.choice(open_classes)
    blocking = blocking_conditions(member, target)
    draft = Draft(world, member, persona, intent="book_class").verify().cite("3.1", "3.2", "4.1", "4.2")
    draft.do(act("get_member_profile", member_id=draft.mid), act("list_classes", club_id=draft.club, date=day))
    draft.goal.append(
        f"You want to book the {target['title']} class at {_when(target['start'])[1]} on {day} at your home club."
        " If the agent says you may not take it, you want the earliest class that day at your club that you are"
        " allowed to take."
    )
    _conditions_cited(draft, target)
    ask = act("book_class", member_id=draft.mid, class_id=target["class_id"])
    if not blocking:
        return draft.do(ask)
    allowed = [c for c in open_classes if not blocking_conditions(member, c)]
    if not allowed:
        return None
    first = allowed[0]["start"]
    ties = [c for c in allowed if c["start"] == first]
    draft.trap(
        f"3.10, 4.6: {target['title']} is ruled out for the member's {', '.join(blocking)}; the earliest allowed"
        " class that day is booked instead",
        ask,
    ).cite("3.10", "4.6")
    draft.say("text", spoken_reason(blocking), "3.10: the declared condition that rules the class out")
    return draft.step(
        "the earliest allowed class that day, any of a tie (4.6)",
        *[[act("book_class", member_id=draft.mid, class_id=c["class_id"])] for c in ties],
    )


WAIVER_USED = "already used|already had|365 days|past year|last year|once a year|once every"


def cancel_class(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """Cancel a booking; late: the fee, waived on request once in 365 days, else kept and the reason said (4.4)."""
    bookings = sorted(
        (
            b
            for b in world["bookings"].values()
            if b["member_id"] == member["member_id"]
            and b["status"] == "booked"
            and world["classes"][b["class_id"]]["start"] > NOW.isoformat()
        ),
        key=lambda b: b["booking_id"],
    )
    if not bookings:
        return None
    booking = rng.choice(bookings)
    session = world["classes"][booking["class_id"]]
    day, time = _when(session["start"])
    draft = Draft(world, member, persona, intent="cancel_class").verify().cite("4.3")
    draft.do(act("get_member_bookings", member_id=draft.mid), act("get_member_profile", member_id=draft.mid))
    draft.goal.append(
        f"You want to cancel your booking for the {session['title']} class on {day} at {time}. If a"
        " late-cancellation fee applies, you ask for it to be waived."
    )
    keep_fee = act("cancel_class_booking", booking_id=booking["booking_id"], waive_late_fee=False)
    waive = act("cancel_class_booking", booking_id=booking["booking_id"], waive_late_fee=True)
    if not late_cancellation(session["start"]):
        return draft.cite("4.5").do(keep_fee)
    if waiver_available(member["last_fee_waiver"]):
        return draft.cite("4.4").do(waive)
    draft.trap("4.4: the courtesy waiver was used within the last 365 days: the fee stands", waive).cite("4.4")
    draft.say("text", WAIVER_USED, "4.4: the member's courtesy waiver was already used")
    return draft.do(keep_fee)


def request_routine(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """The routine the member names; if the safety rules rule it out, any allowed routine of its focus (5.3)."""
    library = sorted(
        (r for r in world["routines"].values() if r["club_id"] == member["home_club_id"]), key=lambda r: r["routine_id"]
    )
    routine = rng.choice(library)
    blocking = blocking_conditions(member, routine)
    draft = Draft(world, member, persona, intent="request_routine").verify().cite("3.1", "3.2", "5.1", "5.2")
    draft.do(
        act("get_member_profile", member_id=draft.mid),
        act("list_routines", club_id=draft.club, focus=routine["focus"]),
    )
    draft.goal.append(
        f"You want the {routine['name']} routine added to your training plan in the app. If the agent says it is"
        " not suitable for you, you want a suitable routine with the same focus instead."
    )
    _conditions_cited(draft, routine)
    ask = act("assign_routine", member_id=draft.mid, routine_id=routine["routine_id"])
    if not blocking:
        return draft.do(ask)
    safe = [r for r in library if r["focus"] == routine["focus"] and not blocking_conditions(member, r)]
    draft.trap(
        f"3.10, 5.3: {routine['name']} is ruled out for the member's {', '.join(blocking)}; a safe routine of the"
        " same focus is added instead",
        ask,
    ).cite("3.10", "5.3")
    draft.say("text", spoken_reason(blocking), "3.10: the declared condition that rules the routine out")
    return draft.step(
        "any routine of the same focus the rules allow (5.3)",
        *[[act("assign_routine", member_id=draft.mid, routine_id=r["routine_id"])] for r in safe],
    )


def _open_slots(world: World, trainer_id: str, day: str) -> list[dict[str, Any]]:
    return sorted(
        (
            s
            for s in world["trainer_slots"].values()
            if s["trainer_id"] == trainer_id and s["start"][:10] == day and s["status"] == "open"
        ),
        key=lambda s: s["start"],
    )


def trainer_session(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """The named trainer's earliest slot that day; without the certifications needed, a certified trainer's (6.5)."""
    if member["status"] != "active":
        return None
    day = (TODAY.fromordinal(TODAY.toordinal() + rng.randint(1, 5))).isoformat()
    trainers = sorted(
        (t for t in world["trainers"].values() if t["club_id"] == member["home_club_id"]), key=lambda t: t["trainer_id"]
    )
    trainer = rng.choice(trainers)
    slots = _open_slots(world, trainer["trainer_id"], day)
    if not slots:
        return None
    draft = Draft(world, member, persona, intent="trainer_session").verify().cite("6.1", "6.2", "6.3", "6.4")
    draft.do(act("get_member_profile", member_id=draft.mid), act("list_trainers", club_id=draft.club))
    draft.goal.append(
        f"You want a personal training session with {trainer['name']} on {day}, at the earliest time they have"
        " open. If the agent says that trainer cannot coach you, you want the earliest open session that day at your"
        " club with a trainer who can."
    )
    for condition in active_conditions(member):
        if condition != "asthma":
            draft.cite(CONDITION_CLAUSE[condition])
    ask = act("book_trainer_session", member_id=draft.mid, slot_id=slots[0]["slot_id"])
    if may_coach(member, trainer):
        return draft.do(act("list_trainer_slots", trainer_id=trainer["trainer_id"], date=day), ask)
    qualified = [t for t in trainers if may_coach(member, t)]
    offered = [s for t in qualified for s in _open_slots(world, t["trainer_id"], day)]
    if not offered:
        return None
    first = min(s["start"] for s in offered)
    ties = sorted((s for s in offered if s["start"] == first), key=lambda s: s["slot_id"])
    draft.trap(
        f"6.3, 6.5: {trainer['name']} lacks a certification the member's conditions need; the earliest slot that day"
        " with a certified trainer is booked instead",
        ask,
    ).cite("6.5")
    draft.say("text", "certif|qualif", "6.5: the named trainer lacks the certification the member needs")
    draft.do(*[act("list_trainer_slots", trainer_id=t["trainer_id"], date=day) for t in qualified])
    return draft.step(
        "the earliest certified slot that day, any of a tie (6.5)",
        *[[act("book_trainer_session", member_id=draft.mid, slot_id=s["slot_id"])] for s in ties],
    )


def _week_minutes(world: World, member_id: str, extra: dict[str, Any] | None = None) -> int:
    logged = [a for a in world["activities"].values() if a["member_id"] == member_id]
    if extra is not None:
        logged.append(extra)
    return sum(int(a["minutes"]) for a in logged if in_last_week(a["date"]))


IMPORT_WINDOW = "14 days|14-day|fourteen days|two weeks"


def log_workout(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """The member reads a share code from their watch; within 14 days it is imported (7.3); the week's total said."""
    watch = world["wearables"][member["member_id"]]
    workout = rng.choice(watch["workouts"])
    draft = Draft(world, member, persona, intent="log_workout", dual=True).verify().cite("7.2", "7.3", "7.4")
    draft.do(act("list_watch_workouts", "user", account_email=watch["account_email"]))
    draft.goal.append(
        f"Your watch recorded a {workout['kind']} workout on {workout['recorded']} that you want added to your club"
        f" activity log. Your watch app is signed in as {watch['account_email']}; read the workout's details from it"
        " when the agent asks. You also want to know your total active minutes for the last 7 days."
    )
    ask = act("import_workout", member_id=draft.mid, share_code=workout["share_code"])
    read = act("get_activity_log", member_id=draft.mid)
    if importable(workout["recorded"]):
        record = {"date": workout["recorded"], "minutes": workout["minutes"]}
        draft.do(ask, read)
        total = _week_minutes(world, draft.mid, record)
    else:
        draft.trap("7.3: the workout is older than 14 days: it cannot be imported", ask)
        draft.say("text", IMPORT_WINDOW, "7.3: the workout is past the import window")
        draft.do(read)
        total = _week_minutes(world, draft.mid)
    if total == 0:
        return None
    return draft.say("amount", money(total), "7.4: the member's active minutes for the last 7 days")


GOALS = list(range(60, 420, 10))


def weekly_goal(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """The week's total said; the goal asked if within a quarter above it, else the cap (7.5)."""
    total = _week_minutes(world, member["member_id"])
    cap = goal_cap(total)
    asked = rng.choice([g for g in GOALS if g != member["weekly_goal_minutes"]])
    if cap < 30 or cap == member["weekly_goal_minutes"]:
        return None
    draft = Draft(world, member, persona, intent="weekly_goal").verify().cite("7.4", "7.5")
    draft.do(act("get_activity_log", member_id=draft.mid))
    draft.goal.append(
        f"You want to know your total active minutes for the last 7 days, and you want your weekly goal set to"
        f" {asked} minutes. If the agent says that is too high, you want the highest goal the club allows."
    )
    draft.say("amount", money(total), "7.4: the member's active minutes for the last 7 days")
    ask = act("set_weekly_goal", member_id=draft.mid, minutes=asked)
    if asked <= cap:
        return draft.do(ask)
    draft.trap(f"7.5: {asked} minutes is more than a quarter above the week's {total}; the cap {cap} is set", ask)
    return draft.do(act("set_weekly_goal", member_id=draft.mid, minutes=cap))


ONE_PER_YEAR = "one freeze|once a year|once per year|once in a calendar year|already"
FREEZE_STARTS = [date(2025, 7, 1), date(2025, 8, 1)]


def freeze_membership(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """A freeze of up to 3 months (8.2), one a calendar year (8.3), with nothing owed (8.4); the resume date said."""
    if member["status"] != "active":
        return None
    start = rng.choice(FREEZE_STARTS)
    months = rng.randint(1, 5)
    this_year = [
        f for f in world["freezes"].values() if f["member_id"] == member["member_id"] and f["start_date"][:4] == "2025"
    ]
    owes = member["balance_due"] > 0
    if owes and this_year:
        return None  # two reasons at once: the statement could not say which one the agent must name
    draft = Draft(world, member, persona, intent="freeze_membership").verify().cite("8.1", "8.2", "8.3", "8.4", "8.5")
    draft.do(act("get_member_profile", member_id=draft.mid), act("get_freeze_history", member_id=draft.mid))
    draft.goal.append(
        f"You want to freeze your membership for {months} month{'s' if months > 1 else ''} starting"
        f" {start.isoformat()}. If that is not"
        " possible, you want the longest freeze the club allows from that date. You want to know the date your"
        " membership resumes."
    )
    ask = act("freeze_membership", member_id=draft.mid, start_date=start.isoformat(), months=months)
    if owes:
        draft.trap("8.4: the member owes a balance: no freeze until it is paid", ask)
        return draft.say("amount", money(member["balance_due"]), "8.4: the balance that must be paid first")
    if this_year:
        draft.trap("8.3: a freeze already started this calendar year: no second one", ask)
        return draft.say("text", ONE_PER_YEAR, "8.3: one freeze per calendar year")
    granted = min(months, MAX_FREEZE_MONTHS)
    if months > MAX_FREEZE_MONTHS:
        draft.trap(f"8.2: {months} months is more than the 3 allowed; the longest freeze, 3 months, instead", ask)
    draft.do(act("freeze_membership", member_id=draft.mid, start_date=start.isoformat(), months=granted))
    return draft.say("date", add_months(start, granted).isoformat(), "8.5: the date the membership resumes")


def end_membership(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """Notice with its last day (9.1) and fee (9.2); a member who owes is told the amount instead (9.3)."""
    if member["status"] != "active":
        return None
    plan = world["plans"][member["plan_id"]]
    last_day = cancellation_effective(member["billing_day"])
    fee = termination_fee(plan["monthly_fee"], last_day, date.fromisoformat(member["commitment_end"]))
    draft = Draft(world, member, persona, intent="end_membership").verify().cite("9.1", "9.2", "9.4")
    draft.do(act("get_member_profile", member_id=draft.mid), act("get_plan", plan_id=member["plan_id"]))
    draft.goal.append(
        "You want to end your membership, giving whatever notice the club requires. You want to know your"
        " membership's last day and any early-termination fee."
    )
    notice = act("cancel_membership", member_id=draft.mid, effective_date=last_day.isoformat(), termination_fee=fee)
    if member["balance_due"] > 0:
        draft.trap("9.3: the member owes a balance: no notice until it is paid", notice).cite("9.3")
        return draft.say("amount", money(member["balance_due"]), "9.3: the balance that must be paid first")
    draft.do(notice).say("date", last_day.isoformat(), "9.1: the membership's last day")
    if fee > 0:
        draft.say("amount", money(fee), "9.2: the early-termination fee")
    return draft


def guest_pass(world: World, member: Member, rng: random.Random, persona: str) -> Draft | None:
    """A guest pass within the month's allowance and once per guest a month (10.1, 10.2); else a day pass (10.3)."""
    if member["status"] != "active":
        return None
    month = [
        v
        for v in world["guest_visits"].values()
        if v["member_id"] == member["member_id"] and v["visit_date"][:7] == "2025-06" and v["kind"] == "guest_pass"
    ]
    known = sorted({v["guest_name"] for v in month})
    guest = rng.choice(known) if known and rng.random() < 0.4 else rng.choice(GUESTS)
    visit = date(2025, 6, rng.randint(TODAY.day + 1, 30)).isoformat()
    allowance = world["plans"][member["plan_id"]]["guest_passes_per_month"]
    draft = Draft(world, member, persona, intent="guest_pass").verify().cite("10.1", "10.2", "10.4")
    draft.do(
        act("get_member_profile", member_id=draft.mid),
        act("get_plan", plan_id=member["plan_id"]),
        act("list_guest_visits", member_id=draft.mid),
    )
    draft.goal.append(
        f"You want to bring your friend {guest} to your club on {visit} with a guest pass. If a guest pass cannot be"
        f" used, you will buy {guest.split()[0]} a day pass instead."
    )
    ask = act("issue_guest_pass", member_id=draft.mid, guest_name=guest, visit_date=visit)
    if len(month) < allowance and guest not in known:
        return draft.do(ask)
    why = "10.2: the guest already came on a guest pass this month" if guest in known else "10.1: no passes left"
    draft.trap(f"{why}; a day pass is sold instead (10.3)", ask).cite("10.3")
    return draft.do(act("sell_day_pass", member_id=draft.mid, guest_name=guest, visit_date=visit))


SOLVERS: dict[str, Solver] = {
    solver.__name__: solver
    for solver in (
        book_class,
        cancel_class,
        request_routine,
        trainer_session,
        log_workout,
        weekly_goal,
        freeze_membership,
        end_membership,
        guest_pass,
    )
}
"""The reference solver of each intent."""
PER_WORLD = {"log_workout": (4, 2)}
"""Tasks and traps per intent and world where not the default."""
DEFAULT_PER_WORLD = (3, 1)
CANDIDATES = 12


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``, those testing clauses the others do not first."""
    chosen: list[FactoryTask] = []
    seen: set[tuple[str, ...]] = set()
    for task in candidates:
        if len(chosen) < count and tuple(task.clauses) not in seen:
            chosen.append(task)
            seen.add(tuple(task.clauses))
    chosen += [task for task in candidates if task not in chosen][: count - len(chosen)]
    return chosen


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over ``world``'s members: its traps where the world has them, then plain tasks."""
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        total, traps_wanted = PER_WORLD.get(intent, DEFAULT_PER_WORLD)
        members = [m for m in world["members"].values() if m["member_id"].split("-")[1] == tag]
        rng.shuffle(members)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for number, member in enumerate(members, 1):
            draft = solve(world, member, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            task = draft.task(f"{intent}-{tag}-{number:02d}")
            bucket = traps if task.trap else plain
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        chosen = _varied(traps, traps_wanted)
        chosen += _varied(plain, total - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
