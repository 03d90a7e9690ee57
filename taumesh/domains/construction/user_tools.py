"""The caller's own project portal (``side = "user"``): the desk can neither see nor use it.

A subcontractor uploads their documents (a renewed insurance certificate, a lien waiver) from it, and a project owner
signs change orders in it, so the agent asks them to do so (dual control). What they do there lands in the desk's
graded records (``documents``, ``change_orders``); the portal itself (sign-in, the files still on their side) is left
out of the graded state by :mod:`~taumesh.domains.construction.hashing`.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.construction.clock import TODAY
from taumesh.domains.construction.records import dump, where
from taumesh.domains.construction.schema import params, text


def _signed_in(data: Data) -> Any:
    for session in data["portal_sessions"].values():
        if session["signed_in"]:
            return data["contacts"][session["contact_id"]]
    raise Refusal("you are not signed in: sign in to the portal with your email and passphrase first")


class PortalTool(Tool):
    side = "user"


class PortalSignIn(PortalTool):
    name = "portal_sign_in"
    writes = True
    description = "Sign in to your project portal with your email address and passphrase."
    parameters = params(email=text("Your email address."), passphrase=text("Your passphrase."))

    @staticmethod
    def invoke(data: Data, email: str, passphrase: str) -> str:
        wanted = email.strip().lower()
        contact = next((c for c in data["contacts"].values() if c["email"] == wanted), None)
        if contact is None or contact["passphrase"] != passphrase.strip().lower():
            raise Refusal("wrong email or passphrase")
        if contact["contact_id"] not in data["portal_sessions"]:
            raise Refusal("site managers use the contractor's own systems, not the portal")
        data["portal_sessions"][contact["contact_id"]]["signed_in"] = True
        return "Signed in."


class PortalOverview(PortalTool):
    name = "portal_overview"
    description = "See your files not yet sent to the desk, and the change orders waiting for your signature."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        me = _signed_in(data)
        files = [
            f for f in where(data, "portal_files", contact_id=me["contact_id"]) if f["file_id"] not in data["documents"]
        ]
        owned = {p["project_id"] for p in where(data, "projects", owner_contact_id=me["contact_id"])}
        unsigned = [
            c
            for c in data["change_orders"].values()
            if c["project_id"] in owned and c["status"] == "awaiting_owner" and not c["owner_signed_on"]
        ]
        return dump({"files": files, "change_orders_to_sign": unsigned})


class PortalUploadFile(PortalTool):
    name = "portal_upload_file"
    writes = True
    description = "Send one of your files to the project desk; it arrives there under the same id."
    parameters = params(file_id=text("The file's id, as the overview shows it."))

    @staticmethod
    def invoke(data: Data, file_id: str) -> str:
        me = _signed_in(data)
        found = data["portal_files"].get(file_id.strip())
        if found is None or found["contact_id"] != me["contact_id"]:
            raise Refusal("no such file in your portal")
        if found["file_id"] in data["documents"]:
            raise Refusal("you have sent that file already")
        data["documents"][found["file_id"]] = {
            "document_id": found["file_id"],
            "company_id": me["company_id"],
            "kind": found["kind"],
            "liability_cover": found["liability_cover"],
            "expires_on": found["expires_on"],
            "invoice_id": found["invoice_id"],
            "status": "received",
            "rejection_reason": None,
        }
        return f"Sent '{found['title']}' to the project desk."


class PortalSignChangeOrder(PortalTool):
    name = "portal_sign_change_order"
    writes = True
    description = "Sign, as the project's owner, a change order waiting for your signature."
    parameters = params(change_order_id=text("The change order's id."))

    @staticmethod
    def invoke(data: Data, change_order_id: str) -> str:
        me = _signed_in(data)
        order = data["change_orders"].get(change_order_id.strip())
        if order is None or data["projects"][order["project_id"]]["owner_contact_id"] != me["contact_id"]:
            raise Refusal("no such change order waits for you")
        if order["owner_signed_on"]:
            raise Refusal("you have signed it already")
        order["owner_signed_on"] = TODAY.isoformat()
        return f"You signed change order {change_order_id}."


USER_TOOLS: tuple[type[Tool], ...] = (PortalSignIn, PortalOverview, PortalUploadFile, PortalSignChangeOrder)
"""Every tool of the caller's."""
