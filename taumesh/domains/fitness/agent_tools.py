"""The agent's tools: the club's member, class, trainer, programming, activity and billing systems.

Tools refuse what the data itself forbids (a full class, an unknown share code, a slot already taken, a waiver with
no late fee to waive); the policy's judgement calls (safety rules, freeze limits, goal caps, notice and fees, guest
allowances) are the agent's to apply, as in τ-bench, so that a forbidden request is a choice the agent makes.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.fitness.clock import (
    DAY_PASS_PRICE,
    LATE_CANCEL_FEE,
    NOW,
    TODAY,
    add_months,
    at,
    late_cancellation,
)
from taumesh.domains.fitness.schema import arguments, boolean, integer, number, string

_MEMBER = string("The member's id, such as 'mem-w1-004'.")
_CLUB = string("The club's id, such as 'club-w1-1'.")
_DATE = string("A date, YYYY-MM-DD.")
FOCUSES = ["legs", "core", "cardio", "upper_body", "mobility"]
ESCALATION_REASONS = ["injury_or_symptoms", "medical_advice", "complaint", "billing_dispute", "out_of_scope"]


def _dump(value: Any) -> str:
    return json.dumps(value)


def _get(data: Data, table: str, key: str, what: str) -> Any:
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def _member(data: Data, member_id: str) -> Any:
    return _get(data, "members", member_id, "member")


def _new_id(data: Data, table: str, prefix: str) -> str:
    return f"{prefix}-{len(data[table]) + 1:05d}"


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError as error:
        raise Refusal(f"{text!r} is not a date in YYYY-MM-DD form") from error


def _charge(data: Data, member_id: str, kind: str, amount: float, status: str = "open") -> str:
    charge_id = _new_id(data, "charges", "chg")
    data["charges"][charge_id] = {
        "charge_id": charge_id,
        "member_id": member_id,
        "kind": kind,
        "amount": round(amount, 2),
        "status": status,
    }
    return charge_id


def _guest(name: str) -> str:
    return " ".join(name.split()).title()


class FindMemberByEmail(Tool):
    name = "find_member_by_email"
    description = "Find a member's id by the email address on their membership."
    parameters = arguments(email=string("The member's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        wanted = email.strip().lower()
        for member in data["members"].values():
            if member["email"] == wanted:
                return str(member["member_id"])
        raise Refusal("no member has that email address")


class VerifyMember(Tool):
    """Records the verification (a write): policy 1.2 makes every account action wait for it."""

    name = "verify_member"
    writes = True
    description = "Verify the caller is the member: their date of birth and home postcode must match the record."
    parameters = arguments(
        member_id=_MEMBER, date_of_birth=string("Date of birth, YYYY-MM-DD."), postcode=string("Home postcode.")
    )

    @staticmethod
    def invoke(data: Data, member_id: str, date_of_birth: str, postcode: str) -> str:
        member = _member(data, member_id)
        same_postcode = member["postcode"].replace(" ", "").upper() == postcode.replace(" ", "").upper()
        if member["date_of_birth"] != date_of_birth.strip() or not same_postcode:
            raise Refusal("the details do not match the member's record")
        data["verifications"][member_id] = {"member_id": member_id, "method": "date_of_birth_and_postcode"}
        return "Member verified."


class GetMemberProfile(Tool):
    name = "get_member_profile"
    description = (
        "A member's profile: plan, status, home club, billing day, commitment end, declared health conditions and"
        " clearances on file, balance due, trainer credits, weekly goal and earlier goals, last fee waiver, any notice."
    )
    parameters = arguments(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        return _dump(_member(data, member_id))


class GetPlan(Tool):
    name = "get_plan"
    description = "A membership plan: monthly fee, guest passes per month, freeze fee per month, session price."
    parameters = arguments(plan_id=string("The plan's id, such as 'plan-w1-plus'."))

    @staticmethod
    def invoke(data: Data, plan_id: str) -> str:
        return _dump(_get(data, "plans", plan_id, "plan"))


class ListClasses(Tool):
    name = "list_classes"
    description = (
        "The classes at a club on a date, earliest first: title, start, length, intensity, impact, spinal load,"
        " heated room, and spots left."
    )
    parameters = arguments(club_id=_CLUB, date=_DATE)

    @staticmethod
    def invoke(data: Data, club_id: str, date: str) -> str:
        _get(data, "clubs", club_id, "club")
        day = _day(date).isoformat()
        found = sorted(
            (c for c in data["classes"].values() if c["club_id"] == club_id and c["start"][:10] == day),
            key=lambda c: c["start"],
        )
        return _dump([{**c, "spots_left": c["capacity"] - c["booked"]} for c in found])


class GetMemberBookings(Tool):
    name = "get_member_bookings"
    description = "A member's class bookings with each class's title and start, and any late fee."
    parameters = arguments(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        _member(data, member_id)
        found = []
        for booking in data["bookings"].values():
            if booking["member_id"] == member_id:
                session = data["classes"][booking["class_id"]]
                found.append({**booking, "title": session["title"], "start": session["start"]})
        return _dump(sorted(found, key=lambda b: b["start"]))


class BookClass(Tool):
    name = "book_class"
    writes = True
    description = "Book a member into a class with a spot left; returns the booking."
    parameters = arguments(member_id=_MEMBER, class_id=string("The class's id."))

    @staticmethod
    def invoke(data: Data, member_id: str, class_id: str) -> str:
        member = _member(data, member_id)
        session = _get(data, "classes", class_id, "class")
        if member["status"] == "frozen":
            raise Refusal("the membership is frozen")
        if at(session["start"]) <= NOW:
            raise Refusal("the class has already started")
        if session["booked"] >= session["capacity"]:
            raise Refusal("the class is full")
        for booking in data["bookings"].values():
            if (booking["member_id"], booking["class_id"], booking["status"]) == (member_id, class_id, "booked"):
                raise Refusal("the member is already booked into this class")
        booking_id = _new_id(data, "bookings", "bkg")
        record = {
            "booking_id": booking_id,
            "member_id": member_id,
            "class_id": class_id,
            "status": "booked",
            "late_fee": 0.0,
            "fee_waived": False,
        }
        data["bookings"][booking_id] = record
        session["booked"] += 1
        return _dump(record)


class CancelClassBooking(Tool):
    """Charges the late fee itself when the class is under 12 hours away; a waiver needs a fee to waive."""

    name = "cancel_class_booking"
    writes = True
    description = (
        "Cancel a class booking. Less than 12 hours before the start the late-cancellation fee is charged, unless"
        " waive_late_fee is true (allowed only when a late fee applies)."
    )
    parameters = arguments(
        booking_id=string("The booking's id."), waive_late_fee=boolean("Waive the late fee as a courtesy.")
    )

    @staticmethod
    def invoke(data: Data, booking_id: str, waive_late_fee: bool) -> str:
        booking = _get(data, "bookings", booking_id, "booking")
        session = data["classes"][booking["class_id"]]
        if booking["status"] != "booked":
            raise Refusal("the booking is already cancelled")
        if at(session["start"]) <= NOW:
            raise Refusal("the class has already started")
        late = late_cancellation(session["start"])
        if waive_late_fee and not late:
            raise Refusal("no late fee applies to this booking, so there is nothing to waive")
        booking["status"] = "cancelled"
        session["booked"] -= 1
        if late:
            booking["late_fee"] = LATE_CANCEL_FEE
            booking["fee_waived"] = waive_late_fee
            _charge(data, booking["member_id"], "late_cancel", LATE_CANCEL_FEE, "waived" if waive_late_fee else "open")
            if waive_late_fee:
                data["members"][booking["member_id"]]["last_fee_waiver"] = TODAY.isoformat()
        return _dump(booking)


class GetCharges(Tool):
    name = "get_charges"
    description = "A member's charges: kind, amount, and whether open or waived."
    parameters = arguments(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        _member(data, member_id)
        return _dump([c for c in data["charges"].values() if c["member_id"] == member_id])


class ListTrainers(Tool):
    name = "list_trainers"
    description = "The personal trainers of a club and their certifications (rehab, cardiac, prenatal)."
    parameters = arguments(club_id=_CLUB)

    @staticmethod
    def invoke(data: Data, club_id: str) -> str:
        _get(data, "clubs", club_id, "club")
        return _dump([t for t in data["trainers"].values() if t["club_id"] == club_id])


class ListTrainerSlots(Tool):
    name = "list_trainer_slots"
    description = "A trainer's open one-hour session slots on a date, earliest first."
    parameters = arguments(trainer_id=string("The trainer's id."), date=_DATE)

    @staticmethod
    def invoke(data: Data, trainer_id: str, date: str) -> str:
        _get(data, "trainers", trainer_id, "trainer")
        day = _day(date).isoformat()
        found = [
            s
            for s in data["trainer_slots"].values()
            if s["trainer_id"] == trainer_id and s["start"][:10] == day and s["status"] == "open"
        ]
        return _dump(sorted(found, key=lambda s: s["start"]))


class BookTrainerSession(Tool):
    """Pays with a prepaid credit when the member has one, else charges the plan's session price."""

    name = "book_trainer_session"
    writes = True
    description = (
        "Book a member into an open trainer slot; a prepaid credit is used when the member has one, otherwise the"
        " plan's session price is charged."
    )
    parameters = arguments(member_id=_MEMBER, slot_id=string("The slot's id."))

    @staticmethod
    def invoke(data: Data, member_id: str, slot_id: str) -> str:
        member = _member(data, member_id)
        slot = _get(data, "trainer_slots", slot_id, "slot")
        if member["status"] == "frozen":
            raise Refusal("the membership is frozen")
        if slot["status"] != "open" or at(slot["start"]) <= NOW:
            raise Refusal("the slot is not open")
        slot["status"] = "booked"
        slot["member_id"] = member_id
        if member["trainer_credits"] > 0:
            member["trainer_credits"] -= 1
            slot["paid_with"] = "credit"
        else:
            _charge(data, member_id, "training_session", data["plans"][member["plan_id"]]["session_price"])
            slot["paid_with"] = "charge"
        return _dump(slot)


