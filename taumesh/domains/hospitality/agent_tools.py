"""The front desk's tools: guest profiles, reservations, rooms, folios, feedback, loyalty and the mobile key.

Tools refuse only what the data itself makes impossible (an occupied room, a stay already cancelled, a wrong code);
the policy's rules (windows, limits, tiers, compensation) are the agent's to follow, as in τ-bench: a write the
policy forbids still goes through, and the grader sees it.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.hospitality.clock import ROOM_TYPES, TODAY, app_code, day, nights, plan_rate
from taumesh.domains.hospitality.schema import number, obj, strings, text

PREFERENCES = [
    "high_floor",
    "low_floor",
    "quiet_room",
    "near_elevator",
    "feather_free_pillows",
    "extra_towels",
    "king_bed",
    "twin_beds",
    "late_housekeeping",
    "morning_newspaper",
]
"""The standing preferences a profile can hold (the property system's codes)."""
HANDOFF_REASONS = ["safety_complaint", "legal_threat", "out_of_scope"]
COMPENSATION_KINDS = ["points", "night_credit"]
_GUEST = text("The guest's id, such as 'gst-w1-001'.")
_RESERVATION = text("The reservation's confirmation number, such as 'res-w1-0001'.")
_DATE = "YYYY-MM-DD."


def _dump(value: Any) -> str:
    return json.dumps(value)


def _record(data: Data, table: str, key: str, what: str) -> Any:
    if key not in data[table]:
        raise Refusal(f"{what} not found")
    return data[table][key]


def _revise(record: Any, **changes: Any) -> None:
    """Apply ``changes`` to a guest, stay or complaint and bump its revision: a change made twice leaves a trace."""
    record.update(changes)
    record["revision"] += 1


def _next_id(data: Data, table: str, prefix: str) -> str:
    return f"{prefix}-{len(data[table]) + 1:04d}"


def _overlaps(reservation: dict[str, Any], check_in: str, check_out: str) -> bool:
    live = reservation["status"] in ("booked", "checked_in")
    return live and reservation["check_in"] < check_out and check_in < reservation["check_out"]


def rooms_left(data: Data, hotel_id: str, room_type: str, check_in: str, check_out: str) -> int:
    """Rooms of ``room_type`` at the hotel not taken by a live stay overlapping the dates."""
    rooms = sum(1 for r in data["rooms"].values() if r["hotel_id"] == hotel_id and r["room_type"] == room_type)
    taken = sum(
        1
        for r in data["reservations"].values()
        if r["hotel_id"] == hotel_id and r["room_type"] == room_type and _overlaps(r, check_in, check_out)
    )
    return rooms - taken


class FindGuest(Tool):
    name = "find_guest"
    description = "Find a guest's id by first name, last name and the email address on their profile."
    parameters = obj(first_name=text("First name."), last_name=text("Last name."), email=text("Email address."))

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, email: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), email.strip().lower())
        for guest in data["guests"].values():
            if (guest["first_name"].lower(), guest["last_name"].lower(), guest["email"].lower()) == wanted:
                return str(guest["guest_id"])
        raise Refusal("guest not found")


class VerifyGuest(Tool):
    name = "verify_guest"
    writes = True
    description = "Verify the caller is the guest by the last four digits of the card on file and their postal code."
    parameters = obj(guest_id=_GUEST, card_last_four=text("Four digits."), postal_code=text("Postal code on file."))

    @staticmethod
    def invoke(data: Data, guest_id: str, card_last_four: str, postal_code: str) -> str:
        guest = _record(data, "guests", guest_id, "guest")
        if guest["card_last_four"] != card_last_four.strip() or guest["postal_code"] != postal_code.strip():
            raise Refusal("the guest could not be verified")
        record = {"guest_id": guest_id, "method": "card", "verified": True, "codes_sent": 0, "code": None}
        data["verifications"][guest_id] = record
        return _dump(record)


