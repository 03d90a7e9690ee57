"""The reference solvers of a customer contact's intents: booking and releasing passes, imaging, briefings.

A contact names their satellite (and a pass from the published schedule); the solver reads the caller's record and
the satellite's passes or warnings, as the agent must to know the satellite is their company's (2.3). Each solver
takes one subject (a pass or a spacecraft) and the contact who calls about it.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.space.catalogue import TARGETS
from taumesh.domains.space.clock import (
    MIN_PASS_ELEVATION,
    TASKING_LEAD_DAYS,
    TODAY,
    booking_cost,
    cancellation_charge,
    days_after,
    days_ahead,
    money,
    overage,
)
from taumesh.domains.space.drafts import Caller, Draft

SAFE_MODE = "safe mode|safe-mode|safemode"
TOO_LATE = "day of the pass|same day|dated today|is today|today's pass|already loaded|too late|scheduled for today"


def _start(world: World, caller: Caller, intent: str, persona: str) -> Draft:
    draft = Draft(world, caller, persona, intent=intent).identify()
    return draft.do(act("get_caller", caller_id=draft.cid))


def _craft_words(world: World, spacecraft_id: str) -> str:
    return f"your satellite {world['spacecraft'][spacecraft_id]['name']} ({spacecraft_id})"


def _pass_words(world: World, found: dict[str, Any]) -> str:
    station = world["ground_stations"][found["station_id"]]["name"]
    return f"pass {found['pass_id']} over {station} on {found['date']} at {found['start_utc']} UTC"


def _cost(world: World, found: dict[str, Any]) -> float:
    return booking_cost(found["duration_min"], world["ground_stations"][found["station_id"]]["rate_per_min"])


def next_bookable(world: World, asked: dict[str, Any]) -> dict[str, Any] | None:
    """The next open pass after ``asked`` of its spacecraft over its station that climbs high enough (3.4)."""
    later = [
        p
        for p in world["passes"].values()
        if (p["spacecraft_id"], p["station_id"]) == (asked["spacecraft_id"], asked["station_id"])
        and (p["date"], p["start_utc"]) > (asked["date"], asked["start_utc"])
        and p["status"] == "open"
        and p["max_elevation_deg"] >= MIN_PASS_ELEVATION
    ]
    return min(later, key=lambda p: (p["date"], p["start_utc"]), default=None)


def book_pass(world: World, caller: Caller, asked: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Book the pass asked and say its cost (3.3); one too low is replaced by the next that is high enough (3.4)."""
    low = asked["max_elevation_deg"] < MIN_PASS_ELEVATION
    booked = next_bookable(world, asked) if low else asked
    if booked is None or asked["status"] != "open" or days_ahead(asked["date"]) < 1:
        return None
    draft = _start(world, caller, "book_pass", persona).cite("3.1", "3.3")
    draft.do(act("list_passes", spacecraft_id=asked["spacecraft_id"]), act("list_ground_stations"))
    draft.goal.append(
        f"You want {_pass_words(world, asked)} booked for {_craft_words(world, asked['spacecraft_id'])}. If that"
        " pass cannot be booked, you take the next pass of the same satellite over the same station that can."
        " You want to know what the booking costs."
    )
    if low:
        draft.trap(
            f"3.2: {asked['pass_id']} peaks at {asked['max_elevation_deg']} degrees; {booked['pass_id']} is the next"
            " bookable pass",
            act("book_pass", pass_id=asked["pass_id"]),
        )
        draft.cite("3.2", "3.4")
    draft.cite("1.4").do(act("book_pass", pass_id=booked["pass_id"]))
    return draft.say("amount", money(_cost(world, booked)), "3.3: the booking's cost")


