"""The desk's identity checks: a rep by their employee number, a client contact by a code emailed to them.

Each verification is a record (``verifications``), so what the desk checked is part of the state the reward sees.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.sales.clock import one_time_code
from taumesh.domains.sales.records import dump, record
from taumesh.domains.sales.schema import params, string

REP = string("The rep's id, such as 'rep-w1-04'.")
CONTACT = string("The contact's id, such as 'con-w1-017'.")


class FindRep(Tool):
    name = "find_rep"
    description = "Find a member of the sales team by their work email; returns their rep id and name."
    parameters = params(email=string("The rep's work email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for rep in data["reps"].values():
            if rep["email"] == email.strip().lower():
                return dump({"rep_id": rep["rep_id"], "name": f"{rep['first_name']} {rep['last_name']}"})
        raise Refusal("no rep has that email")


class VerifyRep(Tool):
    name = "verify_rep"
    writes = True
    description = "Verify that the caller is the rep, by the employee number they give; departed reps cannot be."
    parameters = params(rep_id=REP, employee_number=string("The six-digit employee number the caller gives."))

    @staticmethod
    def invoke(data: Data, rep_id: str, employee_number: str) -> str:
        rep = record(data, "reps", rep_id, "rep")
        if rep["status"] != "active":
            raise Refusal("this rep has left the company: their access is closed")
        if rep["employee_number"] != employee_number.strip():
            raise Refusal("the employee number does not match")
        verification = {
            "person_id": rep_id,
            "method": "employee_number",
            "verified": True,
            "codes_sent": 0,
            "code": None,
        }
        data["verifications"][rep_id] = verification
        return dump(verification)


class FindContact(Tool):
    name = "find_contact"
    description = "Find a client contact by their email; returns their contact id, account id and name."
    parameters = params(email=string("The contact's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for contact in data["contacts"].values():
            if contact["email"] == email.strip().lower():
                name = f"{contact['first_name']} {contact['last_name']}"
                return dump({"contact_id": contact["contact_id"], "account_id": contact["account_id"], "name": name})
        raise Refusal("no contact has that email")


class SendContactCode(Tool):
    name = "send_contact_code"
    writes = True
    description = "Email a six-digit one-time code to the contact's address on file; only the latest code counts."
    parameters = params(contact_id=CONTACT)

    @staticmethod
    def invoke(data: Data, contact_id: str) -> str:
        contact = record(data, "contacts", contact_id, "contact")
        earlier = data["verifications"].get(contact_id)
        sent = (earlier["codes_sent"] if earlier else 0) + 1
        code = one_time_code(contact_id, sent)
        data["verifications"][contact_id] = {
            "person_id": contact_id,
            "method": "emailed_code",
            "verified": False,
            "codes_sent": sent,
            "code": code,
        }
        message = {"subject": "Your verification code", "body": f"Your code for the sales desk is {code}."}
        data["mailboxes"][contact_id]["messages"].append(message)
        return f"A one-time code was emailed to {contact['email']}."


class VerifyContactCode(Tool):
    name = "verify_contact_code"
    writes = True
    description = "Check the code the contact reads from their email; verifies them when it is the latest code sent."
    parameters = params(contact_id=CONTACT, code=string("The six digits the contact read."))

    @staticmethod
    def invoke(data: Data, contact_id: str, code: str) -> str:
        verification = data["verifications"].get(contact_id)
        if verification is None or verification["code"] is None:
            raise Refusal("no code was sent to this contact")
        if verification["code"] != code.strip():
            raise Refusal("the code does not match the latest one sent")
        verification["verified"] = True
        return dump(verification)


IDENTITY_TOOLS = (FindRep, VerifyRep, FindContact, SendContactCode, VerifyContactCode)
