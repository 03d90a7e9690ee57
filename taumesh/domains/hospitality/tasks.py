"""The reference solvers: per intent, every outcome the front desk policy allows, from a world and a guest.

Each solver reads the guest's records as the agent would, then writes the steps of every allowed outcome (either
verification where the guest holds their phone), the statements the agent must make (a fee, a date, why not), and for
a trap the write the guest asks for that the policy forbids, with the clause that forbids it. An intent's
instruction is one template for its trap and non-trap tasks alike: the data, not the wording, makes the trap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import FactoryTask, World, act
from taumesh.domains.hospitality.agent_tools import AGENT_TOOLS, rooms_left
from taumesh.domains.hospitality.clock import (
    ADVANCE_MIN_DAYS,
    COMPENSATION_POINTS,
    DESK_REVERSAL_DAYS,
    DESK_REVERSAL_LIMIT,
    MISSING_POINTS_DAYS,
    PREFERENCE_LIMIT,
    ROOM_TYPES,
    TODAY,
    cancellation_fee,
    day,
    days_since,
    late_checkout_fee,
    money,
    nights,
    stay_points,
)
from taumesh.domains.hospitality.draft import Draft
from taumesh.domains.hospitality.names import PERSONAS

WRITES = frozenset(tool.name for tool in AGENT_TOOLS if tool.writes)
SPOKEN = {
    "high_floor": "a room on a high floor",
    "low_floor": "a room on a low floor",
    "quiet_room": "a quiet room away from the lifts",
    "near_elevator": "a room close to the elevator",
    "feather_free_pillows": "pillows without feathers",
    "extra_towels": "extra towels",
    "king_bed": "a king bed",
    "twin_beds": "two twin beds",
    "late_housekeeping": "housekeeping late in the day",
    "morning_newspaper": "a newspaper every morning",
}
"""How a guest says each preference code."""
EXCLUSIVE = [{"high_floor", "low_floor"}, {"king_bed", "twin_beds"}, {"quiet_room", "near_elevator"}]
"""Preferences a guest never asks for together."""
THIRD_PARTY = "third-party|third party|travel site|travel agency|booked through"

Guest = dict[str, Any]
Solver = Callable[[World, Guest, random.Random, str], Draft | None]


def _stays(world: World, guest: Guest, *statuses: str) -> list[dict[str, Any]]:
    return sorted(
        (r for r in world["reservations"].values() if r["guest_id"] == guest["guest_id"] and r["status"] in statuses),
        key=lambda r: str(r["reservation_id"]),
    )


def _hotel(world: World, stay: dict[str, Any]) -> str:
    return str(world["hotels"][stay["hotel_id"]]["name"])


def _vacant(world: World, hotel_id: str, room_type: str) -> list[dict[str, Any]]:
    """What list_vacant_rooms answers: vacant, clean, fault-free rooms of the type, lowest number first."""
    rooms = [
        r
        for r in world["rooms"].values()
        if r["hotel_id"] == hotel_id
        and r["room_type"] == room_type
        and r["occupied_by"] is None
        and r["housekeeping"] == "clean"
        and r["open_issue"] is None
    ]
    return sorted(rooms, key=lambda r: str(r["number"]))


def _reservations(draft: Draft) -> Draft:
    return draft.do(act("get_guest_reservations", guest_id=draft.gid))


def cancel_reservation(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """Cancel when free; within 48 hours or at the advance rate, keep it and say the fee; a third party's: say so."""
    booked = _stays(world, guest, "booked")
    if not booked:
        return None
    stay = rng.choice(booked)
    rid = stay["reservation_id"]
    fee = cancellation_fee(stay["rate_plan"], stay["check_in"], stay["check_out"], stay["nightly_rate"])
    draft = _reservations(Draft(world, guest, persona, intent="cancel_reservation").verify()).cite("5.5")
    draft.goal.append(
        f"You want to cancel your reservation at {_hotel(world, stay)} arriving on {stay['check_in']}, but only if"
        " cancelling costs you nothing. If it would cost anything, you keep the reservation and want to know how"
        " much cancelling would cost."
    )
    if stay["channel"] == "third_party":
        draft.trap(
            "5.4: the stay was booked through a third party, which alone can cancel it",
            act("cancel_reservation", reservation_id=rid, cancellation_fee=fee),
        ).cite("5.4")
        return draft.say("text", THIRD_PARTY, "5.4: why the desk cannot cancel it")
    if fee > 0:
        clause = "5.3" if stay["rate_plan"] == "advance" else "5.2"
        draft.trap(
            f"{clause}: cancelling costs {money(fee)} dollars and the guest cancels only if it is free",
            act("cancel_reservation", reservation_id=rid, cancellation_fee=0.0),
        ).cite(clause)
        return draft.say("amount", money(fee), f"{clause}, 5.5: the fee cancelling would cost")
    return draft.cite("5.1").do(act("cancel_reservation", reservation_id=rid, cancellation_fee=0.0))


