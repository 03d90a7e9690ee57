"""The agent's tools: the agency's client records, listings, showing calendar, offers, documents and rentals.

A tool refuses what the data itself rules out (a booked window, an offer in the wrong state, a file never uploaded);
the policy's other rules (notice, pre-approval, disclosures, deadlines, who may see a document) are the agent's to
follow, as in τ-bench, so that a trap's forbidden write is possible and the grader, not the tool, catches it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.real_estate.clock import NOW, TODAY
from taumesh.domains.real_estate.records import dump, fetch, new_id, notify, owned
from taumesh.domains.real_estate.schema import integer, number, params, string

CLIENT = string("The client's id, such as 'cli-w1-004'.")
LISTING = string("The listing's id, such as 'lst-w1-012'.")
DOCUMENT = string("The document's id.")
DISCLOSURES = ("seller_disclosure", "lead_paint_disclosure")
"""Documents a buyer acknowledges by signing in their portal (policy 9.3)."""
REJECTION_REASONS = ["expired", "illegible", "wrong_person"]
HANDOFF_REASONS = ["contract_dispute", "legal_question", "complaint", "out_of_scope"]
INSPECTION_DAYS = 10
"""An accepted counter-offer's inspection contingency runs this many days."""


class FindClient(Tool):
    name = "find_client"
    description = "Find a client's id by first name, last name and the email address on file."
    parameters = params(first_name=string("First name."), last_name=string("Last name."), email=string("Email."))

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, email: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), email.strip().lower())
        for client in data["clients"].values():
            if (client["first_name"].lower(), client["last_name"].lower(), client["email"].lower()) == wanted:
                return str(client["client_id"])
        raise Refusal("no client with that name and email")


class VerifyClient(Tool):
    """Records the verification: the policy's later steps are allowed only after it (policy 2.2)."""

    name = "verify_client"
    writes = True
    description = "Verify the caller is the client: their home postcode and the last four digits of their phone."
    parameters = params(client_id=CLIENT, postcode=string("Five digits."), phone_last_four=string("Four digits."))

    @staticmethod
    def invoke(data: Data, client_id: str, postcode: str, phone_last_four: str) -> str:
        client = fetch(data, "clients", client_id, "client")
        last_four = phone_last_four.strip()
        if client["postcode"] != postcode.strip() or len(last_four) != 4 or not client["phone"].endswith(last_four):
            raise Refusal("the details do not match the client's record")
        data["verifications"][client_id] = {"client_id": client_id, "verified": True}
        return "verified"


class GetClientProfile(Tool):
    name = "get_client_profile"
    description = (
        "The client's record: role (buyer or renter), agent, adults in the household, pets, the verified"
        " pre-approval (lender, amount, expiry) and verified monthly income."
    )
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        return dump(fetch(data, "clients", client_id, "client"))


class SearchListings(Tool):
    name = "search_listings"
    description = "Listings whose street address or neighborhood contains the text: id, address, kind, status, price."
    parameters = params(text=string("Part of the address or the neighborhood, such as '14 Alder'."))

    @staticmethod
    def invoke(data: Data, text: str) -> str:
        wanted = text.strip().lower()
        if len(wanted) < 3:
            raise Refusal("give at least three characters of the address or neighborhood")
        found = [
            {key: listing[key] for key in ("listing_id", "address", "neighborhood", "kind", "status", "price")}
            for listing in data["listings"].values()
            if wanted in listing["address"].lower() or wanted in listing["neighborhood"].lower()
        ]
        return dump(found)


class GetListing(Tool):
    name = "get_listing"
    description = (
        "A listing's details and rules: price (or monthly rent), status, HOA dues, property tax, year built,"
        " whether it is occupied, whether tours need a pre-approval, whether pets are allowed, its listing agent."
    )
    parameters = params(listing_id=LISTING)

    @staticmethod
    def invoke(data: Data, listing_id: str) -> str:
        return dump(fetch(data, "listings", listing_id, "listing"))


class ListShowingSlots(Tool):
    name = "list_showing_slots"
    description = "A listing's open showing windows on a date (YYYY-MM-DD), earliest first."
    parameters = params(listing_id=LISTING, date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, listing_id: str, date: str) -> str:
        fetch(data, "listings", listing_id, "listing")
        slots = [
            slot
            for slot in data["showings"].values()
            if slot["listing_id"] == listing_id and slot["start"][:10] == date.strip() and slot["status"] == "open"
        ]
        return dump(sorted(slots, key=lambda slot: slot["start"]))