class SendAppCode(Tool):
    name = "send_app_code"
    writes = True
    description = "Push a six-digit one-time code to the hotel app on the guest's phone."
    parameters = obj(guest_id=_GUEST)

    @staticmethod
    def invoke(data: Data, guest_id: str) -> str:
        _record(data, "guests", guest_id, "guest")
        verifications = data["verifications"]
        sent = verifications[guest_id]["codes_sent"] if guest_id in verifications else 0
        code = app_code(guest_id, sent + 1)
        verifications[guest_id] = {
            "guest_id": guest_id,
            "method": "app_code",
            "verified": False,
            "codes_sent": sent + 1,
            "code": code,
        }
        message = {"sender": "Front desk", "text": f"Your front desk code is {code}. Read it only to hotel staff."}
        _record(data, "phones", guest_id, "phone")["inbox"].append(message)
        return "A one-time code was sent to the guest's hotel app."


class VerifyAppCode(Tool):
    name = "verify_app_code"
    writes = True
    description = (
        "Check the code the guest reads from their hotel app; it verifies them when it matches the last code sent."
    )
    parameters = obj(guest_id=_GUEST, code=text("The six digits the guest read."))

    @staticmethod
    def invoke(data: Data, guest_id: str, code: str) -> str:
        record = data["verifications"].get(guest_id)
        if record is None or record["code"] is None:
            raise Refusal("no code was sent to this guest")
        if record["code"] != code.strip():
            raise Refusal("the code does not match")
        record["verified"] = True
        return "The guest is verified."


class GetGuestProfile(Tool):
    name = "get_guest_profile"
    description = "The guest's profile: contact details, loyalty tier, member number, points and standing preferences."
    parameters = obj(guest_id=_GUEST)

    @staticmethod
    def invoke(data: Data, guest_id: str) -> str:
        return _dump(_record(data, "guests", guest_id, "guest"))


class GetGuestReservations(Tool):
    name = "get_guest_reservations"
    description = "Every reservation of the guest, past, present and future, with its rate plan, channel and status."
    parameters = obj(guest_id=_GUEST)

    @staticmethod
    def invoke(data: Data, guest_id: str) -> str:
        _record(data, "guests", guest_id, "guest")
        return _dump([r for r in data["reservations"].values() if r["guest_id"] == guest_id])


class GetFolio(Tool):
    name = "get_folio"
    description = "The charges posted to a reservation's bill, each with its id, amount, posting date and status."
    parameters = obj(reservation_id=_RESERVATION)

    @staticmethod
    def invoke(data: Data, reservation_id: str) -> str:
        _record(data, "reservations", reservation_id, "reservation")
        return _dump([c for c in data["charges"].values() if c["reservation_id"] == reservation_id])


class ListHotels(Tool):
    name = "list_hotels"
    description = "Every hotel of the group: id, name, city and the flexible nightly rate of each room type."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return _dump(list(data["hotels"].values()))


class GetRatePlans(Tool):
    name = "get_rate_plans"
    description = "The rate plans: discount off the flexible rate, refundability, who may book them and how early."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return _dump(list(data["rate_plans"].values()))


class CheckAvailability(Tool):
    name = "check_availability"
    description = "Rooms of a type left at a hotel for the dates, and the nightly price under each rate plan."
    parameters = obj(
        hotel_id=text("The hotel's id."),
        room_type=text("Room type.", list(ROOM_TYPES)),
        check_in=text(_DATE),
        check_out=text(_DATE),
    )

    @staticmethod
    def invoke(data: Data, hotel_id: str, room_type: str, check_in: str, check_out: str) -> str:
        hotel = _record(data, "hotels", hotel_id, "hotel")
        if room_type not in hotel["base_rates"]:
            raise Refusal(f"room_type must be one of {list(ROOM_TYPES)}")
        if nights(check_in, check_out) < 1:
            raise Refusal("check_out must be after check_in")
        prices = {
            plan_id: plan_rate(hotel["base_rates"][room_type], plan["discount"])
            for plan_id, plan in data["rate_plans"].items()
        }
        left = rooms_left(data, hotel_id, room_type, check_in, check_out)
        return _dump({"rooms_left": left, "nightly_rate_by_plan": prices})


