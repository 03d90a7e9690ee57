"""The policyholder's own tools (``side = "user"``): their phone, its texts, its photos, and the insurer's app.

The desk sees none of it: the agent learns a code or a document only from what the policyholder reads out or
uploads. The phone stays locked until its passcode is entered.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.insurance.schema import params, string


def _phone(data: Data) -> Any:
    for device in data["devices"].values():
        if device["unlocked"]:
            return device
    raise Refusal("your phone is locked: unlock it with your passcode first")


class PolicyholderTool(Tool):
    side = "user"


class UnlockPhone(PolicyholderTool):
    name = "unlock_phone"
    writes = True
    description = "Unlock your phone with its passcode; everything else on it needs it unlocked."
    parameters = params(passcode=string("Your six-digit passcode."))

    @staticmethod
    def invoke(data: Data, passcode: str) -> str:
        for device in data["devices"].values():
            if device["passcode"] == passcode.strip():
                device["unlocked"] = True
                return "Phone unlocked."
        raise Refusal("wrong passcode")


class ReadTextMessages(PolicyholderTool):
    name = "read_text_messages"
    description = "Read the text messages on your phone, newest last."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_phone(data)["text_messages"])


class ViewPhotos(PolicyholderTool):
    name = "view_photos"
    description = "The photos on your phone, each with its id and what it shows."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_phone(data)["photos"])


class UploadDocument(PolicyholderTool):
    name = "upload_document"
    writes = True
    description = "Upload one photo from your phone as a document of a claim, once the insurer has texted you its link."
    parameters = params(claim_id=string("The claim's id, from the insurer's text."), photo_id=string("The photo's id."))

    @staticmethod
    def invoke(data: Data, claim_id: str, photo_id: str) -> str:
        phone = _phone(data)
        claim = data["claims"].get(claim_id.strip())
        if claim is None or claim["policyholder_id"] != phone["policyholder_id"] or not claim["upload_link_sent"]:
            raise Refusal("no upload link for that claim was texted to you")
        if claim["status"] != "awaiting_documents":
            raise Refusal("that claim takes no more documents")
        photo = next((p for p in phone["photos"] if p["photo_id"] == photo_id.strip()), None)
        if photo is None:
            raise Refusal("no such photo on your phone")
        if photo["document_type"] not in claim["required_documents"]:
            raise Refusal("the claim does not ask for that document")
        claim["documents_received"] = sorted({*claim["documents_received"], photo["document_type"]})
        return json.dumps({"claim_id": claim["claim_id"], "documents_received": claim["documents_received"]})


USER_TOOLS: tuple[type[Tool], ...] = (UnlockPhone, ReadTextMessages, ViewPhotos, UploadDocument)
