"""The caller's own tools (``side = "user"``): the company's portal, signed in on their own device.

The desk cannot see the portal: a one-time code, a credit note a supplier issued, or the reference of a bank change
they approved reaches the agent only when the caller reads it out.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.accounting.clock import bank_change_reference
from taumesh.domains.accounting.records import dump
from taumesh.domains.accounting.schema import params, text


def _signed_in(data: Data) -> Any:
    for portal in data["portals"].values():
        if portal["signed_in"]:
            return portal
    raise Refusal("you are not signed in to the portal: sign in with your username and PIN first")


class CallerTool(Tool):
    side = "user"


class SignInToPortal(CallerTool):
    name = "sign_in_to_portal"
    writes = True
    description = "Sign in to the company's portal with your username and PIN; the portal's other tools need it."
    parameters = params(username=text("Your username."), pin=text("Your PIN."))

    @staticmethod
    def invoke(data: Data, username: str, pin: str) -> str:
        for portal in data["portals"].values():
            if (portal["username"], portal["pin"]) == (username.strip(), pin.strip()):
                portal["signed_in"] = True
                return "Signed in."
        raise Refusal("wrong username or PIN")


class ReadPortalInbox(CallerTool):
    name = "read_portal_inbox"
    description = "Read the messages in your portal inbox, newest last."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(_signed_in(data)["inbox"])


class ViewIssuedCreditNotes(CallerTool):
    name = "view_issued_credit_notes"
    description = "The credit notes your company issued through the portal: number, invoice, net amount and date."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(_signed_in(data)["credit_notes"])


class ApproveBankChange(CallerTool):
    name = "approve_bank_change"
    writes = True
    description = (
        "Approve, in the portal, paying your company into a new account; the portal shows the approval's reference."
    )
    parameters = params(sort_code=text("Six digits, such as '40-11-62'."), account_number=text("Eight digits."))

    @staticmethod
    def invoke(data: Data, sort_code: str, account_number: str) -> str:
        portal = _signed_in(data)
        reference = bank_change_reference(portal["caller_id"], sort_code.strip(), account_number.strip())
        portal["approvals"].append(reference)
        return f"Change to account {account_number.strip()} approved: reference {reference}."


USER_TOOLS: tuple[type[Tool], ...] = (SignInToPortal, ReadPortalInbox, ViewIssuedCreditNotes, ApproveBankChange)
