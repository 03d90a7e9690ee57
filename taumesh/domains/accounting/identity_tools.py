"""Who is calling: find the caller by email, then verify them by a security detail or a code in their portal.

A verification is recorded (``verifications``), so the books show which caller the desk acted for and how it knew.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.accounting.clock import portal_code
from taumesh.domains.accounting.records import dump
from taumesh.domains.accounting.schema import params, text

CALLER = text("The caller's id from find_caller, such as 'stf-w1-04' or 'sup-w1-07'.")


def caller_record(data: Data, caller_id: str) -> tuple[str, dict[str, str]]:
    """The caller's kind (``staff`` or ``supplier``) and record; a refusal when the id is neither."""
    if caller_id in data["staff"]:
        return "staff", data["staff"][caller_id]
    if caller_id in data["suppliers"]:
        return "supplier", data["suppliers"][caller_id]
    raise Refusal(f"caller {caller_id!r} not found")


class FindCaller(Tool):
    name = "find_caller"
    description = "Find a caller by the email on file: a staff member's, or a supplier's accounts contact's."
    parameters = params(email=text("The caller's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        wanted = email.strip().lower()
        for staff in data["staff"].values():
            if staff["email"].lower() == wanted:
                return dump({"caller_id": staff["staff_id"], "kind": "staff", "company_id": staff["company_id"]})
        for supplier in data["suppliers"].values():
            if supplier["contact_email"].lower() == wanted:
                found = {"caller_id": supplier["supplier_id"], "kind": "supplier", "company_id": supplier["company_id"]}
                return dump(found)
        raise Refusal("no caller has that email on file")


class VerifyCaller(Tool):
    name = "verify_caller"
    writes = True
    description = (
        "Verify a caller by their security detail: a staff member's employee number, or a supplier's tax"
        " registration number."
    )
    parameters = params(caller_id=CALLER, security_detail=text("The employee number or tax registration number."))

    @staticmethod
    def invoke(data: Data, caller_id: str, security_detail: str) -> str:
        kind, record = caller_record(data, caller_id)
        expected = record["employee_number"] if kind == "staff" else record["tax_id"]
        if security_detail.strip().upper() != expected:
            raise Refusal("the security detail does not match the record")
        data["verifications"][caller_id] = {"caller_id": caller_id, "method": "security_detail", "verified": True}
        return dump(data["verifications"][caller_id])


class SendPortalCode(Tool):
    name = "send_portal_code"
    writes = True
    description = "Send a one-time code to the caller's portal inbox, where only they can read it."
    parameters = params(caller_id=CALLER)

    @staticmethod
    def invoke(data: Data, caller_id: str) -> str:
        caller_record(data, caller_id)
        data["verifications"][caller_id] = {"caller_id": caller_id, "method": "portal_code", "verified": False}
        data["portals"][caller_id]["inbox"].append(f"Your accounting desk code is {portal_code(caller_id)}.")
        return "A code was sent to the caller's portal inbox."


class VerifyPortalCode(Tool):
    name = "verify_portal_code"
    writes = True
    description = "Check the code the caller reads from their portal inbox; a match verifies them."
    parameters = params(caller_id=CALLER, code=text("The digits the caller read out."))

    @staticmethod
    def invoke(data: Data, caller_id: str, code: str) -> str:
        record = data["verifications"].get(caller_id)
        if record is None or record["method"] != "portal_code" or code.strip() != portal_code(caller_id):
            raise Refusal("the code does not match the code sent")
        record["verified"] = True
        return dump(record)


IDENTITY_TOOLS: tuple[type[Tool], ...] = (FindCaller, VerifyCaller, SendPortalCode, VerifyPortalCode)