class ListRoutines(Tool):
    name = "list_routines"
    description = "A club's routines of one focus, with their traits (intensity, impact, spinal load, heated room)."
    parameters = arguments(club_id=_CLUB, focus=string("The routine's focus.", FOCUSES))

    @staticmethod
    def invoke(data: Data, club_id: str, focus: str) -> str:
        _get(data, "clubs", club_id, "club")
        return _dump([r for r in data["routines"].values() if r["club_id"] == club_id and r["focus"] == focus])


class AssignRoutine(Tool):
    name = "assign_routine"
    writes = True
    description = "Add a routine of the member's home club to their training plan in the member app."
    parameters = arguments(member_id=_MEMBER, routine_id=string("The routine's id."))

    @staticmethod
    def invoke(data: Data, member_id: str, routine_id: str) -> str:
        member = _member(data, member_id)
        routine = _get(data, "routines", routine_id, "routine")
        if routine["club_id"] != member["home_club_id"]:
            raise Refusal("the routine is not in the member's home club library")
        for assignment in data["routine_assignments"].values():
            if (assignment["member_id"], assignment["routine_id"]) == (member_id, routine_id):
                raise Refusal("the routine is already in the member's plan")
        assignment_id = _new_id(data, "routine_assignments", "asg")
        record = {
            "assignment_id": assignment_id,
            "member_id": member_id,
            "routine_id": routine_id,
            "assigned_on": TODAY.isoformat(),
        }
        data["routine_assignments"][assignment_id] = record
        return _dump(record)


