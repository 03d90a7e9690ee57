"""The client's own tools (``side = "user"``): their portal, where only they can sign in, upload and sign.

The agency sees an upload only once the client makes it, and a disclosure is acknowledged only by the client's own
signature: the agent asks, the client acts (dual control).
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.real_estate.records import dump, fetch
from taumesh.domains.real_estate.schema import params, string


def _signed_in(data: Data) -> Any:
    for portal in data["portals"].values():
        if portal["signed_in"]:
            return portal
    raise Refusal("you are not signed in to your portal: sign in with your email and password first")


class ClientTool(Tool):
    side = "user"


class SignInToPortal(ClientTool):
    name = "sign_in_to_portal"
    writes = True
    description = "Sign in to your client portal with your email address and password."
    parameters = params(email=string("Your email address."), password=string("Your portal password."))

    @staticmethod
    def invoke(data: Data, email: str, password: str) -> str:
        for portal in data["portals"].values():
            client = data["clients"][portal["client_id"]]
            if client["email"].lower() == email.strip().lower() and portal["password"] == password:
                portal["signed_in"] = True
                return "Signed in."
        raise Refusal("wrong email or password")


class ViewPortal(ClientTool):
    name = "view_portal"
    description = (
        "What your portal shows: the files on your device you can upload, the documents the agency shared with you,"
        " and the disclosures waiting for your signature."
    )
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        portal = _signed_in(data)
        client_id = portal["client_id"]
        shared = [
            {"document_id": d["document_id"], "title": d["title"]}
            for d in data["documents"].values()
            if client_id in d["shared_with"]
        ]
        waiting = [
            {"document_id": s["document_id"], "title": data["documents"][s["document_id"]]["title"]}
            for s in data["signatures"].values()
            if s["client_id"] == client_id and s["status"] == "awaiting"
        ]
        return dump({"files": portal["files"], "shared_with_you": shared, "waiting_for_signature": waiting})


class UploadFile(ClientTool):
    name = "upload_file"
    writes = True
    description = "Upload one of the files on your device to the agency; it keeps the file's id."
    parameters = params(file_id=string("The file's id, as your portal lists it."))

    @staticmethod
    def invoke(data: Data, file_id: str) -> str:
        portal = _signed_in(data)
        file = next((f for f in portal["files"] if f["file_id"] == file_id.strip()), None)
        if file is None:
            raise Refusal("no such file on your device")
        if file["uploaded"]:
            raise Refusal("that file is already uploaded")
        file["uploaded"] = True
        data["documents"][file["file_id"]] = {
            "document_id": file["file_id"],
            "kind": file["kind"],
            "title": file["title"],
            "listing_id": None,
            "client_id": portal["client_id"],
            "status": "received",
            "shared_with": [],
            "rejection_reason": None,
            "lender": file["lender"],
            "amount": file["amount"],
            "expires": file["expires"],
            "monthly_income": file["monthly_income"],
        }
        return f"Uploaded {file['title']}."


class SignDocument(ClientTool):
    name = "sign_document"
    writes = True
    description = "Sign a disclosure waiting for your signature in your portal, acknowledging you received it."
    parameters = params(document_id=string("The disclosure's id, as your portal lists it."))

    @staticmethod
    def invoke(data: Data, document_id: str) -> str:
        portal = _signed_in(data)
        for signature in data["signatures"].values():
            if signature["client_id"] == portal["client_id"] and signature["document_id"] == document_id.strip():
                if signature["status"] != "awaiting":
                    raise Refusal("you have signed it already")
                signature["status"] = "signed"
                return f"Signed {fetch(data, 'documents', document_id.strip(), 'document')['title']}."
        raise Refusal("no disclosure with that id is waiting for your signature")


USER_TOOLS: tuple[type[Tool], ...] = (SignInToPortal, ViewPortal, UploadFile, SignDocument)