class ListVacantRooms(Tool):
    name = "list_vacant_rooms"
    description = "Rooms of a type at a hotel that are vacant, clean and free of open faults, lowest number first."
    parameters = obj(hotel_id=text("The hotel's id."), room_type=text("Room type.", list(ROOM_TYPES)))

    @staticmethod
    def invoke(data: Data, hotel_id: str, room_type: str) -> str:
        _record(data, "hotels", hotel_id, "hotel")
        rooms = [
            r
            for r in data["rooms"].values()
            if r["hotel_id"] == hotel_id
            and r["room_type"] == room_type
            and r["occupied_by"] is None
            and r["housekeeping"] == "clean"
            and r["open_issue"] is None
        ]
        return _dump(sorted(rooms, key=lambda r: r["number"]))


class GetRoom(Tool):
    name = "get_room"
    description = "A room's record (type, housekeeping, open fault, occupant) and the arrivals already assigned to it."
    parameters = obj(room_id=text("The room's id, such as 'rm-w1-1204'."))

    @staticmethod
    def invoke(data: Data, room_id: str) -> str:
        room = _record(data, "rooms", room_id, "room")
        arrivals = [
            {"reservation_id": r["reservation_id"], "check_in": r["check_in"], "check_out": r["check_out"]}
            for r in data["reservations"].values()
            if r["room_id"] == room_id and r["status"] == "booked"
        ]
        return _dump({**room, "assigned_arrivals": arrivals})


class GetFeedback(Tool):
    name = "get_feedback"
    description = "The guest's logged complaints: topic, severity, stay, status and any compensation already given."
    parameters = obj(guest_id=_GUEST)

    @staticmethod
    def invoke(data: Data, guest_id: str) -> str:
        _record(data, "guests", guest_id, "guest")
        return _dump([f for f in data["feedback"].values() if f["guest_id"] == guest_id])


class CreateReservation(Tool):
    name = "create_reservation"
    writes = True
    description = "Book a room type at a hotel for the guest under a rate plan; the card on file guarantees it."
    parameters = obj(
        guest_id=_GUEST,
        hotel_id=text("The hotel's id."),
        room_type=text("Room type.", list(ROOM_TYPES)),
        check_in=text(_DATE),
        check_out=text(_DATE),
        rate_plan=text("The rate plan's id.", ["flex", "member", "advance"]),
    )

    @staticmethod
    def invoke(
        data: Data, guest_id: str, hotel_id: str, room_type: str, check_in: str, check_out: str, rate_plan: str
    ) -> str:
        _record(data, "guests", guest_id, "guest")
        hotel = _record(data, "hotels", hotel_id, "hotel")
        plan = _record(data, "rate_plans", rate_plan, "rate plan")
        if room_type not in hotel["base_rates"]:
            raise Refusal(f"room_type must be one of {list(ROOM_TYPES)}")
        if nights(check_in, check_out) < 1 or day(check_in) < TODAY:
            raise Refusal("the dates must be ahead, check_out after check_in")
        if rooms_left(data, hotel_id, room_type, check_in, check_out) < 1:
            raise Refusal("no room of that type is left for those dates")
        reservation_id = _next_id(data, "reservations", "res-new")
        data["reservations"][reservation_id] = {
            "reservation_id": reservation_id,
            "guest_id": guest_id,
            "hotel_id": hotel_id,
            "room_type": room_type,
            "room_id": None,
            "check_in": check_in,
            "check_out": check_out,
            "nightly_rate": plan_rate(hotel["base_rates"][room_type], plan["discount"]),
            "rate_plan": rate_plan,
            "channel": "direct",
            "status": "booked",
            "cancellation_fee": None,
            "checkout_time": "11:00",
            "late_checkout_fee": 0.0,
            "points_earned": None,
            "digital_key": False,
            "revision": 1,
        }
        return _dump(data["reservations"][reservation_id])


