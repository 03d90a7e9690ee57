"""The desk's customer tools: ground-station bookings, their cancellation, and imaging requests.

Tools refuse what the data rules out (a pass already taken, a date already past); the policy's rules (which passes
may be booked, which bookings cancelled, which spacecraft tasked) are the agent's to follow, as in τ-bench, so that
a trap's forbidden write is possible and the agent must decline it. Each write leaves its trace: a released booking
keeps its charge, an imaging request adds to the month's used area.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.space.clock import TODAY, booking_cost, cancellation_charge, day, overage
from taumesh.domains.space.records import dump, fetch, new_id, number, params, text

_PASS = text("The pass's id, such as 'ps-w1-041'.")


def target_name(target: str) -> str:
    """A target as the request records it: lower case, without a leading article.

    So "the Rhine delta" and "Rhine Delta" name one place, as the customer meant.
    """
    words = target.strip().lower().split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


class BookPass(Tool):
    name = "book_pass"
    writes = True
    description = "Book an open pass for its spacecraft's owner; the booking costs its minutes at the station's rate."
    parameters = params(pass_id=_PASS)

    @staticmethod
    def invoke(data: Data, pass_id: str) -> str:
        found = fetch(data, "passes", pass_id, "pass")
        if found["status"] != "open":
            raise Refusal(f"the pass is {found['status']}, not open")
        if day(found["date"]) <= TODAY:
            raise Refusal("passes are booked for a date after today")
        rate = data["ground_stations"][found["station_id"]]["rate_per_min"]
        found.update(status="booked", booking_cost=booking_cost(found["duration_min"], rate))
        return dump(found)


class CancelBooking(Tool):
    name = "cancel_booking"
    writes = True
    description = "Release a booked pass; the booking records the cancellation charge its date calls for."
    parameters = params(pass_id=_PASS)

    @staticmethod
    def invoke(data: Data, pass_id: str) -> str:
        found = fetch(data, "passes", pass_id, "pass")
        if found["status"] != "booked":
            raise Refusal("the pass is not booked")
        charge = cancellation_charge(found["booking_cost"], found["date"])
        found.update(status="released", cancellation_charge=charge)
        return dump(found)


class CreateImagingRequest(Tool):
    name = "create_imaging_request"
    writes = True
    description = (
        "Task a spacecraft to image a target area on a date; the area counts against its owner's monthly quota and"
        " any part beyond it is charged at the contract's overage rate."
    )
    parameters = params(
        spacecraft_id=text("The spacecraft's id."),
        target=text("The target's name, as the customer gives it."),
        area_km2=number("The area to image, in square kilometres."),
        date=text("YYYY-MM-DD, after today."),
    )

    @staticmethod
    def invoke(data: Data, spacecraft_id: str, target: str, area_km2: float, date: str) -> str:
        craft = fetch(data, "spacecraft", spacecraft_id, "spacecraft")
        try:
            when = day(date.strip())
        except ValueError:
            raise Refusal(f"{date!r} is not a date (YYYY-MM-DD)") from None
        if when <= TODAY:
            raise Refusal("imaging is requested for a date after today")
        if area_km2 <= 0:
            raise Refusal("the area must be positive")
        account = data["customers"][craft["customer_id"]]
        charge = overage(account["used_km2"], account["quota_km2"], area_km2, account["overage_per_km2"])
        account["used_km2"] = round(account["used_km2"] + area_km2, 2)
        request_id = new_id(data, "imaging_requests", "img")
        request = {
            "request_id": request_id,
            "spacecraft_id": spacecraft_id,
            "target": target_name(target),
            "area_km2": float(area_km2),
            "date": when.isoformat(),
            "charge": charge,
        }
        data["imaging_requests"][request_id] = request
        return dump(request)


BOOKING_TOOLS: tuple[type[Tool], ...] = (BookPass, CancelBooking, CreateImagingRequest)
