"""The client's own portal (``side = "user"``): what the firm sent them, their signature and their uploads.

The desk cannot call these: a letter is signed, and a document uploaded, only by the client (dual control).
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.legal.clock import TODAY
from taumesh.domains.legal.records import dump, fetch, next_id, tag_of
from taumesh.domains.legal.schema import params, text


class PortalTool(Tool):
    side = "user"


def _contact_by_email(data: Data, email: str) -> str:
    for contact in data["contacts"].values():
        if contact["email"] == email.strip().lower():
            return str(contact["contact_id"])
    raise Refusal("no portal account has that email")


class OpenPortal(PortalTool):
    name = "open_portal"
    description = (
        "Sign in to your client portal: the engagement letters waiting for your signature and open upload slots."
    )
    parameters = params(email=text("Your own email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        contact_id = _contact_by_email(data, email)
        letters = [
            letter
            for letter in data["engagement_letters"].values()
            if letter["contact_id"] == contact_id and letter["status"] == "sent"
        ]
        slots = [r for r in data["upload_requests"].values() if r["contact_id"] == contact_id and r["status"] == "open"]
        return dump({"letters_to_sign": letters, "upload_slots": slots})


class SignEngagementLetter(PortalTool):
    name = "sign_engagement_letter"
    writes = True
    description = "Sign an engagement letter waiting in your portal."
    parameters = params(letter_id=text("The letter's id, such as 'eng-w1-019'."))

    @staticmethod
    def invoke(data: Data, letter_id: str) -> str:
        letter = fetch(data, "engagement_letters", letter_id, "letter")
        if letter["status"] != "sent":
            raise Refusal("this letter is signed already")
        letter.update(status="signed", signed_on=TODAY.isoformat())
        return f"You signed {letter_id}."


class UploadFile(PortalTool):
    name = "upload_file"
    writes = True
    description = "Upload one of your files into an open upload slot of your portal."
    parameters = params(request_id=text("The slot's id, such as 'upl-w1-001'."), file_name=text("Your file's name."))

    @staticmethod
    def invoke(data: Data, request_id: str, file_name: str) -> str:
        slot = fetch(data, "upload_requests", request_id, "upload slot")
        if slot["status"] != "open":
            raise Refusal("this slot has a file already")
        document_id = next_id(data, "documents", "doc", tag_of(request_id))
        data["documents"][document_id] = {
            "document_id": document_id,
            "matter_id": slot["matter_id"],
            "title": file_name.strip(),
            "kind": "client_upload",
            "privilege": "attorney_client",
            "status": "final",
            "produced": False,
            "source": "client",
            "template_id": None,
            "author_id": None,
            "reviewer_id": None,
        }
        slot.update(status="received", document_id=document_id)
        return f"Uploaded as {document_id}."


USER_TOOLS = (OpenPortal, SignEngagementLetter, UploadFile)