class CancelReservation(Tool):
    name = "cancel_reservation"
    writes = True
    description = "Cancel a booked stay, charging the card on file the cancellation fee the policy sets (0 if none)."
    parameters = obj(reservation_id=_RESERVATION, cancellation_fee=number("Dollars charged for cancelling."))

    @staticmethod
    def invoke(data: Data, reservation_id: str, cancellation_fee: float) -> str:
        reservation = _record(data, "reservations", reservation_id, "reservation")
        if reservation["status"] != "booked":
            raise Refusal(f"the reservation is {reservation['status']}: only a booked stay can be cancelled")
        _revise(reservation, status="cancelled", cancellation_fee=round(float(cancellation_fee), 2))
        return _dump(reservation)


class MoveRoom(Tool):
    name = "move_room"
    writes = True
    description = "Move an in-house stay to another vacant room of the same hotel at the nightly rate given."
    parameters = obj(
        reservation_id=_RESERVATION,
        new_room_id=text("The room to move to."),
        nightly_rate=number("The stay's nightly rate from tonight on."),
    )

    @staticmethod
    def invoke(data: Data, reservation_id: str, new_room_id: str, nightly_rate: float) -> str:
        reservation = _record(data, "reservations", reservation_id, "reservation")
        room = _record(data, "rooms", new_room_id, "room")
        if reservation["status"] != "checked_in" or reservation["room_id"] is None:
            raise Refusal("only an in-house stay can change rooms")
        if room["hotel_id"] != reservation["hotel_id"] or room["occupied_by"] is not None:
            raise Refusal("that room is not a vacant room of the guest's hotel")
        old = data["rooms"][reservation["room_id"]]
        old["occupied_by"] = None
        old["housekeeping"] = "dirty"
        room["occupied_by"] = reservation_id
        _revise(
            reservation, room_id=new_room_id, room_type=room["room_type"], nightly_rate=round(float(nightly_rate), 2)
        )
        return _dump(reservation)


class SetLateCheckout(Tool):
    name = "set_late_checkout"
    writes = True
    description = "Set an in-house stay's check-out time on the departure day (HH:MM) and the fee it costs (0 if none)."
    parameters = obj(reservation_id=_RESERVATION, checkout_time=text("HH:MM, 24-hour."), fee=number("Dollars."))

    @staticmethod
    def invoke(data: Data, reservation_id: str, checkout_time: str, fee: float) -> str:
        reservation = _record(data, "reservations", reservation_id, "reservation")
        if reservation["status"] != "checked_in":
            raise Refusal("only an in-house stay can change its check-out time")
        hour, _, minute = checkout_time.partition(":")
        if not (hour.isdigit() and minute.isdigit() and len(minute) == 2 and int(hour) < 24):
            raise Refusal("checkout_time must be HH:MM")
        _revise(reservation, checkout_time=f"{int(hour):02d}:{minute}", late_checkout_fee=round(float(fee), 2))
        return _dump(reservation)


class UpdatePreferences(Tool):
    name = "update_preferences"
    writes = True
    description = "Replace the guest's standing preferences with the ones given (codes from the list)."
    parameters = obj(guest_id=_GUEST, preferences=strings("The preferences to keep.", PREFERENCES))

    @staticmethod
    def invoke(data: Data, guest_id: str, preferences: list[str]) -> str:
        guest = _record(data, "guests", guest_id, "guest")
        unknown = sorted(set(preferences) - set(PREFERENCES))
        if unknown:
            raise Refusal(f"unknown preferences {unknown}; the codes are {PREFERENCES}")
        _revise(guest, preferences=sorted(set(preferences)))
        return _dump(guest)


def _posted_charge(data: Data, charge_id: str) -> Any:
    charge = _record(data, "charges", charge_id, "charge")
    if charge["status"] != "posted":
        raise Refusal(f"the charge is already {charge['status'].replace('_', ' ')}")
    return charge


class ReverseCharge(Tool):
    name = "reverse_charge"
    writes = True
    description = "Remove a disputed charge from the guest's bill at the desk."
    parameters = obj(charge_id=text("The charge's id."))

    @staticmethod
    def invoke(data: Data, charge_id: str) -> str:
        charge = _posted_charge(data, charge_id)
        charge["status"] = "reversed"
        return _dump(charge)