class GetActivityLog(Tool):
    name = "get_activity_log"
    description = "A member's logged activities (club check-ins and imported watch workouts), oldest first."
    parameters = arguments(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        _member(data, member_id)
        found = [a for a in data["activities"].values() if a["member_id"] == member_id]
        return _dump(sorted(found, key=lambda a: (a["date"], a["activity_id"])))


class ImportWorkout(Tool):
    name = "import_workout"
    writes = True
    description = "Import a workout from the member's watch into their activity log, by the share code it shows."
    parameters = arguments(member_id=_MEMBER, share_code=string("The code the member's watch shows, 'WK-XXXXXX'."))

    @staticmethod
    def invoke(data: Data, member_id: str, share_code: str) -> str:
        _member(data, member_id)
        code = share_code.strip().upper()
        watch = data["wearables"].get(member_id)
        workout = next((w for w in watch["workouts"] if w["share_code"] == code), None) if watch else None
        if workout is None:
            raise Refusal("no workout with that share code on the member's watch")
        activity_id = f"act-{code}"
        if activity_id in data["activities"]:
            raise Refusal("that workout is already in the activity log")
        record = {
            "activity_id": activity_id,
            "member_id": member_id,
            "date": workout["recorded"],
            "kind": workout["kind"],
            "minutes": workout["minutes"],
            "source": "watch",
        }
        data["activities"][activity_id] = record
        return _dump(record)


class SetWeeklyGoal(Tool):
    """Keeps the goal it replaces in the member's goal history: a goal set and then corrected is two changes."""

    name = "set_weekly_goal"
    writes = True
    description = "Set a member's weekly goal of active minutes."
    parameters = arguments(member_id=_MEMBER, minutes=integer("Active minutes per week."))

    @staticmethod
    def invoke(data: Data, member_id: str, minutes: int) -> str:
        member = _member(data, member_id)
        if minutes < 1:
            raise Refusal("a goal is at least one minute")
        member["goal_history"].append(member["weekly_goal_minutes"])
        member["weekly_goal_minutes"] = minutes
        return _dump({"member_id": member_id, "weekly_goal_minutes": minutes})


class FreezeMembership(Tool):
    """Records the freeze and charges the plan's monthly freeze fee for each month; the limits are the policy's."""

    name = "freeze_membership"
    writes = True
    description = (
        "Freeze a membership from the first day of a coming month for whole months; charges the plan's freeze fee"
        " per month and returns the date billing resumes."
    )
    parameters = arguments(
        member_id=_MEMBER, start_date=string("The first day of a coming month, YYYY-MM-DD."), months=integer("Months.")
    )

    @staticmethod
    def invoke(data: Data, member_id: str, start_date: str, months: int) -> str:
        member = _member(data, member_id)
        start = _day(start_date)
        if start.day != 1 or start <= TODAY:
            raise Refusal("a freeze starts on the first day of a coming month")
        if not 1 <= months <= 12:
            raise Refusal("a freeze lasts 1 to 12 months")
        if member["status"] != "active":
            raise Refusal(f"the membership is {member['status']}")
        freeze_id = _new_id(data, "freezes", "frz")
        resume = add_months(start, months).isoformat()
        data["freezes"][freeze_id] = {
            "freeze_id": freeze_id,
            "member_id": member_id,
            "start_date": start.isoformat(),
            "months": months,
            "resume_date": resume,
        }
        fee = data["plans"][member["plan_id"]]["freeze_fee_per_month"] * months
        if fee > 0:
            _charge(data, member_id, "freeze", fee)
        return _dump(data["freezes"][freeze_id])


class GetFreezeHistory(Tool):
    name = "get_freeze_history"
    description = "A member's freezes, past and planned: start date, months, and the date billing resumes."
    parameters = arguments(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        _member(data, member_id)
        found = [f for f in data["freezes"].values() if f["member_id"] == member_id]
        return _dump(sorted(found, key=lambda f: f["start_date"]))


class CancelMembership(Tool):
    """Records the notice as given: the agent computes the last day and the fee (policy section 9)."""

    name = "cancel_membership"
    writes = True
    description = "Give notice to end a membership: its last day and the early-termination fee to charge (0 when none)."
    parameters = arguments(
        member_id=_MEMBER,
        effective_date=string("The membership's last day, YYYY-MM-DD."),
        termination_fee=number("The early-termination fee in dollars."),
    )

    @staticmethod
    def invoke(data: Data, member_id: str, effective_date: str, termination_fee: float) -> str:
        member = _member(data, member_id)
        if member["status"] != "active":
            raise Refusal(f"the membership is {member['status']}")
        if _day(effective_date) <= TODAY or termination_fee < 0:
            raise Refusal("the last day must be in the future and the fee not negative")
        fee = round(float(termination_fee), 2)
        member["status"] = "cancelling"
        member["cancellation"] = {"effective_date": _day(effective_date).isoformat(), "termination_fee": fee}
        if fee > 0:
            _charge(data, member_id, "termination", fee)
        return _dump(member["cancellation"])


class ListGuestVisits(Tool):
    name = "list_guest_visits"
    description = "The guests a member has brought or booked in: name, date and whether on a guest pass or day pass."
    parameters = arguments(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        _member(data, member_id)
        found = [v for v in data["guest_visits"].values() if v["member_id"] == member_id]
        return _dump(sorted(found, key=lambda v: v["visit_date"]))


def _visit(data: Data, member_id: str, guest_name: str, visit_date: str, kind: str) -> dict[str, Any]:
    _member(data, member_id)
    day = _day(visit_date)
    if day < TODAY:
        raise Refusal("the visit date has passed")
    if not guest_name.strip():
        raise Refusal("the guest's name is required")
    visit_id = _new_id(data, "guest_visits", "gv")
    record = {
        "visit_id": visit_id,
        "member_id": member_id,
        "guest_name": _guest(guest_name),
        "visit_date": day.isoformat(),
        "kind": kind,
    }
    data["guest_visits"][visit_id] = record
    return record


class IssueGuestPass(Tool):
    name = "issue_guest_pass"
    writes = True
    description = "Issue one of the member's monthly guest passes for a named guest on a date (no charge)."
    parameters = arguments(member_id=_MEMBER, guest_name=string("The guest's full name."), visit_date=_DATE)

    @staticmethod
    def invoke(data: Data, member_id: str, guest_name: str, visit_date: str) -> str:
        return _dump(_visit(data, member_id, guest_name, visit_date, "guest_pass"))


class SellDayPass(Tool):
    name = "sell_day_pass"
    writes = True
    description = "Sell a day pass for a named guest on a date, charged to the member's account."
    parameters = arguments(member_id=_MEMBER, guest_name=string("The guest's full name."), visit_date=_DATE)

    @staticmethod
    def invoke(data: Data, member_id: str, guest_name: str, visit_date: str) -> str:
        record = _visit(data, member_id, guest_name, visit_date, "day_pass")
        _charge(data, member_id, "day_pass", DAY_PASS_PRICE)
        return _dump(record)


class TransferToHumanAgents(Tool):
    """Files the hand-off (a write), so the gold replays it; the conversation ends."""

    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the member to a staff member, with the member's id ('' if unknown) and the reason."
    parameters = arguments(member_id=string("The member's id, or ''."), reason=string("Why.", ESCALATION_REASONS))

    @staticmethod
    def invoke(data: Data, member_id: str, reason: str) -> str:
        escalation_id = _new_id(data, "escalations", "esc")
        data["escalations"][escalation_id] = {"escalation_id": escalation_id, "member_id": member_id, "reason": reason}
        return "Transfer successful."


AGENT_TOOLS: tuple[type[Tool], ...] = (
    FindMemberByEmail,
    VerifyMember,
    GetMemberProfile,
    GetPlan,
    ListClasses,
    GetMemberBookings,
    BookClass,
    CancelClassBooking,
    GetCharges,
    ListTrainers,
    ListTrainerSlots,
    BookTrainerSession,
    ListRoutines,
    AssignRoutine,
    GetActivityLog,
    ImportWorkout,
    SetWeeklyGoal,
    GetFreezeHistory,
    FreezeMembership,
    CancelMembership,
    ListGuestVisits,
    IssueGuestPass,
    SellDayPass,
    TransferToHumanAgents,
)
"""Every tool the agent holds, in the order its schema lists them."""
