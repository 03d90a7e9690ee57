"""Reference solvers of the organisers' intents: venue holds, session moves and ticket releases.

Each reads one organiser's events (or a city's venues) and answers with a :class:`Draft`, or None when the case does
not fit (no qualifying venue, a room in use at the new time). A venue tie on the lowest day rate is a step of
alternatives: any of them is allowed (9.3).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.events.clock import NOW, TRANSFER_WINDOW, at, deposit, overlaps, until
from taumesh.domains.events.drafts import Draft, Reason, spoken_date
from taumesh.domains.events.world import SLOTS
from taumesh.domains.factory import World, act

Record = dict[str, Any]


def _own_events(world: World, organiser: Record, kind: str | None = None) -> list[Record]:
    return sorted(
        (
            e
            for e in world["events"].values()
            if e["organiser_id"] == organiser["organiser_id"] and (kind is None or e["kind"] == kind)
        ),
        key=lambda e: e["event_id"],
    )


def _free(world: World, venue_id: str, date: str) -> bool:
    return not any(b["venue_id"] == venue_id and b["date"] == date for b in world["venue_bookings"].values())


def hold_venue(world: World, organiser: Record, rng: random.Random) -> Draft | None:
    """The named venue when it qualifies; else the cheapest qualifying one of the city (any of a tie)."""
    city = rng.choice(sorted({v["city"] for v in world["venues"].values()}))
    venues = sorted((v for v in world["venues"].values() if v["city"] == city), key=lambda v: v["venue_id"])
    date = (NOW + timedelta(days=rng.randint(60, 120))).date().isoformat()
    guests = rng.choice([150, 220, 350, 500, 800, 1200])
    named = rng.choice(venues)
    qualifying = [v for v in venues if v["step_free"] and v["capacity"] >= guests and _free(world, v["venue_id"], date)]
    if not qualifying or not _free(world, named["venue_id"], date):
        return None
    draft = Draft(world, organiser, intent="hold_venue").verify().cite("9.1", "9.2", "9.4", "3.3")
    draft.do(act("search_venues", city=city, date=date))
    draft.goal.append(
        f"You are planning an event in {city} on {date} for about {guests} guests and want to hold {named['name']}"
        " for it. If that venue is not allowed, hold whichever venue the box office's rules allow instead. You want"
        " to know the deposit."
    )

    def hold(venue: Record) -> list[Any]:
        return [
            act(
                "hold_venue",
                organiser_id=draft.person_id,
                venue_id=venue["venue_id"],
                date=date,
                deposit=deposit(venue["day_rate"]),
            )
        ]

    if named in qualifying:
        draft.cite("9.3").do(*hold(named))
        return draft.say("amount", f"{deposit(named['day_rate']):.2f}", "9.4: the deposit taken")
    reasons = []
    if not named["step_free"]:
        reasons.append(Reason("9.2", f"{named['name']} has no step-free access", "step-free|step free|not accessible"))
    if named["capacity"] < guests:
        rationale = f"{named['name']} seats {named['capacity']}, fewer than {guests}"
        reasons.append(Reason("9.2", rationale, "capacity|too small|not big enough|only holds|only seats"))
    draft.refuse(reasons, hold(named)[0])
    cheapest = min(v["day_rate"] for v in qualifying)
    ties = [v for v in qualifying if v["day_rate"] == cheapest]
    draft.cite("9.3").step("the cheapest qualifying venue of the city, any of a tie (9.3)", *(hold(v) for v in ties))
    return draft.say("amount", f"{deposit(cheapest):.2f}", "9.4: the deposit taken")


def move_session(world: World, organiser: Record, rng: random.Random) -> Draft | None:
    """A move to a free room and time, then the notice; refused within 48 hours, to a small room, or a busy speaker."""
    events = [e for e in _own_events(world, organiser, "conference") if e["status"] != "cancelled"]
    if not events:
        return None
    event = rng.choice(events)
    sessions = sorted(
        (s for s in world["sessions"].values() if s["event_id"] == event["event_id"]), key=lambda s: s["session_id"]
    )
    session = rng.choice(sessions)
    rooms = world["venues"][event["venue_id"]]["rooms"]
    day = event["start"][:10]
    places = [
        (f"{day}T{begin}", f"{day}T{end}", room)
        for begin, end in SLOTS
        for room in rooms
        if (f"{day}T{begin}", room["name"]) != (session["start"], session["room"])
        and not any(
            o["room"] == room["name"]
            and o["session_id"] != session["session_id"]
            and overlaps(o["start"], o["end"], f"{day}T{begin}", f"{day}T{end}")
            for o in sessions
        )
    ]
    if not places:
        return None
    start, end, room = rng.choice(places)
    draft = Draft(world, organiser, intent="move_session").verify().cite("10.1", "3.1")
    draft.do(act("get_event_sessions", event_id=event["event_id"]))
    draft.goal.append(
        f'You organise {event["title"]} on {spoken_date(event["start"])}. You want the session "{session["title"]}"'
        f" by {session['speaker']} moved to {start[11:]} in {room['name']}, and everyone registered for it told."
        " If it cannot be moved, you want to know why."
    )
    move = act("move_session", session_id=session["session_id"], new_start=start, room=room["name"])
    busy = [
        s
        for s in sessions
        if s["speaker"] == session["speaker"]
        and s["session_id"] != session["session_id"]
        and overlaps(s["start"], s["end"], start, end)
    ]
    reasons = []
    if until(session["start"]) <= TRANSFER_WINDOW:
        reasons.append(Reason("10.2", "the session starts within 48 hours", "48 hours|48-hour|two days"))
    if room["capacity"] < session["seats_taken"]:
        rationale = f"{room['name']} seats {room['capacity']}, fewer than the {session['seats_taken']} taken"
        phrases = "too small|not big enough|only seats|only holds|capacity|fewer seats"
        reasons.append(Reason("10.3", rationale, phrases))
    if busy:
        rationale = f"{session['speaker']} gives {busy[0]['session_id']} at that time"
        phrases = "another session|double-booked|double booked|already speaking|already presenting|already giving"
        reasons.append(Reason("10.4", rationale, phrases))
    if reasons:
        return draft.cite("10.6").refuse(reasons, move)
    return draft.cite("10.2", "10.3", "10.4", "10.5").do(
        move, act("notify_session_attendees", session_id=session["session_id"], notice="session_moved")
    )


def release_tickets(world: World, organiser: Record, rng: random.Random) -> Draft | None:
    """The release asked when the venue holds it; else only what reaches its capacity; none for a cancelled event."""
    events = [e for e in _own_events(world, organiser) if at(e["start"]) > NOW]
    if not events:
        return None
    event = rng.choice(events)
    classes = sorted(
        (c for c in world["ticket_classes"].values() if c["event_id"] == event["event_id"]), key=lambda c: c["class_id"]
    )
    ticket_class = rng.choice(classes)
    room = world["venues"][event["venue_id"]]["capacity"] - sum(c["allocation"] for c in classes)
    wanted = rng.choice([40, 80, 150, 200, 250])
    draft = Draft(world, organiser, intent="release_tickets").verify().cite("11.1", "11.2")
    draft.do(act("get_organiser_events", organiser_id=draft.person_id))
    draft.goal.append(
        f"You organise {event['title']} on {spoken_date(event['start'])} and want {wanted} more {ticket_class['name']}"
        " tickets put on sale. If fewer are allowed, you want as many as the rules allow and to know how many that is;"
        " if none can be, you want to know why."
    )
    asked = act("release_more_tickets", class_id=ticket_class["class_id"], quantity=wanted)
    reasons = []
    if event["status"] == "cancelled":
        reasons.append(Reason("11.3", "the event is cancelled: no tickets are released", "cancelled|canceled"))
    if room <= 0:
        rationale = "the venue's capacity is on sale already: nothing is released"
        reasons.append(Reason("11.2", rationale, "capacity|no room|already on sale|full"))
    if reasons:
        return draft.refuse(reasons, asked)
    if wanted > room:
        draft.trap(f"11.2: only {room} more fit the venue: those are released instead", asked)
        draft.do(act("release_more_tickets", class_id=ticket_class["class_id"], quantity=room))
        return draft.say("amount", str(room), "11.2: how many were released")
    return draft.do(asked)


ORGANISER_SOLVERS = {f.__name__: f for f in (hold_venue, move_session, release_tickets)}