class OpenBillingReview(Tool):
    name = "open_billing_review"
    writes = True
    description = "Send a disputed charge to the billing office for review; the guest hears back by email."
    parameters = obj(charge_id=text("The charge's id."))

    @staticmethod
    def invoke(data: Data, charge_id: str) -> str:
        charge = _posted_charge(data, charge_id)
        charge["status"] = "under_review"
        return _dump(charge)


class IssueCompensation(Tool):
    name = "issue_compensation"
    writes = True
    description = "Compensate a logged complaint with loyalty points or a credit in dollars, and resolve it."
    parameters = obj(
        feedback_id=text("The complaint's id."),
        kind=text("What is given.", COMPENSATION_KINDS),
        amount=number("Points, or dollars for a night credit."),
    )

    @staticmethod
    def invoke(data: Data, feedback_id: str, kind: str, amount: float) -> str:
        feedback = _record(data, "feedback", feedback_id, "complaint")
        if kind not in COMPENSATION_KINDS:
            raise Refusal(f"kind must be one of {COMPENSATION_KINDS}")
        if kind == "points":
            data["guests"][feedback["guest_id"]]["points"] += int(amount)
        _revise(feedback, status="resolved", compensation_kind=kind, compensation_amount=round(float(amount), 2))
        return _dump(feedback)


class CreditStayPoints(Tool):
    name = "credit_stay_points"
    writes = True
    description = "Credit loyalty points for a completed stay to the guest's account."
    parameters = obj(reservation_id=_RESERVATION, points=number("Whole points.", "integer"))

    @staticmethod
    def invoke(data: Data, reservation_id: str, points: int) -> str:
        reservation = _record(data, "reservations", reservation_id, "reservation")
        if reservation["status"] != "checked_out":
            raise Refusal("points are credited for completed stays only")
        _revise(reservation, points_earned=(reservation["points_earned"] or 0) + int(points))
        data["guests"][reservation["guest_id"]]["points"] += int(points)
        return _dump(reservation)


class IssueDigitalKey(Tool):
    name = "issue_digital_key"
    writes = True
    description = (
        "Send a mobile key for the stay to the guest's phone, named by the device code their hotel app shows in its"
        " settings; the guest activates it there."
    )
    parameters = obj(reservation_id=_RESERVATION, device_code=text("The six characters the guest reads."))

    @staticmethod
    def invoke(data: Data, reservation_id: str, device_code: str) -> str:
        reservation = _record(data, "reservations", reservation_id, "reservation")
        if reservation["status"] in ("cancelled", "checked_out"):
            raise Refusal(f"the reservation is {reservation['status']}")
        phone = _record(data, "phones", reservation["guest_id"], "phone")
        if phone["device_code"] != device_code.strip().upper():
            raise Refusal("no phone of the guest's has that device code")
        room = data["rooms"].get(reservation["room_id"] or "")
        key = {"reservation_id": reservation_id, "room_number": room and room["number"], "status": "pending"}
        phone["keys"].append(key)
        _revise(reservation, digital_key=True)
        return "A mobile key was sent to the guest's hotel app; they activate it there."


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the guest to the duty manager (safety, legal, out of scope); ends the conversation."
    parameters = obj(guest_id=text("The guest's id, or '' when unknown."), reason=text("Why.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, guest_id: str, reason: str) -> str:
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {HANDOFF_REASONS}")
        handoff_id = _next_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "guest_id": guest_id, "reason": reason}
        return "Transfer successful"


AGENT_TOOLS: tuple[type[Tool], ...] = (
    FindGuest,
    VerifyGuest,
    SendAppCode,
    VerifyAppCode,
    GetGuestProfile,
    GetGuestReservations,
    GetFolio,
    ListHotels,
    GetRatePlans,
    CheckAvailability,
    ListVacantRooms,
    GetRoom,
    GetFeedback,
    CreateReservation,
    CancelReservation,
    MoveRoom,
    SetLateCheckout,
    UpdatePreferences,
    ReverseCharge,
    OpenBillingReview,
    IssueCompensation,
    CreditStayPoints,
    IssueDigitalKey,
    TransferToHumanAgents,
)
"""Every tool of the desk's agent."""
