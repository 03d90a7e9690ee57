"""The desk's identity checks: an attorney by their bar number, a client contact by client number and postcode.

Each verification is a record (``verifications``), so what the desk checked is part of the state the reward sees.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.legal.records import dump, fetch
from taumesh.domains.legal.schema import params, text


class FindAttorney(Tool):
    name = "find_attorney"
    description = "Find a lawyer of the firm by their firm email; returns their attorney id, name and role."
    parameters = params(email=text("The lawyer's firm email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for lawyer in data["attorneys"].values():
            if lawyer["email"] == email.strip().lower():
                name = f"{lawyer['first_name']} {lawyer['last_name']}"
                return dump({"attorney_id": lawyer["attorney_id"], "name": name, "role": lawyer["role"]})
        raise Refusal("no lawyer of the firm has that email")


class VerifyAttorney(Tool):
    name = "verify_attorney"
    writes = True
    description = "Verify that the caller is the lawyer, by the bar number they give; departed lawyers cannot be."
    parameters = params(
        attorney_id=text("The lawyer's id, such as 'att-w1-03'."), bar_number=text("The bar number the caller gives.")
    )

    @staticmethod
    def invoke(data: Data, attorney_id: str, bar_number: str) -> str:
        lawyer = fetch(data, "attorneys", attorney_id, "attorney")
        if lawyer["status"] != "active":
            raise Refusal("this lawyer has left the firm: their access is closed")
        if lawyer["bar_number"] != bar_number.strip().upper():
            raise Refusal("the bar number does not match")
        data["verifications"][attorney_id] = {"person_id": attorney_id, "method": "bar_number", "verified": True}
        return f"{attorney_id} is verified."


class FindContact(Tool):
    name = "find_contact"
    description = "Find a client contact by their email; returns their contact id, client id and name."
    parameters = params(email=text("The contact's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for contact in data["contacts"].values():
            if contact["email"] == email.strip().lower():
                name = f"{contact['first_name']} {contact['last_name']}"
                return dump({"contact_id": contact["contact_id"], "client_id": contact["client_id"], "name": name})
        raise Refusal("no client contact has that email")


class VerifyContact(Tool):
    name = "verify_contact"
    writes = True
    description = "Verify a client contact by their client's number and the postcode the firm holds for them."
    parameters = params(
        contact_id=text("The contact's id, such as 'con-w1-012'."),
        client_number=text("The client number the caller reads from the firm's paperwork."),
        postcode=text("The caller's postcode."),
    )

    @staticmethod
    def invoke(data: Data, contact_id: str, client_number: str, postcode: str) -> str:
        contact = fetch(data, "contacts", contact_id, "contact")
        client = data["clients"][contact["client_id"]]
        if client["client_number"] != client_number.strip().upper():
            raise Refusal("the client number does not match")
        if contact["postcode"].replace(" ", "") != postcode.replace(" ", "").upper():
            raise Refusal("the postcode does not match")
        data["verifications"][contact_id] = {"person_id": contact_id, "method": "client_number", "verified": True}
        return f"{contact_id} is verified."


IDENTITY_TOOLS = (FindAttorney, VerifyAttorney, FindContact, VerifyContact)
