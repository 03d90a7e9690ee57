"""The desk's writes over a matter's file: engagement letters, uploads, drafts, reviews, production and research notes.

The client's signature and upload are theirs alone (``user_tools``); the desk prepares what they act on.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.legal.clock import FEE_BASES, retainer
from taumesh.domains.legal.records import dump, fetch, next_id, one_of, tag_of
from taumesh.domains.legal.schema import params, text

MATTER = text("The matter's id, such as 'mat-w1-007'.")
DOCUMENT = text("The document's id, such as 'doc-w1-044'.")


class IssueEngagementLetter(Tool):
    name = "issue_engagement_letter"
    writes = True
    description = (
        "Send an engagement letter for a matter at intake to a contact's portal, on a fee basis; gives the retainer."
    )
    parameters = params(
        matter_id=MATTER, contact_id=text("The contact who will sign."), fee_basis=text("The fee basis.", FEE_BASES)
    )

    @staticmethod
    def invoke(data: Data, matter_id: str, contact_id: str, fee_basis: str) -> str:
        matter = fetch(data, "matters", matter_id, "matter")
        fetch(data, "contacts", contact_id, "contact")
        one_of(fee_basis, FEE_BASES, "fee_basis")
        if matter["status"] != "intake":
            raise Refusal("this matter is engaged already")
        partner = data["attorneys"][matter["responsible_attorney_id"]]
        letter_id = next_id(data, "engagement_letters", "eng", tag_of(matter_id))
        data["engagement_letters"][letter_id] = {
            "letter_id": letter_id,
            "matter_id": matter_id,
            "contact_id": contact_id,
            "fee_basis": fee_basis,
            "retainer": retainer(fee_basis, matter["practice_area"], partner["hourly_rate"]),
            "status": "sent",
            "signed_on": None,
        }
        matter["engagement_letter_id"] = letter_id
        return dump(data["engagement_letters"][letter_id])


class ActivateMatter(Tool):
    name = "activate_matter"
    writes = True
    description = "Open a matter for work once its client has signed the engagement letter."
    parameters = params(matter_id=MATTER)

    @staticmethod
    def invoke(data: Data, matter_id: str) -> str:
        matter = fetch(data, "matters", matter_id, "matter")
        letter = data["engagement_letters"].get(matter["engagement_letter_id"] or "")
        if letter is None or letter["status"] != "signed":
            raise Refusal("the engagement letter is not signed: the matter cannot be opened for work")
        matter["status"] = "open"
        return dump(matter)


class RequestUpload(Tool):
    name = "request_upload"
    writes = True
    description = "Open an upload slot in a contact's portal for a document on a matter."
    parameters = params(matter_id=MATTER, contact_id=text("The contact who will upload."))

    @staticmethod
    def invoke(data: Data, matter_id: str, contact_id: str) -> str:
        fetch(data, "matters", matter_id, "matter")
        fetch(data, "contacts", contact_id, "contact")
        request_id = next_id(data, "upload_requests", "upl", tag_of(matter_id))
        data["upload_requests"][request_id] = {
            "request_id": request_id,
            "matter_id": matter_id,
            "contact_id": contact_id,
            "description": "document from the client",
            "status": "open",
            "document_id": None,
        }
        return dump(data["upload_requests"][request_id])


class DraftFromTemplate(Tool):
    name = "draft_from_template"
    writes = True
    description = "Start a draft document on a matter from one of the firm's templates, with its author."
    parameters = params(
        matter_id=MATTER, template_id=text("The template's id, such as 'tpl-04'."), author_id=text("The author's id.")
    )

    @staticmethod
    def invoke(data: Data, matter_id: str, template_id: str, author_id: str) -> str:
        fetch(data, "matters", matter_id, "matter")
        template = fetch(data, "templates", template_id, "template")
        fetch(data, "attorneys", author_id, "attorney")
        document_id = next_id(data, "documents", "doc", tag_of(matter_id))
        data["documents"][document_id] = {
            "document_id": document_id,
            "matter_id": matter_id,
            "title": template["name"],
            "kind": "draft_from_template",
            "privilege": "work_product",
            "status": "draft",
            "produced": False,
            "source": "firm",
            "template_id": template_id,
            "author_id": author_id,
            "reviewer_id": None,
        }
        return dump(data["documents"][document_id])


class RequestReview(Tool):
    name = "request_review"
    writes = True
    description = "Send a draft to a lawyer for review."
    parameters = params(document_id=DOCUMENT, reviewer_id=text("The reviewing lawyer's id."))

    @staticmethod
    def invoke(data: Data, document_id: str, reviewer_id: str) -> str:
        document = fetch(data, "documents", document_id, "document")
        fetch(data, "attorneys", reviewer_id, "attorney")
        if document["status"] != "draft":
            raise Refusal("only a draft is sent for review")
        document["reviewer_id"] = reviewer_id
        return dump(document)


class ProduceDocument(Tool):
    name = "produce_document"
    writes = True
    description = "Produce a document to the other side in disclosure."
    parameters = params(document_id=DOCUMENT)

    @staticmethod
    def invoke(data: Data, document_id: str) -> str:
        document = fetch(data, "documents", document_id, "document")
        if document["produced"]:
            raise Refusal("this document has been produced already")
        document["produced"] = True
        return dump(document)


class LogPrivilege(Tool):
    name = "log_privilege"
    writes = True
    description = "Enter a withheld document on its matter's privilege log, with the privilege it is withheld under."
    parameters = params(document_id=DOCUMENT, basis=text("The privilege.", ("attorney_client", "work_product")))

    @staticmethod
    def invoke(data: Data, document_id: str, basis: str) -> str:
        document = fetch(data, "documents", document_id, "document")
        one_of(basis, ("attorney_client", "work_product"), "basis")
        entry_id = next_id(data, "privilege_log", "plog", tag_of(document_id))
        entry = {"entry_id": entry_id, "matter_id": document["matter_id"], "document_id": document_id, "basis": basis}
        data["privilege_log"][entry_id] = entry
        return dump(entry)


class CiteAuthority(Tool):
    name = "cite_authority"
    writes = True
    description = "Add an authority of the research corpus to a matter's research notes; returns its citation."
    parameters = params(matter_id=MATTER, authority_id=text("The authority's id, such as 'auth-07'."))

    @staticmethod
    def invoke(data: Data, matter_id: str, authority_id: str) -> str:
        matter = fetch(data, "matters", matter_id, "matter")
        authority = fetch(data, "authorities", authority_id, "authority")
        if authority_id in matter["citations"]:
            raise Refusal("the matter's notes cite this authority already")
        matter["citations"].append(authority_id)
        return dump({"matter_id": matter_id, "citation": authority["citation"]})


FILE_TOOLS = (
    IssueEngagementLetter,
    ActivateMatter,
    RequestUpload,
    DraftFromTemplate,
    RequestReview,
    ProduceDocument,
    LogPrivilege,
    CiteAuthority,
)
