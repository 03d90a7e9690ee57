"""Who is calling (policy section 2).

A client is found by email and verified by account number and postal code, or by a passcode their tracking app
shows; a depot operator is verified by operator id and badge PIN.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.logistics.clock import app_passcode
from taumesh.domains.logistics.records import dump, fetch
from taumesh.domains.logistics.schema import params, text

CLIENT = text("The client's id, such as 'cl-w1-007'.")


class FindClient(Tool):
    name = "find_client"
    description = "Find a client's id by the email address on their account."
    parameters = params(email=text("The email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        wanted = email.strip().lower()
        for client in data["clients"].values():
            if client["email"].lower() == wanted:
                return str(client["client_id"])
        raise Refusal("no client has that email address")


class VerifyClientAccount(Tool):
    name = "verify_client_account"
    writes = True
    description = "Verify the caller is the client by their account number and the postal code on the account."
    parameters = params(
        client_id=CLIENT, account_number=text("Such as 'LX-483920'."), postal_code=text("The account's postal code.")
    )

    @staticmethod
    def invoke(data: Data, client_id: str, account_number: str, postal_code: str) -> str:
        client = fetch(data, "clients", client_id, "client")
        if (client["account_number"], client["postal_code"]) != (account_number.strip(), postal_code.strip()):
            raise Refusal("the account number and postal code do not match this client")
        record = {"party_id": client_id, "method": "account", "verified": True, "passcodes_sent": 0, "passcode": None}
        data["verifications"][client_id] = record
        return dump(record)


class SendAppPasscode(Tool):
    name = "send_app_passcode"
    writes = True
    description = "Send a six-digit passcode to the client's tracking app inbox, where they can read it."
    parameters = params(client_id=CLIENT)

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        earlier = data["verifications"].get(client_id)
        sent = earlier["passcodes_sent"] if earlier is not None else 0
        passcode = app_passcode(client_id, sent + 1)
        data["verifications"][client_id] = {
            "party_id": client_id,
            "method": "app_passcode",
            "verified": False,
            "passcodes_sent": sent + 1,
            "passcode": passcode,
        }
        data["tracking_apps"][client_id]["inbox"].append(f"Your operations desk passcode: {passcode}")
        return "A passcode was sent to the client's tracking app."


class CheckAppPasscode(Tool):
    name = "check_app_passcode"
    writes = True
    description = "Check the passcode the client reads from their app; the latest passcode sent verifies them."
    parameters = params(client_id=CLIENT, passcode=text("The six digits the caller read."))

    @staticmethod
    def invoke(data: Data, client_id: str, passcode: str) -> str:
        record = data["verifications"].get(client_id)
        if record is None or record["method"] != "app_passcode" or record["passcode"] != passcode.strip():
            raise Refusal("that is not the latest passcode sent")
        record["verified"] = True
        return dump(record)


class VerifyOperator(Tool):
    name = "verify_operator"
    writes = True
    description = "Verify a depot operator by their operator id and badge PIN; answers the depot they work at."
    parameters = params(operator_id=text("Such as 'op-w1-03'."), badge_pin=text("The four-digit badge PIN."))

    @staticmethod
    def invoke(data: Data, operator_id: str, badge_pin: str) -> str:
        operator = fetch(data, "operators", operator_id, "operator")
        if operator["badge_pin"] != badge_pin.strip():
            raise Refusal("the badge PIN does not match this operator")
        record = {"party_id": operator_id, "method": "badge", "verified": True, "passcodes_sent": 0, "passcode": None}
        data["verifications"][operator_id] = record
        return dump({"operator_id": operator_id, "depot_id": operator["depot_id"], "verified": True})


IDENTITY_TOOLS = frozenset(
    {"find_client", "verify_client_account", "send_app_passcode", "check_app_passcode", "verify_operator"}
)
"""Finding and verifying the caller, by either client method or an operator's badge."""
IDENTITY_TOOL_CLASSES: tuple[type[Tool], ...] = (
    FindClient,
    VerifyClientAccount,
    SendAppPasscode,
    CheckAppPasscode,
    VerifyOperator,
)