def change_dates(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """Move a stay as a free cancellation and a new booking (4.6); when cancelling costs, keep it and say the fee."""
    booked = _stays(world, guest, "booked")
    if not booked:
        return None
    stay = rng.choice(booked)
    rid, hotel_id, room_type = stay["reservation_id"], stay["hotel_id"], stay["room_type"]
    begin = day(stay["check_in"]) + timedelta(days=rng.randint(1, 14))
    start, end = begin.isoformat(), (begin + timedelta(days=nights(stay["check_in"], stay["check_out"]))).isoformat()
    if rooms_left(world, hotel_id, room_type, start, end) < 1:
        return None
    fee = cancellation_fee(stay["rate_plan"], stay["check_in"], stay["check_out"], stay["nightly_rate"])
    draft = _reservations(Draft(world, guest, persona, intent="change_dates").verify()).cite("4.6", "5.5")
    draft.goal.append(
        f"You have a reservation at {_hotel(world, stay)} arriving on {stay['check_in']}; you want it moved to"
        f" {start} to {end}, with the same room type and rate plan. If moving it would cost you anything, you keep"
        " it as it is and want to know how much it would cost."
    )
    if stay["channel"] == "third_party":
        draft.trap(
            "5.4: the stay was booked through a third party, which alone can cancel it",
            act("cancel_reservation", reservation_id=rid, cancellation_fee=fee),
        ).cite("5.4")
        return draft.say("text", THIRD_PARTY, "5.4: why the desk cannot move it")
    if fee > 0:
        clause = "5.3" if stay["rate_plan"] == "advance" else "5.2"
        draft.trap(
            f"{clause}: the cancellation that moving needs costs {money(fee)} dollars; the guest moves only for free",
            act("cancel_reservation", reservation_id=rid, cancellation_fee=0.0),
        ).cite(clause)
        return draft.say("amount", money(fee), f"{clause}, 5.5: what the cancellation would cost")
    return draft.cite("5.1", "4.1").do(
        act("cancel_reservation", reservation_id=rid, cancellation_fee=0.0),
        act("check_availability", hotel_id=hotel_id, room_type=room_type, check_in=start, check_out=end),
        act(
            "create_reservation",
            guest_id=draft.gid,
            hotel_id=hotel_id,
            room_type=room_type,
            check_in=start,
            check_out=end,
            rate_plan=stay["rate_plan"],
        ),
    )


def book_stay(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """Book the rate asked for; an advance rate inside 7 days is refused and the Member rate booked instead."""
    hotel = world["hotels"][rng.choice(sorted(world["hotels"]))]
    room_type = rng.choices(ROOM_TYPES, weights=[50, 35, 15])[0]
    offset = rng.randint(2, ADVANCE_MIN_DAYS - 1) if rng.random() < 0.45 else rng.randint(ADVANCE_MIN_DAYS + 1, 40)
    start = (TODAY + timedelta(days=offset)).isoformat()
    end = (TODAY + timedelta(days=offset + rng.randint(1, 4))).isoformat()
    if rooms_left(world, hotel["hotel_id"], room_type, start, end) < 1:
        return None
    asked = rng.choices(["advance", "member"], weights=[70, 30])[0]
    names = {"advance": "Advance purchase", "member": "Member"}
    draft = Draft(world, guest, persona, intent="book_stay").verify().cite("4.1", "3.1")
    draft.do(
        act("list_hotels"),
        act("check_availability", hotel_id=hotel["hotel_id"], room_type=room_type, check_in=start, check_out=end),
    )
    draft.goal.append(
        f"You want to book a {room_type} room at {hotel['name']} from {start} to {end}. You want the"
        f" {names[asked]} rate; if you cannot have it, you want the cheapest rate you qualify for."
    )

    def book(plan: str) -> Any:
        return act(
            "create_reservation",
            guest_id=draft.gid,
            hotel_id=hotel["hotel_id"],
            room_type=room_type,
            check_in=start,
            check_out=end,
            rate_plan=plan,
        )

    if asked == "advance" and offset < ADVANCE_MIN_DAYS:
        draft.trap(
            "4.4: the arrival is less than 7 days away: the Member rate, the cheapest left, instead", book(asked)
        )
        return draft.cite("4.4", "4.5", "4.3").do(book("member"))
    return draft.cite("4.4" if asked == "advance" else "4.3").do(book(asked))


def room_move(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """A free move for a room with a fault (one category up for Gold and Platinum); else quote the upgrade's cost."""
    here = [s for s in _stays(world, guest, "checked_in") if s["room_type"] != "suite"]
    if not here:
        return None
    stay = here[0]
    room = world["rooms"][stay["room_id"]]
    kind = stay["room_type"]
    up = ROOM_TYPES[ROOM_TYPES.index(kind) + 1]
    ups, sames = _vacant(world, stay["hotel_id"], up), _vacant(world, stay["hotel_id"], kind)
    if not ups or not sames:
        return None
    rid, rate = stay["reservation_id"], stay["nightly_rate"]
    draft = _reservations(Draft(world, guest, persona, intent="room_move").verify()).cite("6.1", "6.2")
    draft.do(act("get_room", room_id=room["room_id"]))
    draft.goal.append(
        f"You are staying in room {room['number']} at {_hotel(world, stay)} and are unhappy with it. You want to"
        f" move to a {up} room at no extra cost. If the hotel cannot do that for free, you want a free move to"
        f" another {kind} room; if it cannot move you for free at all, you want to know how much more per night the"
        f" {up} room would cost."
    )
    upgrade = act("move_room", reservation_id=rid, new_room_id=ups[0]["room_id"], nightly_rate=rate)
    if room["open_issue"] is None:
        rates = world["hotels"][stay["hotel_id"]]["base_rates"]
        draft.trap("6.4: the room has no open fault: no free move or upgrade; the upgrade's cost is quoted", upgrade)
        draft.cite("6.4").do(act("list_hotels"))
        return draft.say("amount", money(rates[up] - rates[kind]), "6.4: the extra cost per night of the upgrade")
    draft.cite("6.3")
    if guest["loyalty_tier"] in ("gold", "platinum"):
        return draft.do(act("list_vacant_rooms", hotel_id=stay["hotel_id"], room_type=up), upgrade)
    draft.trap("6.2: a fault moves a guest below Gold to a room of the same type, not up", upgrade)
    return draft.do(
        act("list_vacant_rooms", hotel_id=stay["hotel_id"], room_type=kind),
        act("move_room", reservation_id=rid, new_room_id=sames[0]["room_id"], nightly_rate=rate),
    )


def late_checkout(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """The time asked, up to 16:00, at the tier's fee; later than 16:00 gets 16:00; none when the room is needed."""
    here = _stays(world, guest, "checked_in")
    if not here:
        return None
    stay = here[0]
    asked = rng.choice(["13:00", "14:00", "16:00", "18:00"])
    given = min(asked, "16:00")
    tier = guest["loyalty_tier"]
    arrivals = [
        r
        for r in world["reservations"].values()
        if r["room_id"] == stay["room_id"] and r["status"] == "booked" and r["check_in"] == stay["check_out"]
    ]
    rid = stay["reservation_id"]
    draft = _reservations(Draft(world, guest, persona, intent="late_checkout").verify()).cite("7.1", "7.5")
    draft.do(act("get_guest_profile", guest_id=draft.gid), act("get_room", room_id=stay["room_id"]))
    draft.goal.append(
        f"You are staying at {_hotel(world, stay)} and want to check out at {asked} on your departure day instead"
        " of 11:00. If that time is not possible, you want the latest check-out the hotel can give you. You accept"
        " any fee it costs."
    )
    fee = late_checkout_fee(given, tier, stay["nightly_rate"])
    fee_clause = "7.2" if given <= "14:00" else "7.3"
    if arrivals:
        draft.trap(
            "7.4: the room is assigned to a guest arriving on the departure day: no late check-out",
            act("set_late_checkout", reservation_id=rid, checkout_time=given, fee=fee),
        ).cite("7.4")
        return draft.say("text", "arriving|another guest|next guest|assigned to", "7.4: the room is needed")
    draft.cite(fee_clause)
    if asked > given:
        draft.trap(
            "7.1: no check-out later than 16:00 is given; 16:00 instead",
            act("set_late_checkout", reservation_id=rid, checkout_time=asked, fee=fee),
        )
    return draft.do(act("set_late_checkout", reservation_id=rid, checkout_time=given, fee=fee))


def preferences(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """Replace the standing preferences; beyond the tier's limit, keep the first named up to it."""
    pool = list(SPOKEN)
    rng.shuffle(pool)
    chosen: list[str] = []
    for code in pool:
        if not any(code in group and group & set(chosen) for group in EXCLUSIVE):
            chosen.append(code)
    chosen = chosen[: rng.randint(2, 5)]
    limit = PREFERENCE_LIMIT[guest["loyalty_tier"]]
    kept = chosen[:limit]
    if sorted(kept) == sorted(guest["preferences"]):
        return None  # nothing would change
    draft = Draft(world, guest, persona, intent="preferences").verify().cite("8.1", "8.2")
    draft.do(act("get_guest_profile", guest_id=draft.gid))
    spoken = [SPOKEN[code] for code in chosen]
    draft.goal.append(
        "You want the standing preferences on your hotel profile replaced with these, in order of importance: "
        + "; ".join(spoken)
        + ". If not all of them can be kept, you want those that matter most to you."
    )
    if len(chosen) > limit:
        draft.trap(
            f"8.3: a {guest['loyalty_tier']} profile keeps {limit} preferences: the first {limit} named",
            act("update_preferences", guest_id=draft.gid, preferences=chosen),
        ).cite("8.3")
    return draft.do(act("update_preferences", guest_id=draft.gid, preferences=kept))


def charge_dispute(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """A charge of 75 dollars or less from the last 30 days is removed; any other goes to billing review."""
    stays = {s["reservation_id"]: s for s in _stays(world, guest, "checked_in", "checked_out")}
    charges = [
        c
        for c in sorted(world["charges"].values(), key=lambda c: str(c["charge_id"]))
        if c["reservation_id"] in stays
        and c["status"] == "posted"
        and abs(days_since(c["posted"]) - DESK_REVERSAL_DAYS) > 1
    ]
    if not charges:
        return None
    charge = rng.choice(charges)
    stay = stays[charge["reservation_id"]]
    draft = _reservations(Draft(world, guest, persona, intent="charge_dispute").verify()).cite("9.1")
    draft.do(act("get_folio", reservation_id=stay["reservation_id"]))
    draft.goal.append(
        f'You were charged ${charge["amount"]:.2f} for "{charge["description"]}" on {charge["posted"]} during'
        f" your stay at {_hotel(world, stay)}, and you dispute it. You want it removed from your bill. If the desk"
        " cannot remove it, you want it sent for review."
    )
    reverse = act("reverse_charge", charge_id=charge["charge_id"])
    if charge["amount"] <= DESK_REVERSAL_LIMIT and days_since(charge["posted"]) <= DESK_REVERSAL_DAYS:
        return draft.cite("9.2").do(reverse)
    why = "over 75 dollars" if charge["amount"] > DESK_REVERSAL_LIMIT else "posted more than 30 days ago"
    draft.trap(f"9.3: the charge is {why}: billing reviews it, the desk does not remove it", reverse).cite("9.2", "9.3")
    return draft.do(act("open_billing_review", charge_id=charge["charge_id"]))


def complaint_compensation(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """A major complaint earns a night credit; a minor one points; safety goes to the manager; resolved gets none."""
    complaints = sorted(
        (f for f in world["feedback"].values() if f["guest_id"] == guest["guest_id"]),
        key=lambda f: str(f["feedback_id"]),
    )
    if not complaints:
        return None
    complaint = rng.choice(complaints)
    stay = world["reservations"][complaint["reservation_id"]]
    fid, rate = complaint["feedback_id"], stay["nightly_rate"]
    draft = Draft(world, guest, persona, intent="complaint_compensation").verify().cite("10.1")
    draft.do(act("get_feedback", guest_id=draft.gid), act("get_guest_reservations", guest_id=draft.gid))
    draft.goal.append(
        f"You logged a complaint about {complaint['topic']} during your stay at {_hotel(world, stay)} that began on"
        f" {stay['check_in']}. You want one night of that stay refunded for it. If that is not possible, you accept"
        " whatever the hotel's rules give you."
    )
    credit = act("issue_compensation", feedback_id=fid, kind="night_credit", amount=rate)
    if complaint["status"] == "resolved":
        draft.trap("10.5: the complaint was already compensated, once per complaint", credit).cite("10.5")
        given = complaint["compensation_amount"]
        value = str(int(given)) if complaint["compensation_kind"] == "points" else money(given)
        return draft.say("amount", value, "10.5: what the complaint was already compensated with")
    if complaint["severity"] == "safety":
        draft.trap("10.4: a safety complaint goes to the duty manager, never compensated by the desk", credit)
        return draft.cite("10.4", "13.1").do(
            act("transfer_to_human_agents", guest_id=draft.gid, reason="safety_complaint")
        )
    if complaint["severity"] == "minor":
        points = COMPENSATION_POINTS[guest["loyalty_tier"]]
        draft.trap("10.2: a minor complaint earns points, never a credit in dollars", credit).cite("10.2", "10.6")
        return draft.do(act("issue_compensation", feedback_id=fid, kind="points", amount=points))
    return draft.cite("10.3", "10.6").do(credit)


def points_claim(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """Credit a completed direct stay's points within 90 days; never a third party's; never twice (say how many)."""
    past = _stays(world, guest, "checked_out")
    if not past:
        return None
    stay = rng.choice(past)
    rid = stay["reservation_id"]
    earned = stay_points(stay["nightly_rate"], nights(stay["check_in"], stay["check_out"]), guest["loyalty_tier"])
    draft = _reservations(Draft(world, guest, persona, intent="points_claim", dual=True).verify()).cite("11.1", "11.2")
    draft.do(act("get_guest_profile", guest_id=draft.gid))
    draft.goal.append(
        f"You stayed at {_hotel(world, stay)} from {stay['check_in']} to {stay['check_out']}, and you believe your"
        " loyalty account never received the points for that stay. You want them credited."
    )
    credit = act("credit_stay_points", reservation_id=rid, points=earned)
    if stay["channel"] == "third_party":
        draft.trap("11.3: a stay booked through a third party earns no points", credit).cite("11.3")
        return draft.say("text", THIRD_PARTY, "11.3: why the stay earns no points")
    if stay["points_earned"] is not None:
        draft.trap("11.4: the stay's points were already credited", credit).cite("11.4")
        return draft.say("amount", str(stay["points_earned"]), "11.4: the points the stay already earned")
    if days_since(stay["check_out"]) > MISSING_POINTS_DAYS:
        draft.trap("11.2: the claim comes more than 90 days after check-out", credit)
        return draft.say("text", "90 days|ninety days|three months", "11.2: why it is too late")
    return draft.do(credit)


def digital_key(world: World, guest: Guest, rng: random.Random, persona: str) -> Draft | None:
    """A key for an in-house stay, activated by the guest in the app; for a stay not started, the date it can be."""
    live = _stays(world, guest, "checked_in", "booked")
    candidates = [
        s for s in live if not s["digital_key"] and sum(other["hotel_id"] == s["hotel_id"] for other in live) == 1
    ]
    if not candidates:
        return None
    stay = rng.choice(candidates)
    draft = _reservations(Draft(world, guest, persona, intent="digital_key", dual=True).verify()).cite("12.1")
    draft.goal.append(
        f"You want a mobile key for your reservation at {_hotel(world, stay)} sent to the hotel app on your phone,"
        " and to activate it once it arrives."
    )
    device = world["phones"][draft.gid]["device_code"]
    issue = act("issue_digital_key", reservation_id=stay["reservation_id"], device_code=device)
    if stay["status"] == "booked":
        draft.trap("12.2: the stay has not started: no key before the arrival date", issue).cite("12.2")
        return draft.say("date", stay["check_in"], "12.2: the date from which the key can be issued")
    draft.cite("12.3", "12.4").do(act("open_hotel_app", "user", pin=draft.pin), act("view_device_code", "user"))
    return draft.do(issue, act("activate_digital_key", "user"))


SOLVERS: dict[str, Solver] = {
    f.__name__: f
    for f in (
        cancel_reservation,
        change_dates,
        book_stay,
        room_move,
        late_checkout,
        preferences,
        charge_dispute,
        complaint_compensation,
        points_claim,
        digital_key,
    )
}
"""The reference solver of each intent."""
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent."""
TRAPS_PER_WORLD = 1
CANDIDATES = 12
"""Drafts of each kind (trap, not) an intent looks at per world before choosing, so that it can vary the cases."""


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


def _rotated(traps: list[FactoryTask], count: int, turn: int) -> list[FactoryTask]:
    """``count`` traps, starting from the ``turn``-th kind of trap (the clause that forbids the write).

    Each world starts from another kind, so that between them the worlds show an intent's different traps (a third
    party's booking in one, a late cancellation in another).
    """
    kinds = sorted({str(t.trap_rationale).split(":")[0] for t in traps})
    order = kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)] if kinds else []
    ranked = [t for kind in order for t in traps if str(t.trap_rationale).split(":")[0] == kind]
    return _varied(ranked, count)


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over ``world``'s guests: one trap and the rest plain, varied in the clauses they test."""
    tasks: list[FactoryTask] = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        guests = sorted(world["guests"].values(), key=lambda g: str(g["guest_id"]))
        rng.shuffle(guests)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for guest in guests:
            draft = solve(world, guest, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}", WRITES)
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        chosen = _rotated(traps, TRAPS_PER_WORLD, int(tag[1:]) + index)
        chosen += _varied(plain, PER_WORLD - len(chosen))
        chosen += _varied([t for t in traps if t not in chosen], PER_WORLD - len(chosen))
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
