"""Finding and verifying who calls.

An attendee is verified by booking reference and postcode, or by the sign-in code their app shows (a code of the day,
which nobody sends: trying it changes nothing); an organiser by their passphrase. A verification is recorded, so each
verifying tool is a write.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.events.access import dump, record
from taumesh.domains.events.clock import sign_in_code
from taumesh.domains.events.schema import params, string

ATTENDEE = string("The attendee's id, such as 'att-w1-007'.")
ORGANISER = string("The organiser's id, such as 'org-w1-02'.")


def _verified(data: Data, person_id: str, method: str) -> str:
    data["verifications"][person_id] = {"person_id": person_id, "method": method, "verified": True}
    return dump(data["verifications"][person_id])


class FindAttendee(Tool):
    name = "find_attendee"
    description = "Find an attendee's id by the email address of their box office account."
    parameters = params(email=string("The account's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for attendee in data["attendees"].values():
            if attendee["email"].lower() == email.strip().lower():
                return str(attendee["attendee_id"])
        raise Refusal("no attendee has that email")


class VerifyBookingHolder(Tool):
    name = "verify_booking_holder"
    writes = True
    description = (
        "Verify the caller holds the account: the booking reference of one of its orders and the account's postcode."
    )
    parameters = params(
        attendee_id=ATTENDEE,
        booking_reference=string("A booking reference of one of the attendee's orders, such as 'HB4K7Q'."),
        postcode=string("The postcode on the account."),
    )

    @staticmethod
    def invoke(data: Data, attendee_id: str, booking_reference: str, postcode: str) -> str:
        attendee = record(data, "attendees", attendee_id, "attendee")
        references = {o["reference"] for o in data["orders"].values() if o["attendee_id"] == attendee_id}
        same_postcode = attendee["postcode"].replace(" ", "").upper() == postcode.replace(" ", "").upper()
        if booking_reference.strip().upper() not in references or not same_postcode:
            raise Refusal("the booking reference and postcode do not match this account")
        return _verified(data, attendee_id, "booking_reference")


class CheckAppCode(Tool):
    name = "check_app_code"
    writes = True
    description = (
        "Check the sign-in code the caller reads from their ticket app (the app shows one each day); verifies them"
        " when it matches."
    )
    parameters = params(attendee_id=ATTENDEE, code=string("The six digits the caller read."))

    @staticmethod
    def invoke(data: Data, attendee_id: str, code: str) -> str:
        record(data, "attendees", attendee_id, "attendee")
        if attendee_id not in data["wallets"]:
            raise Refusal("this attendee has no ticket app")
        if code.strip() != sign_in_code(attendee_id):
            raise Refusal("the code does not match")
        return _verified(data, attendee_id, "app_code")


class FindOrganiser(Tool):
    name = "find_organiser"
    description = "Find an organiser's id by their contact's email address."
    parameters = params(email=string("The organiser contact's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for organiser in data["organisers"].values():
            if organiser["email"].lower() == email.strip().lower():
                return str(organiser["organiser_id"])
        raise Refusal("no organiser has that email")


class VerifyOrganiser(Tool):
    name = "verify_organiser"
    writes = True
    description = "Verify an organiser's contact by the account's passphrase."
    parameters = params(organiser_id=ORGANISER, passphrase=string("The passphrase the caller gives."))

    @staticmethod
    def invoke(data: Data, organiser_id: str, passphrase: str) -> str:
        organiser = record(data, "organisers", organiser_id, "organiser")
        if organiser["passphrase"].lower() != passphrase.strip().lower():
            raise Refusal("the passphrase does not match")
        return _verified(data, organiser_id, "passphrase")


IDENTITY_TOOLS: tuple[type[Tool], ...] = (
    FindAttendee,
    VerifyBookingHolder,
    CheckAppCode,
    FindOrganiser,
    VerifyOrganiser,
)
