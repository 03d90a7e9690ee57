"""The reference solvers of the machine intents: maintenance windows, and repairs under lock-out.

Preventive maintenance is booked clear of rush work and weekends; a breakdown is taken down for repair under the
operator's own lock-out, confirmed on their handheld.
"""

from __future__ import annotations

import random

from taumesh.domains.factory import World, act
from taumesh.domains.manufacturing.catalogue import BREAKDOWNS
from taumesh.domains.manufacturing.clock import TODAY, WINDOW_HORIZON_DAYS, days_after, is_weekday, lockout_tag
from taumesh.domains.manufacturing.drafts import Contact, Draft

ALREADY_DOWN = "already down|already under repair|already being repaired|repair in progress|already out of service"


def earliest_window(world: World, line_id: str, asked: str) -> str:
    """The first date on or after ``asked`` that is a weekday and after every open rush order's due date (9.2, 9.3)."""
    rush_dues = [
        o["due_date"]
        for o in world["work_orders"].values()
        if o["line_id"] == line_id and o["priority"] == "rush" and o["status"] in ("planned", "in_production")
    ]
    found = max([asked, *[days_after(due, 1) for due in rush_dues]])
    while not is_weekday(found):
        found = days_after(found, 1)
    return found


def schedule_maintenance(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Book the date asked, or the earliest allowed after it (9.4) when it falls on a weekend or before rush work."""
    tag = contact["contact_id"].split("-")[1]
    machines = [m for key, m in sorted(world["machines"].items()) if key.split("-")[1] == tag]
    machine = rng.choice([m for m in machines if m["status"] != "down"])
    asked = days_after(TODAY, rng.randint(2, 30))
    allowed = earliest_window(world, machine["line_id"], asked)
    if allowed > days_after(TODAY, WINDOW_HORIZON_DAYS):
        return None
    draft = Draft(world, contact, persona, intent="schedule_maintenance").verify().cite("9.1")
    draft.do(act("list_lines"), act("list_line_orders", line_id=machine["line_id"]))
    draft.goal.append(
        f"You want a preventive maintenance window booked on machine {machine['machine_id']} (the"
        f" {machine['name']}) for {asked}. If that date cannot be booked, you take the earliest date after it that"
        " can."
    )
    if allowed != asked:
        forbidden = act("schedule_maintenance", machine_id=machine["machine_id"], date=asked)
        clause, why = ("9.2", "a weekend") if not is_weekday(asked) else ("9.3", "before an open rush order is due")
        draft.trap(f"{clause}: {asked} is {why}; {allowed} is the earliest allowed date", forbidden)
        draft.cite(clause, "9.4")
    book = act("schedule_maintenance", machine_id=machine["machine_id"], date=allowed)
    return draft.cite("9.2", "9.3", "1.4").do(book)


def lockout_repair(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Open a repair under the operator's lock-out tag (11.1).

    A lapsed certification is handed to the maintenance supervisor (11.2); a machine already down gets no second
    repair (11.3).
    """
    machines = [m for key, m in sorted(world["machines"].items()) if m["line_id"] == contact["home_line"]]
    machine = rng.choice(machines)
    until = contact["lockout_certified_until"]
    lapsed = until is None or until < TODAY.isoformat()
    down = machine["status"] == "down"
    if lapsed and down:
        return None  # two reasons at once: a task tests one
    draft = Draft(world, contact, persona, intent="lockout_repair", dual=True).verify().cite("11.1")
    draft.do(act("get_contact", contact_id=draft.cid), act("list_lines"))
    line = world["lines"][machine["line_id"]]["name"]
    draft.goal.append(
        f"Machine {machine['machine_id']} (the {machine['name']} on {line}, your line) {rng.choice(BREAKDOWNS)},"
        " and you need it taken down for repair now. When the agent asks, lock out and tag the machine, confirm"
        " the lock-out on your handheld and read out the tag number it shows. If the desk cannot open the repair,"
        " you want to know why, and you accept being passed to whoever can help."
    )
    tag = lockout_tag(machine["machine_id"])
    repair = act("open_repair", machine_id=machine["machine_id"], lockout_tag=tag)
    if lapsed:
        draft.trap("11.2: the operator's lock-out certification is not valid: no repair; a hand-off", repair)
        draft.cite("11.2", "12.1", "12.2")  # the hand-off ends the call: what is said before it is not graded
        return draft.do(act("transfer_to_human_agents", contact_id=draft.cid, team="maintenance_supervisor"))
    if down:
        draft.trap(f"11.3: {machine['machine_id']} is already down for repair: no second repair", repair)
        return draft.cite("11.3").say("text", ALREADY_DOWN, "11.3: the machine is already down for repair")
    confirm = act("confirm_lockout", "user", machine_id=machine["machine_id"])
    return draft.cite("11.2", "11.3", "1.4").do(confirm, repair)