class GetClientTours(Tool):
    name = "get_client_tours"
    description = "The client's tours: id, listing, showing window, start and status."
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        return dump(owned(data, "tours", client_id))


class GetClientOffers(Tool):
    name = "get_client_offers"
    description = (
        "The client's offers: amount, earnest money, status, the seller's counter (amount and expiry date) and,"
        " once accepted, the inspection contingency's deadline."
    )
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        return dump(owned(data, "offers", client_id))


class ListListingDocuments(Tool):
    name = "list_listing_documents"
    description = "A listing's documents (floor plan, HOA bylaws, disclosures, inspection report): id, kind, title."
    parameters = params(listing_id=LISTING)

    @staticmethod
    def invoke(data: Data, listing_id: str) -> str:
        fetch(data, "listings", listing_id, "listing")
        found = [
            {key: doc[key] for key in ("document_id", "kind", "title", "shared_with")}
            for doc in data["documents"].values()
            if doc["listing_id"] == listing_id
        ]
        return dump(found)


class ListClientDocuments(Tool):
    name = "list_client_documents"
    description = (
        "What the client gave the agency (uploaded letters and pay stubs, with their status) and the disclosures"
        " sent to their portal for signature (with whether they signed)."
    )
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        uploads = owned(data, "documents", client_id)
        signatures = owned(data, "signatures", client_id)
        return dump({"uploads": uploads, "signatures": signatures})


