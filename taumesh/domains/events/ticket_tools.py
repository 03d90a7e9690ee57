"""The agent's tools for an attendee's tickets.

Orders, events, refunds, class changes, accessibility, workshops and transfers.

Tools refuse what the data itself rules out (a sold-out class, a full session, a wrong code, a refunded order); the
policy's other rules (windows, refundability, transferability, deadlines) are the agent's to follow, as in τ-bench.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.events import clock
from taumesh.domains.events.access import dump, notify, record
from taumesh.domains.events.clock import NOW, OFFER_LIFETIME, money
from taumesh.domains.events.identity_tools import ATTENDEE
from taumesh.domains.events.schema import numeric, params, string

NEEDS = ["wheelchair_space", "step_free_route", "captioning", "sign_language"]
ORDER = string("The order's id, such as 'ord-w1-0042'.")
EVENT = string("The event's id, such as 'evt-w1-05'.")
TRANSFER = string("The transfer's id, such as 'trf-ord-w1-0042-1'.")


def _active_order(data: Data, order_id: str) -> Any:
    order = record(data, "orders", order_id, "order")
    if order["status"] != "active":
        raise Refusal(f"order {order_id} is {order['status']}")
    return order


class GetAttendeeOrders(Tool):
    name = "get_attendee_orders"
    description = "An attendee's orders: reference, event, ticket class, quantity, price paid each, status, needs."
    parameters = params(attendee_id=ATTENDEE)

    @staticmethod
    def invoke(data: Data, attendee_id: str) -> str:
        record(data, "attendees", attendee_id, "attendee")
        return dump([o for o in data["orders"].values() if o["attendee_id"] == attendee_id])


class GetEvent(Tool):
    name = "get_event"
    description = (
        "An event: title, start and end, status, its venue (city, capacity, step-free access) and its ticket"
        " classes (price, allocation, sold, refundable, transferable, includes workshops)."
    )
    parameters = params(event_id=EVENT)

    @staticmethod
    def invoke(data: Data, event_id: str) -> str:
        event = record(data, "events", event_id, "event")
        venue = data["venues"][event["venue_id"]]
        classes = [c for c in data["ticket_classes"].values() if c["event_id"] == event_id]
        place = {k: venue[k] for k in ("venue_id", "name", "city", "capacity", "step_free")}
        return dump({**event, "venue": place, "ticket_classes": classes})


class GetEventSessions(Tool):
    name = "get_event_sessions"
    description = "The sessions (talks and workshops) of a conference: speaker, room, times, seats and registrations."
    parameters = params(event_id=EVENT)

    @staticmethod
    def invoke(data: Data, event_id: str) -> str:
        record(data, "events", event_id, "event")
        return dump([s for s in data["sessions"].values() if s["event_id"] == event_id])


class GetTransfers(Tool):
    name = "get_transfers"
    description = "Ticket transfers an attendee sent (from their orders) or was offered (to their email)."
    parameters = params(attendee_id=ATTENDEE)

    @staticmethod
    def invoke(data: Data, attendee_id: str) -> str:
        attendee = record(data, "attendees", attendee_id, "attendee")
        email = attendee["email"].lower()
        found = [
            t for t in data["transfers"].values() if t["sender_id"] == attendee_id or t["recipient_email"] == email
        ]
        return dump(found)


class IssueRefund(Tool):
    name = "issue_refund"
    writes = True
    description = "Refund an order by the given amount to the card that paid; the order's tickets are cancelled."
    parameters = params(order_id=ORDER, amount=numeric("The amount refunded, in dollars."))

    @staticmethod
    def invoke(data: Data, order_id: str, amount: float) -> str:
        order = _active_order(data, order_id)
        paid = money(order["quantity"] * order["unit_price"] + sum(order["charges"]))
        if not 0 < amount <= paid:
            raise Refusal(f"a refund must be more than 0 and at most the {paid:.2f} paid")
        order["status"] = "refunded"
        data["ticket_classes"][order["class_id"]]["sold"] -= order["quantity"]
        refund = {"refund_id": f"rfd-{order_id}", "order_id": order_id, "amount": money(amount)}
        data["refunds"][refund["refund_id"]] = refund
        return dump(refund)


class ChangeTicketClass(Tool):
    name = "change_ticket_class"
    writes = True
    description = "Move every ticket of an order to another class of the same event, charging the given amount."
    parameters = params(
        order_id=ORDER,
        new_class_id=string("The class to move to, such as 'cls-w1-05-2'."),
        charge=numeric("What the attendee is charged for the change, in dollars (0 for none)."),
    )

    @staticmethod
    def invoke(data: Data, order_id: str, new_class_id: str, charge: float) -> str:
        order = _active_order(data, order_id)
        target = record(data, "ticket_classes", new_class_id, "ticket class")
        if target["event_id"] != order["event_id"] or new_class_id == order["class_id"]:
            raise Refusal("the new class must be another class of the order's event")
        if target["allocation"] - target["sold"] < order["quantity"]:
            raise Refusal(f"{target['name']} has fewer than {order['quantity']} tickets left")
        if charge < 0:
            raise Refusal("a charge cannot be negative")
        data["ticket_classes"][order["class_id"]]["sold"] -= order["quantity"]
        target["sold"] += order["quantity"]
        order["class_id"] = new_class_id
        order["unit_price"] = target["price"]
        order["charges"].append(money(charge))
        return dump(order)


class AddAccessibilityNeed(Tool):
    name = "add_accessibility_need"
    writes = True
    description = "Record an accessibility need on an order, so the venue arranges it for the order's tickets."
    parameters = params(order_id=ORDER, need=string("The need.", NEEDS))

    @staticmethod
    def invoke(data: Data, order_id: str, need: str) -> str:
        order = _active_order(data, order_id)
        if need not in NEEDS:
            raise Refusal(f"need must be one of {', '.join(NEEDS)}")
        if need in order["accessibility"]:
            raise Refusal(f"{need} is already recorded on this order")
        order["accessibility"].append(need)
        return dump(order)


class RegisterForSession(Tool):
    name = "register_for_session"
    writes = True
    description = "Register every ticket of an order for a session of its conference."
    parameters = params(order_id=ORDER, session_id=string("The session's id, such as 'ses-w1-03-4'."))

    @staticmethod
    def invoke(data: Data, order_id: str, session_id: str) -> str:
        order = _active_order(data, order_id)
        session = record(data, "sessions", session_id, "session")
        if session["event_id"] != order["event_id"]:
            raise Refusal("the session is not part of the order's event")
        if order_id in session["registered_orders"]:
            raise Refusal("the order is already registered for this session")
        if session["seats_taken"] + order["quantity"] > session["capacity"]:
            raise Refusal("the session has too few seats left")
        session["registered_orders"].append(order_id)
        session["seats_taken"] += order["quantity"]
        return dump(session)


class StartTicketTransfer(Tool):
    name = "start_ticket_transfer"
    writes = True
    description = (
        "Start transferring every ticket of an order to someone else's email. A release code is shown in the"
        " holder's ticket app; the transfer goes out only once released with it (release_ticket_transfer)."
    )
    parameters = params(order_id=ORDER, recipient_email=string("The recipient's email address."))

    @staticmethod
    def invoke(data: Data, order_id: str, recipient_email: str) -> str:
        order = _active_order(data, order_id)
        if any(t["order_id"] == order_id and t["status"] != "accepted" for t in data["transfers"].values()):
            raise Refusal("a transfer of this order is already open")
        transfer_id = f"trf-{order_id}-{order['transfers_made'] + 1}"
        transfer = {
            "transfer_id": transfer_id,
            "order_id": order_id,
            "sender_id": order["attendee_id"],
            "recipient_email": recipient_email.strip().lower(),
            "status": "awaiting_release",
            "offer_expires": None,
            "reissues": 0,
        }
        data["transfers"][transfer_id] = transfer
        code = clock.release_code(transfer_id)
        notify(data, order["attendee_id"], "release_code", f"Release code for transfer {transfer_id}: {code}.")
        return dump(transfer)


def _offer(data: Data, transfer: Any) -> None:
    transfer["status"] = "offered"
    transfer["offer_expires"] = (NOW + OFFER_LIFETIME).isoformat(timespec="minutes")
    for attendee in data["attendees"].values():
        if attendee["email"].lower() == transfer["recipient_email"]:
            text = f"Tickets offered to you: transfer {transfer['transfer_id']}, accept by {transfer['offer_expires']}."
            notify(data, attendee["attendee_id"], "transfer_offer", text)


class ReleaseTicketTransfer(Tool):
    name = "release_ticket_transfer"
    writes = True
    description = (
        "Release a started transfer with the code the holder reads from their app; the recipient is offered it."
    )
    parameters = params(transfer_id=TRANSFER, release_code=string("The six digits the holder read."))

    @staticmethod
    def invoke(data: Data, transfer_id: str, release_code: str) -> str:
        transfer = record(data, "transfers", transfer_id, "transfer")
        if transfer["status"] != "awaiting_release":
            raise Refusal(f"transfer {transfer_id} is {transfer['status']}")
        if release_code.strip() != clock.release_code(transfer_id):
            raise Refusal("the release code does not match")
        _offer(data, transfer)
        return dump(transfer)


class ReissueTransferOffer(Tool):
    name = "reissue_transfer_offer"
    writes = True
    description = "Offer a transfer to its recipient again, for another 72 hours (an offer not yet accepted)."
    parameters = params(transfer_id=TRANSFER)

    @staticmethod
    def invoke(data: Data, transfer_id: str) -> str:
        transfer = record(data, "transfers", transfer_id, "transfer")
        if transfer["status"] != "offered":
            raise Refusal(f"transfer {transfer_id} is {transfer['status']}")
        _active_order(data, transfer["order_id"])
        transfer["reissues"] += 1
        _offer(data, transfer)
        return dump(transfer)


TICKET_TOOLS: tuple[type[Tool], ...] = (
    GetAttendeeOrders,
    GetEvent,
    GetEventSessions,
    GetTransfers,
    IssueRefund,
    ChangeTicketClass,
    AddAccessibilityNeed,
    RegisterForSession,
    StartTicketTransfer,
    ReleaseTicketTransfer,
    ReissueTransferOffer,
)
