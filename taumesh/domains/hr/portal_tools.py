"""The employee's own self-service portal (``side = "user"``): the desk cannot see or act in it.

Signing forms and confirming a shift hand-over are the employee's acts, so the agent asks the employee to do them
(dual control). The portal opens only with the employee's PIN, which also says whose portal it is.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.hr.schema import params, string


def _account(data: Data) -> Any:
    for account in data["portal_accounts"].values():
        if account["signed_in"]:
            return account
    raise Refusal("you are not signed in to the portal: sign in with your PIN first")


class PortalTool(Tool):
    side = "user"


class PortalSignIn(PortalTool):
    name = "portal_sign_in"
    writes = True
    description = "Sign in to your self-service portal with your employee id and PIN."
    parameters = params(employee_id=string("Your employee id."), pin=string("Your four-digit PIN."))

    @staticmethod
    def invoke(data: Data, employee_id: str, pin: str) -> str:
        account = data["portal_accounts"].get(employee_id.strip())
        if account is None or account["pin"] != pin.strip():
            raise Refusal("wrong employee id or PIN")
        account["signed_in"] = True
        return "Signed in."


class PortalViewInbox(PortalTool):
    name = "portal_view_inbox"
    description = (
        "See what waits for you in the portal: messages from People Services, forms to sign and shift cover"
        " requests to confirm."
    )
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        account = _account(data)
        mine = account["employee_id"]
        forms = [d for d in data["documents"].values() if d["employee_id"] == mine and not d["signed"]]
        swaps = [
            s
            for s in data["swap_requests"].values()
            if s["from_employee_id"] == mine and s["status"] == "awaiting_employee"
        ]
        return json.dumps({"messages": account["messages"], "forms_to_sign": forms, "cover_requests_to_confirm": swaps})


class PortalSignForm(PortalTool):
    name = "portal_sign_form"
    writes = True
    description = "Sign one of your onboarding forms electronically."
    parameters = params(document_id=string("The form's id, as the inbox shows it."))

    @staticmethod
    def invoke(data: Data, document_id: str) -> str:
        document = data["documents"].get(document_id.strip())
        if document is None or document["employee_id"] != _account(data)["employee_id"]:
            raise Refusal("no such form in your portal")
        if document["signed"]:
            raise Refusal("you have signed that form already")
        document["signed"] = True
        return f"You signed '{document['title']}'."


class PortalConfirmCover(PortalTool):
    name = "portal_confirm_cover"
    writes = True
    description = "Confirm a request you made for a colleague to cover one of your shifts."
    parameters = params(swap_id=string("The request's id, as the inbox shows it."))

    @staticmethod
    def invoke(data: Data, swap_id: str) -> str:
        swap = data["swap_requests"].get(swap_id.strip())
        if swap is None or swap["from_employee_id"] != _account(data)["employee_id"]:
            raise Refusal("no such cover request in your portal")
        if swap["status"] != "awaiting_employee":
            raise Refusal("that request does not wait for you")
        swap["status"] = "confirmed"
        return "Confirmed: the desk can now complete the hand-over."


PORTAL_TOOLS: tuple[type[Tool], ...] = (PortalSignIn, PortalViewInbox, PortalSignForm, PortalConfirmCover)
"""Every tool of the employee's."""