class Calculate(Tool):
    name = "calculate"
    description = "Evaluate an arithmetic expression (numbers, + - * / and parentheses), such as '2 * 2150 + 400'."
    parameters = params(expression=string("The expression."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not set(expression) <= set("0123456789.+-*/() "):
            raise Refusal("only numbers, + - * / and parentheses")
        check_powers(expression)
        try:
            return str(round(float(eval(expression, {"__builtins__": {}}, {})), 2))  # noqa: S307 - characters checked
        except (SyntaxError, ZeroDivisionError) as exc:
            raise Refusal(f"cannot evaluate: {exc}") from exc


class BookTour(Tool):
    name = "book_tour"
    writes = True
    description = "Book an open showing window for the client; the listing agent is notified."
    parameters = params(client_id=CLIENT, slot_id=string("The showing window's id."))

    @staticmethod
    def invoke(data: Data, client_id: str, slot_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        slot = fetch(data, "showings", slot_id, "showing window")
        if slot["status"] != "open":
            raise Refusal("that showing window is already booked")
        slot["status"] = "booked"
        tour_id = new_id(data, "tours", "tour", client_id)
        tour = {
            "tour_id": tour_id,
            "client_id": client_id,
            "listing_id": slot["listing_id"],
            "slot_id": slot_id,
            "start": slot["start"],
            "status": "scheduled",
        }
        data["tours"][tour_id] = tour
        listing = data["listings"][slot["listing_id"]]
        notify(data, listing["listing_agent_id"], "tour_booked", listing["listing_id"], client_id)
        return dump(tour)


def _scheduled(data: Data, tour_id: str) -> Any:
    tour = fetch(data, "tours", tour_id, "tour")
    if tour["status"] != "scheduled":
        raise Refusal(f"the tour is {tour['status']}")
    return tour


class RescheduleTour(Tool):
    name = "reschedule_tour"
    writes = True
    description = "Move a scheduled tour to another open window of the same listing; the listing agent is notified."
    parameters = params(tour_id=string("The tour's id."), new_slot_id=string("The new showing window's id."))

    @staticmethod
    def invoke(data: Data, tour_id: str, new_slot_id: str) -> str:
        tour = _scheduled(data, tour_id)
        slot = fetch(data, "showings", new_slot_id, "showing window")
        if slot["listing_id"] != tour["listing_id"] or slot["status"] != "open":
            raise Refusal("the new window must be an open window of the same listing")
        data["showings"][str(tour["slot_id"])]["status"] = "open"
        slot["status"] = "booked"
        tour.update(slot_id=new_slot_id, start=slot["start"])
        listing = data["listings"][str(tour["listing_id"])]
        notify(data, listing["listing_agent_id"], "tour_moved", listing["listing_id"], str(tour["client_id"]))
        return dump(tour)


class CancelTour(Tool):
    name = "cancel_tour"
    writes = True
    description = "Cancel a scheduled tour and free its window; the listing agent is notified."
    parameters = params(tour_id=string("The tour's id."))

    @staticmethod
    def invoke(data: Data, tour_id: str) -> str:
        tour = _scheduled(data, tour_id)
        data["showings"][str(tour["slot_id"])]["status"] = "open"
        tour["status"] = "cancelled"
        listing = data["listings"][str(tour["listing_id"])]
        notify(data, listing["listing_agent_id"], "tour_cancelled", listing["listing_id"], str(tour["client_id"]))
        return dump(tour)


class SubmitOffer(Tool):
    name = "submit_offer"
    writes = True
    description = "Submit the client's offer on a listing for sale, with its earnest money deposit, to the seller."
    parameters = params(
        client_id=CLIENT,
        listing_id=LISTING,
        amount=integer("The offer price in whole dollars."),
        earnest_money=integer("The earnest money deposit in whole dollars."),
    )

    @staticmethod
    def invoke(data: Data, client_id: str, listing_id: str, amount: int, earnest_money: int) -> str:
        fetch(data, "clients", client_id, "client")
        listing = fetch(data, "listings", listing_id, "listing")
        if listing["kind"] != "sale":
            raise Refusal("offers are made on listings for sale only")
        if amount <= 0 or earnest_money <= 0:
            raise Refusal("the amount and the earnest money must be positive")
        offer_id = new_id(data, "offers", "ofr", client_id)
        offer = {
            "offer_id": offer_id,
            "client_id": client_id,
            "listing_id": listing_id,
            "amount": amount,
            "earnest_money": earnest_money,
            "status": "submitted",
            "submitted_on": TODAY,
            "counter_amount": None,
            "counter_expires": None,
            "inspection_deadline": None,
        }
        data["offers"][offer_id] = offer
        notify(data, listing["listing_agent_id"], "offer_submitted", listing_id, client_id)
        return dump(offer)


class AcceptCounterOffer(Tool):
    name = "accept_counter_offer"
    writes = True
    description = (
        "Accept the seller's counter-offer on the client's offer: the offer becomes accepted at the counter's price,"
        " the listing goes under contract and the inspection contingency starts."
    )
    parameters = params(offer_id=string("The offer's id."))

    @staticmethod
    def invoke(data: Data, offer_id: str) -> str:
        offer = fetch(data, "offers", offer_id, "offer")
        if offer["status"] != "countered":
            raise Refusal(f"the offer is {offer['status']}, not countered")
        deadline = (NOW + timedelta(days=INSPECTION_DAYS)).date().isoformat()
        offer.update(status="accepted", amount=offer["counter_amount"], inspection_deadline=deadline)
        listing = data["listings"][offer["listing_id"]]
        listing["status"] = "under_contract"
        notify(data, listing["listing_agent_id"], "counter_accepted", listing["listing_id"], offer["client_id"])
        return dump(offer)


class WithdrawOffer(Tool):
    name = "withdraw_offer"
    writes = True
    description = "Withdraw the client's offer; answers the earnest money refunded. The listing agent is notified."
    parameters = params(offer_id=string("The offer's id."))

    @staticmethod
    def invoke(data: Data, offer_id: str) -> str:
        offer = fetch(data, "offers", offer_id, "offer")
        if offer["status"] not in ("submitted", "countered", "accepted"):
            raise Refusal(f"the offer is {offer['status']}")
        if offer["status"] == "accepted":
            data["listings"][offer["listing_id"]]["status"] = "active"
        offer["status"] = "withdrawn"
        listing = data["listings"][offer["listing_id"]]
        notify(data, listing["listing_agent_id"], "offer_withdrawn", listing["listing_id"], offer["client_id"])
        return dump({"offer_id": offer_id, "status": "withdrawn", "earnest_money_refund": offer["earnest_money"]})


class ShareDocument(Tool):
    name = "share_document"
    writes = True
    description = "Share one of a listing's documents to the client's portal."
    parameters = params(client_id=CLIENT, document_id=DOCUMENT)

    @staticmethod
    def invoke(data: Data, client_id: str, document_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        document = fetch(data, "documents", document_id, "document")
        if document["listing_id"] is None:
            raise Refusal("only a listing's documents are shared")
        if client_id in document["shared_with"]:
            raise Refusal("already shared with this client")
        document["shared_with"].append(client_id)
        return f"{document['title']} is now in the client's portal."


class SendForSignature(Tool):
    name = "send_for_signature"
    writes = True
    description = "Send a disclosure to the client's portal, where they acknowledge it by signing."
    parameters = params(client_id=CLIENT, document_id=DOCUMENT)

    @staticmethod
    def invoke(data: Data, client_id: str, document_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        document = fetch(data, "documents", document_id, "document")
        if document["kind"] not in DISCLOSURES:
            raise Refusal("only disclosures are sent for signature")
        if any(s["document_id"] == document_id for s in owned(data, "signatures", client_id)):
            raise Refusal("already sent to this client")
        signature_id = new_id(data, "signatures", "sig", client_id)
        data["signatures"][signature_id] = {
            "signature_id": signature_id,
            "document_id": document_id,
            "client_id": client_id,
            "status": "awaiting",
        }
        return f"{document['title']} is waiting for the client's signature in their portal."


def _received(data: Data, document_id: str) -> Any:
    document = fetch(data, "documents", document_id, "document")
    if document["client_id"] is None or document["status"] != "received":
        raise Refusal("only a client's upload that is not yet reviewed can be verified or rejected")
    return document


class VerifyDocument(Tool):
    name = "verify_document"
    writes = True
    description = (
        "Accept a client's uploaded pre-approval letter or pay stub: it goes on the client's record as their"
        " pre-approval or verified monthly income."
    )
    parameters = params(document_id=DOCUMENT)

    @staticmethod
    def invoke(data: Data, document_id: str) -> str:
        document = _received(data, document_id)
        client = data["clients"][str(document["client_id"])]
        if document["kind"] == "pre_approval_letter":
            client["pre_approval"] = {
                "document_id": document_id,
                "lender": document["lender"],
                "amount": document["amount"],
                "expires": document["expires"],
            }
        else:
            client["verified_monthly_income"] = document["monthly_income"]
        document["status"] = "verified"
        return dump(client)


class RejectDocument(Tool):
    name = "reject_document"
    writes = True
    description = "Reject a client's uploaded document, with the reason, so that they can send another."
    parameters = params(document_id=DOCUMENT, reason=string("Why.", REJECTION_REASONS))

    @staticmethod
    def invoke(data: Data, document_id: str, reason: str) -> str:
        if reason not in REJECTION_REASONS:
            raise Refusal(f"reason must be one of {', '.join(REJECTION_REASONS)}")
        document = _received(data, document_id)
        document.update(status="rejected", rejection_reason=reason)
        return dump(document)


class SubmitRentalApplication(Tool):
    name = "submit_rental_application"
    writes = True
    description = "Submit the client's application for a rental listing and charge its application fee (dollars)."
    parameters = params(client_id=CLIENT, listing_id=LISTING, application_fee=number("The fee charged, in dollars."))

    @staticmethod
    def invoke(data: Data, client_id: str, listing_id: str, application_fee: float) -> str:
        listing = fetch(data, "listings", listing_id, "listing")
        if listing["kind"] != "rent":
            raise Refusal("applications are for rental listings")
        if any(a["listing_id"] == listing_id for a in owned(data, "applications", client_id)):
            raise Refusal("the client has already applied for this listing")
        application_id = new_id(data, "applications", "app", client_id)
        application = {
            "application_id": application_id,
            "client_id": client_id,
            "listing_id": listing_id,
            "application_fee": float(application_fee),
            "status": "submitted",
        }
        data["applications"][application_id] = application
        notify(data, listing["listing_agent_id"], "application_submitted", listing_id, client_id)
        return dump(application)


class SendListingSummary(Tool):
    name = "send_listing_summary"
    writes = True
    description = "Email the client a listing's summary sheet (details, photos, costs)."
    parameters = params(client_id=CLIENT, listing_id=LISTING)

    @staticmethod
    def invoke(data: Data, client_id: str, listing_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        fetch(data, "listings", listing_id, "listing")
        notify(data, client_id, "listing_summary", listing_id, client_id)
        return "sent"


class TransferToHumanAgents(Tool):
    """A write: it files the hand-off the human agent picks up, which the grader checks."""

    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the conversation to a human agent of the agency, with the client's id and the reason."
    parameters = params(client_id=CLIENT, reason=string("Why.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, client_id: str, reason: str) -> str:
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {', '.join(HANDOFF_REASONS)}")
        fetch(data, "clients", client_id, "client")
        handoff_id = new_id(data, "handoffs", "hnd", client_id)
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "client_id": client_id, "reason": reason}
        return "Transfer successful"


AGENT_TOOLS: tuple[type[Tool], ...] = (
    FindClient,
    VerifyClient,
    GetClientProfile,
    SearchListings,
    GetListing,
    ListShowingSlots,
    GetClientTours,
    GetClientOffers,
    ListListingDocuments,
    ListClientDocuments,
    Calculate,
    BookTour,
    RescheduleTour,
    CancelTour,
    SubmitOffer,
    AcceptCounterOffer,
    WithdrawOffer,
    ShareDocument,
    SendForSignature,
    VerifyDocument,
    RejectDocument,
    SubmitRentalApplication,
    SendListingSummary,
    TransferToHumanAgents,
)
