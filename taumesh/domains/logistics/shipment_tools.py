"""The desk's writes on a shipment, asked by its shipper or consignee.

Windows, redirects, safe places, claims, pickups, cancellations and redeliveries. A tool refuses what the data rules
out (an unknown id, a delivered parcel, a reference the client's app never gave); the policy's rules (who may ask,
weekdays, limits, deadlines) are the agent's to follow, as in τ-bench, so that a trap's forbidden write is possible
and the agent must decline it. Fees are the clock's rules, charged by the tool.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.logistics import clock
from taumesh.domains.logistics.clock import TODAY, carrier_price, share_of
from taumesh.domains.logistics.lookup_tools import SHIPMENT
from taumesh.domains.logistics.records import dump, fetch, new_id, valid_date
from taumesh.domains.logistics.schema import number, params, text

SLOTS = ["morning", "afternoon"]
SAFE_PLACES = ["front_porch", "back_door", "garage", "porch_box", "building_reception"]
CANCEL_REASONS = ["order_cancelled", "wrong_details", "duplicate_booking"]
_CLOSED = ("delivered", "cancelled")


def _open_shipment(data: Data, shipment_id: str) -> Any:
    shipment = fetch(data, "shipments", shipment_id, "shipment")
    if shipment["status"] in _CLOSED:
        raise Refusal(f"the shipment is {shipment['status']}")
    return shipment


def _future(value: str) -> str:
    if valid_date(value) <= TODAY.isoformat():
        raise Refusal("the date must be after today")
    return value


def _slot(value: str) -> str:
    if value not in SLOTS:
        raise Refusal(f"slot must be one of {SLOTS}")
    return value


class ChangeDeliveryWindow(Tool):
    name = "change_delivery_window"
    writes = True
    description = "Move a shipment's delivery to another date and slot; the earlier window is kept in its history."
    parameters = params(shipment_id=SHIPMENT, delivery_date=text("YYYY-MM-DD."), slot=text("Part of the day.", SLOTS))

    @staticmethod
    def invoke(data: Data, shipment_id: str, delivery_date: str, slot: str) -> str:
        shipment = _open_shipment(data, shipment_id)
        window = {"date": _future(delivery_date), "slot": _slot(slot)}
        shipment["window_history"].append(shipment["delivery"])
        shipment["delivery"] = window
        return dump({k: shipment[k] for k in ("shipment_id", "delivery", "window_history")})


class RedirectToDepot(Tool):
    name = "redirect_to_depot"
    writes = True
    description = (
        "Hold a shipment for collection at a depot instead of delivering it; the redirect fee is charged to the"
        " shipment."
    )
    parameters = params(shipment_id=SHIPMENT, depot_id=text("The collection depot's id."))

    @staticmethod
    def invoke(data: Data, shipment_id: str, depot_id: str) -> str:
        shipment = _open_shipment(data, shipment_id)
        fetch(data, "depots", depot_id, "depot")
        fee = share_of(shipment["price"], clock.REDIRECT_FEE_SHARE)
        shipment["redirected_to"] = depot_id
        shipment["charges"].append({"kind": "redirect", "amount": fee})
        return dump({"shipment_id": shipment_id, "redirected_to": depot_id, "fee": fee})


class SetSafePlace(Tool):
    name = "set_safe_place"
    writes = True
    description = (
        "Authorise the driver to leave a shipment at a safe place, with the reference the consignee's tracking app"
        " gave that choice."
    )
    parameters = params(
        shipment_id=SHIPMENT,
        place=text("Where the parcel may be left.", SAFE_PLACES),
        authorisation=text("The app's reference, such as 'SP-1A2B3C'."),
    )

    @staticmethod
    def invoke(data: Data, shipment_id: str, place: str, authorisation: str) -> str:
        shipment = _open_shipment(data, shipment_id)
        if place not in SAFE_PLACES:
            raise Refusal(f"place must be one of {SAFE_PLACES}")
        if authorisation.strip() != clock.safe_place_reference(shipment_id, place):
            raise Refusal("the consignee's app gave no such reference for this place")
        shipment["safe_place"] = place
        return dump({"shipment_id": shipment_id, "safe_place": place})


class FileDamageClaim(Tool):
    name = "file_damage_claim"
    writes = True
    description = (
        "File a damage claim on a delivered shipment for an amount, with the reference of the photos the client"
        " uploaded in their tracking app."
    )
    parameters = params(
        shipment_id=SHIPMENT,
        amount=number("The compensation in dollars."),
        photo_reference=text("The app's reference, such as 'PH-1A2B3C'."),
    )

    @staticmethod
    def invoke(data: Data, shipment_id: str, amount: float, photo_reference: str) -> str:
        shipment = fetch(data, "shipments", shipment_id, "shipment")
        if shipment["status"] != "delivered":
            raise Refusal("only a delivered shipment can be claimed on")
        if amount <= 0:
            raise Refusal("the amount must be positive")
        if photo_reference.strip() != clock.photo_reference(shipment_id):
            raise Refusal("no photos with that reference were uploaded for this shipment")
        claim_id = new_id(data, "claims", "claim")
        claim = {
            "claim_id": claim_id,
            "shipment_id": shipment_id,
            "client_id": shipment["consignee_id"],
            "amount": round(float(amount), 2),
            "photo_reference": photo_reference.strip(),
            "filed": TODAY.isoformat(),
        }
        data["claims"][claim_id] = claim
        return dump(claim)


class BookPickup(Tool):
    name = "book_pickup"
    writes = True
    description = "Book a carrier to collect a shipment on a date; the shipment's price is the carrier's tariff."
    parameters = params(shipment_id=SHIPMENT, carrier_id=text("The carrier's id."), pickup_date=text("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, shipment_id: str, carrier_id: str, pickup_date: str) -> str:
        shipment = fetch(data, "shipments", shipment_id, "shipment")
        if shipment["status"] != "awaiting_pickup":
            raise Refusal("the shipment has been collected or cancelled")
        carrier = fetch(data, "carriers", carrier_id, "carrier")
        _future(pickup_date)
        price = carrier_price(
            carrier["base_fee"],
            carrier["per_kg"],
            carrier["express_surcharge"],
            shipment["weight_kg"],
            shipment["service"] == "express",
        )
        shipment.update(carrier_id=carrier_id, pickup_date=pickup_date, price=price)
        shipment["booking_history"].append({"carrier_id": carrier_id, "pickup_date": pickup_date})
        return dump({k: shipment[k] for k in ("shipment_id", "carrier_id", "pickup_date", "price")})


class CancelShipment(Tool):
    name = "cancel_shipment"
    writes = True
    description = (
        "Cancel a shipment and refund its price, less the late-cancellation share when the pickup is tomorrow or"
        " earlier."
    )
    parameters = params(shipment_id=SHIPMENT, reason=text("Why it is cancelled.", CANCEL_REASONS))

    @staticmethod
    def invoke(data: Data, shipment_id: str, reason: str) -> str:
        shipment = _open_shipment(data, shipment_id)
        if reason not in CANCEL_REASONS:
            raise Refusal(f"reason must be one of {CANCEL_REASONS}")
        if shipment["price"] is None:
            raise Refusal("the shipment has no booking to cancel")
        late = shipment["pickup_date"] <= clock.days_after(TODAY, 1)
        refund = round(shipment["price"] - (share_of(shipment["price"], clock.LATE_CANCEL_SHARE) if late else 0.0), 2)
        shipment["status"] = "cancelled"
        shipment["charges"].append({"kind": "cancellation_refund", "amount": refund})
        return dump({"shipment_id": shipment_id, "status": "cancelled", "reason": reason, "refund": refund})


class ScheduleRedelivery(Tool):
    name = "schedule_redelivery"
    writes = True
    description = (
        "Book another delivery attempt after a failed one, on a date and slot; a second redelivery is charged."
    )
    parameters = params(shipment_id=SHIPMENT, delivery_date=text("YYYY-MM-DD."), slot=text("Part of the day.", SLOTS))

    @staticmethod
    def invoke(data: Data, shipment_id: str, delivery_date: str, slot: str) -> str:
        shipment = fetch(data, "shipments", shipment_id, "shipment")
        if shipment["status"] != "failed_attempt":
            raise Refusal("no failed delivery attempt is waiting for a redelivery")
        window = {"date": _future(delivery_date), "slot": _slot(slot)}
        shipment["window_history"].append(shipment["delivery"])
        shipment.update(delivery=window, status="at_depot")
        if shipment["failed_attempts"] >= 2:
            fee = share_of(shipment["price"], clock.REDELIVERY_FEE_SHARE)
            shipment["charges"].append({"kind": "redelivery", "amount": fee})
        return dump({k: shipment[k] for k in ("shipment_id", "delivery", "charges")})


SHIPMENT_TOOLS: tuple[type[Tool], ...] = (
    ChangeDeliveryWindow,
    RedirectToDepot,
    SetSafePlace,
    FileDamageClaim,
    BookPickup,
    CancelShipment,
    ScheduleRedelivery,
)
