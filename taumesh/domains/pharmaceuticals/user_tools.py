"""The participant's own study app (``side = "user"``): the desk can neither see nor use it.

A participant e-signs a consent form, reads a diary unlock code and sends a travel receipt from it, so the agent
asks them to (dual control). What they do there that matters lands in the desk's graded records
(``consent_forms``, ``receipts``); the app itself (sign-in, messages, receipts not yet sent) is left out of the
graded state by :mod:`~taumesh.domains.pharmaceuticals.hashing`.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.pharmaceuticals.clock import TODAY
from taumesh.domains.pharmaceuticals.records import answer, matching
from taumesh.domains.pharmaceuticals.schema import arguments, string


def _me(data: Data) -> Any:
    for session in data["app_sessions"].values():
        if session["signed_in"]:
            return data["callers"][session["caller_id"]]
    raise Refusal("you are not signed in: open the study app with your email and app PIN first")


def _my_participant_ids(data: Data, caller_id: str) -> set[str]:
    return {p["participant_id"] for p in matching(data, "participants", caller_id=caller_id)}


class AppTool(Tool):
    side = "user"


class AppSignIn(AppTool):
    name = "app_sign_in"
    writes = True
    description = "Open your study app with your email address and your app PIN."
    parameters = arguments(email=string("Your email address."), pin=string("Your app PIN."))

    @staticmethod
    def invoke(data: Data, email: str, pin: str) -> str:
        wanted = email.strip().lower()
        caller = next((c for c in data["callers"].values() if c["email"] == wanted), None)
        if caller is None or caller["app_pin"] is None or caller["app_pin"] != pin.strip():
            raise Refusal("wrong email or PIN")
        data["app_sessions"][caller["caller_id"]]["signed_in"] = True
        return "Study app open."


class AppInbox(AppTool):
    name = "app_inbox"
    description = "See what is in your study app: consent forms to sign, messages, and travel receipts not yet sent."
    parameters = arguments()

    @staticmethod
    def invoke(data: Data) -> str:
        me = _me(data)
        mine = _my_participant_ids(data, me["caller_id"])
        forms = [f for f in data["consent_forms"].values() if f["participant_id"] in mine and not f["signed_on"]]
        unsent = [
            r
            for r in matching(data, "app_receipts", caller_id=me["caller_id"])
            if r["receipt_id"] not in data["receipts"]
        ]
        messages = [m["text"] for m in matching(data, "app_messages", caller_id=me["caller_id"])]
        return answer({"forms_to_sign": forms, "messages": messages, "receipts": unsent})


class AppSignConsent(AppTool):
    name = "app_sign_consent"
    writes = True
    description = "E-sign a consent form the trial desk sent to your app."
    parameters = arguments(form_id=string("The form's id, as your inbox shows it."))

    @staticmethod
    def invoke(data: Data, form_id: str) -> str:
        me = _me(data)
        form = data["consent_forms"].get(form_id.strip())
        if form is None or form["participant_id"] not in _my_participant_ids(data, me["caller_id"]):
            raise Refusal("no such form in your app")
        if form["signed_on"]:
            raise Refusal("you have signed that form already")
        form["signed_on"] = TODAY.isoformat()
        return f"You signed consent form {form['form_id']} (version {form['version']})."


class AppUploadReceipt(AppTool):
    name = "app_upload_receipt"
    writes = True
    description = "Send one of your travel receipts to the trial desk; it arrives there under the same id."
    parameters = arguments(receipt_id=string("The receipt's id, as your inbox shows it."))

    @staticmethod
    def invoke(data: Data, receipt_id: str) -> str:
        me = _me(data)
        found = data["app_receipts"].get(receipt_id.strip())
        if found is None or found["caller_id"] != me["caller_id"]:
            raise Refusal("no such receipt in your app")
        if found["receipt_id"] in data["receipts"]:
            raise Refusal("you have sent that receipt already")
        participant_id = sorted(_my_participant_ids(data, me["caller_id"]))[0]
        data["receipts"][found["receipt_id"]] = {
            "receipt_id": found["receipt_id"],
            "participant_id": participant_id,
            "visit_id": found["visit_id"],
            "amount": found["amount"],
        }
        return f"Sent '{found['title']}' to the trial desk."


USER_TOOLS: tuple[type[Tool], ...] = (AppSignIn, AppInbox, AppSignConsent, AppUploadReceipt)
"""Every tool of the participant's."""