def cancel_pass(world: World, caller: Caller, found: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Release a booking with the charge its date calls for (4.3, 4.4); never one dated today (4.2)."""
    if found["status"] != "booked":
        return None
    draft = _start(world, caller, "cancel_pass", persona).cite("4.1")
    draft.do(act("list_passes", spacecraft_id=found["spacecraft_id"]))
    draft.goal.append(
        f"You no longer need {_pass_words(world, found)}, booked for {_craft_words(world, found['spacecraft_id'])},"
        " and want the booking released. If there is a charge, you want to know it. If it cannot be released, you"
        " want to know why."
    )
    release = act("cancel_booking", pass_id=found["pass_id"])
    if days_ahead(found["date"]) == 0:
        draft.trap(f"4.2: {found['pass_id']} is dated today: it cannot be released", release).cite("4.2")
        return draft.say("text", TOO_LATE, "4.2: the pass is today, already loaded")
    charge = cancellation_charge(found["booking_cost"], found["date"])
    draft.cite("1.4").do(release)
    if charge > 0:
        return draft.cite("4.3").say("amount", money(charge), "4.3: the release charge")
    return draft.cite("4.4")


def request_imaging(world: World, caller: Caller, craft: dict[str, Any], rng: random.Random, persona: str) -> Draft:
    """Task a nominal spacecraft (5.1) two days out or later (5.2), saying any overage (5.3)."""
    target, area = rng.choice(TARGETS)
    asked = days_after(TODAY, rng.choice([1, 1, 2, 3, 4, 6]))
    safe = craft["mode"] == "safe"
    if safe and days_ahead(asked) < TASKING_LEAD_DAYS:
        asked = days_after(TODAY, 3)  # one reason per task
    date = max(asked, days_after(TODAY, TASKING_LEAD_DAYS))
    draft = _start(world, caller, "request_imaging", persona).cite("5.1", "5.2")
    draft.do(act("get_spacecraft", spacecraft_id=craft["spacecraft_id"]))
    draft.do(act("get_customer_account", customer_id=craft["customer_id"]))
    draft.goal.append(
        f"You want {_craft_words(world, craft['spacecraft_id'])} to image {target}, an area of {area:g} square"
        f" kilometres, on {asked}. If that date cannot be done, you take the earliest date that can. If there is a"
        " charge, you want to know it. If no image can be taken, you want to know why."
    )

    def request(when: str) -> Any:
        return act(
            "create_imaging_request", spacecraft_id=craft["spacecraft_id"], target=target, area_km2=area, date=when
        )

    if safe:
        draft.trap(f"5.1: {craft['spacecraft_id']} is in safe mode: it takes no imaging", request(asked))
        return draft.say("text", SAFE_MODE, "5.1: the spacecraft is in safe mode")
    if date != asked:
        draft.trap(f"5.2: {asked} is less than two days away; {date} is the earliest allowed", request(asked))
    draft.cite("5.3", "5.4", "1.4").do(request(date))
    account = world["customers"][craft["customer_id"]]
    charge = overage(account["used_km2"], account["quota_km2"], area, account["overage_per_km2"])
    if charge > 0:
        draft.say("amount", money(charge), "5.3: the overage charge")
    return draft


def conjunction_briefing(
    world: World, caller: Caller, craft: dict[str, Any], rng: random.Random, persona: str
) -> Draft | None:
    """The miss distance and date of closest approach of the warning under monitoring (6.2)."""
    warnings = [
        c
        for c in world["conjunctions"].values()
        if c["spacecraft_id"] == craft["spacecraft_id"] and c["status"] == "monitoring"
    ]
    if not warnings:
        return None
    warning = warnings[0]
    draft = _start(world, caller, "conjunction_briefing", persona).cite("6.1", "6.2")
    draft.do(act("list_conjunctions", spacecraft_id=craft["spacecraft_id"]))
    draft.goal.append(
        f"You were told that {_craft_words(world, craft['spacecraft_id'])} has a conjunction warning. You want to"
        " know how close the other object will pass, in metres, and on what date."
    )
    draft.say("amount", str(warning["miss_distance_m"]), "6.2: the miss distance")
    return draft.say("date", warning["tca_date"], "6.2: the date of closest approach")
