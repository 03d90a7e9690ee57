"""The agent's tools for organisers, and the hand-off to a human for anyone.

For organisers: their events, venue options and holds, session schedules, notices to attendees and ticket releases.

As for tickets, tools refuse only what the data rules out (a venue taken that day, a room in use); whether a venue,
a move or a release is allowed is the policy's, for the agent to apply.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.events.access import dump, record
from taumesh.domains.events.clock import at, money, overlaps
from taumesh.domains.events.identity_tools import ORGANISER
from taumesh.domains.events.schema import numeric, params, string

NOTICES = ["session_moved", "session_cancelled", "speaker_changed"]
TOPICS = ["refund_approval", "complaint", "safety_or_legal", "other"]
SESSION = string("The session's id, such as 'ses-w1-03-4'.")


def _taken(data: Data, venue_id: str, date: str) -> bool:
    return any(b["venue_id"] == venue_id and b["date"] == date for b in data["venue_bookings"].values())


class GetOrganiserEvents(Tool):
    name = "get_organiser_events"
    description = (
        "An organiser's events, each with its venue's capacity and the allocation of every ticket class (the"
        " tickets put on sale)."
    )
    parameters = params(organiser_id=ORGANISER)

    @staticmethod
    def invoke(data: Data, organiser_id: str) -> str:
        record(data, "organisers", organiser_id, "organiser")
        found = []
        for event in data["events"].values():
            if event["organiser_id"] == organiser_id:
                classes = [c for c in data["ticket_classes"].values() if c["event_id"] == event["event_id"]]
                capacity = data["venues"][event["venue_id"]]["capacity"]
                found.append({**event, "venue_capacity": capacity, "ticket_classes": classes})
        return dump(found)


class SearchVenues(Tool):
    name = "search_venues"
    description = (
        "The venues of a city: capacity, step-free access, day rate, rooms, and whether each is free on the date."
    )
    parameters = params(city=string("The city."), date=string("The date, YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, city: str, date: str) -> str:
        venues = [v for v in data["venues"].values() if v["city"].lower() == city.strip().lower()]
        if not venues:
            raise Refusal(f"no venues in {city}")
        return dump([{**v, "free_on_date": not _taken(data, v["venue_id"], date)} for v in venues])


class HoldVenue(Tool):
    name = "hold_venue"
    writes = True
    description = "Hold a venue for a day for an organiser, taking the given deposit."
    parameters = params(
        organiser_id=ORGANISER,
        venue_id=string("The venue's id, such as 'ven-w1-04'."),
        date=string("The date, YYYY-MM-DD."),
        deposit=numeric("The deposit taken, in dollars."),
    )

    @staticmethod
    def invoke(data: Data, organiser_id: str, venue_id: str, date: str, deposit: float) -> str:
        record(data, "organisers", organiser_id, "organiser")
        record(data, "venues", venue_id, "venue")
        if _taken(data, venue_id, date):
            raise Refusal(f"{venue_id} is taken on {date}")
        if deposit <= 0:
            raise Refusal("a hold needs a deposit")
        booking_id = f"hold-{venue_id}-{date}"
        data["venue_bookings"][booking_id] = {
            "booking_id": booking_id,
            "venue_id": venue_id,
            "date": date,
            "organiser_id": organiser_id,
            "deposit": money(deposit),
            "kind": "hold",
        }
        return dump(data["venue_bookings"][booking_id])


class MoveSession(Tool):
    name = "move_session"
    writes = True
    description = "Move a session to a new start time (same length) and a room of its venue."
    parameters = params(
        session_id=SESSION,
        new_start=string("The new start, YYYY-MM-DDTHH:MM."),
        room=string("The room's name, as the venue lists it."),
    )

    @staticmethod
    def invoke(data: Data, session_id: str, new_start: str, room: str) -> str:
        session = record(data, "sessions", session_id, "session")
        event = data["events"][session["event_id"]]
        rooms = {r["name"] for r in data["venues"][event["venue_id"]]["rooms"]}
        if room not in rooms:
            raise Refusal(f"the venue has no room {room!r}")
        length = at(session["end"]) - at(session["start"])
        try:
            start = at(new_start)
        except ValueError:
            raise Refusal("new_start must be YYYY-MM-DDTHH:MM") from None
        end = (start + length).isoformat(timespec="minutes")
        if not event["start"] <= start.isoformat(timespec="minutes") <= event["end"] or end > event["end"]:
            raise Refusal("the new time is outside the event's hours")
        for other in data["sessions"].values():
            same_room = other["event_id"] == event["event_id"] and other["room"] == room
            if (
                same_room
                and other["session_id"] != session_id
                and overlaps(other["start"], other["end"], new_start, end)
            ):
                raise Refusal(f"{room} is in use then by {other['session_id']}")
        session.update(start=start.isoformat(timespec="minutes"), end=end, room=room)
        return dump(session)


class NotifySessionAttendees(Tool):
    name = "notify_session_attendees"
    writes = True
    description = "Send the holders registered for a session a notice of a change to it."
    parameters = params(session_id=SESSION, notice=string("What changed.", NOTICES))

    @staticmethod
    def invoke(data: Data, session_id: str, notice: str) -> str:
        session = record(data, "sessions", session_id, "session")
        if notice not in NOTICES:
            raise Refusal(f"notice must be one of {', '.join(NOTICES)}")
        number = sum(1 for n in data["notices"].values() if n["session_id"] == session_id) + 1
        sent = {
            "notice_id": f"ntc-{session_id}-{number}",
            "session_id": session_id,
            "kind": notice,
            "recipients": len(session["registered_orders"]),
        }
        data["notices"][sent["notice_id"]] = sent
        return dump(sent)


class ReleaseMoreTickets(Tool):
    name = "release_more_tickets"
    writes = True
    description = "Put more tickets of a class on sale (raise its allocation)."
    parameters = params(
        class_id=string("The ticket class's id, such as 'cls-w1-05-1'."),
        quantity=numeric("How many tickets to add.", integer=True),
    )

    @staticmethod
    def invoke(data: Data, class_id: str, quantity: int) -> str:
        ticket_class = record(data, "ticket_classes", class_id, "ticket class")
        if quantity < 1:
            raise Refusal("release at least one ticket")
        ticket_class["allocation"] += quantity
        return dump(ticket_class)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the caller to a supervisor, filing the topic; the conversation ends."
    parameters = params(
        person_id=string("The caller's attendee or organiser id, or '' when not known."),
        topic=string("Why.", TOPICS),
    )

    @staticmethod
    def invoke(data: Data, person_id: str, topic: str) -> str:
        if topic not in TOPICS:
            raise Refusal(f"topic must be one of {', '.join(TOPICS)}")
        handoff_id = f"hnd-{len(data['handoffs']) + 1:03d}"
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "person_id": person_id, "topic": topic}
        return "You are being transferred to a supervisor. Please hold."


ORGANISER_TOOLS: tuple[type[Tool], ...] = (
    GetOrganiserEvents,
    SearchVenues,
    HoldVenue,
    MoveSession,
    NotifySessionAttendees,
    ReleaseMoreTickets,
    TransferToHumanAgents,
)
