"""The borrower's tools (``side = "user"``): their lender's banking app, signed in with their own PIN.

The lender's systems cannot see the app: a sign-in code, a pay slip, an autopay mandate or a credit-check consent
reaches the agent only when the borrower reads it out. Each approval returns the reference the agent's write needs.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.loans import clock
from taumesh.domains.loans.schema import params, string


def _portal(data: Data) -> Any:
    for portal in data["portals"].values():
        if portal["signed_in"]:
            return portal
    raise Refusal("you are not signed in to your banking app: sign in with your username and PIN first")


class BorrowerTool(Tool):
    side = "user"


class SignInToApp(BorrowerTool):
    name = "sign_in_to_app"
    writes = True
    description = "Sign in to your lender's banking app with your username and PIN; the app's other tools need it."
    parameters = params(username=string("Your username."), pin=string("Your four-digit PIN."))

    @staticmethod
    def invoke(data: Data, username: str, pin: str) -> str:
        for portal in data["portals"].values():
            if (portal["username"], portal["pin"]) == (username.strip(), pin.strip()):
                portal["signed_in"] = True
                return "Signed in."
        raise Refusal("wrong username or PIN")


class ReadAppMessages(BorrowerTool):
    name = "read_app_messages"
    description = "Read the messages in your banking app, newest last."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_portal(data)["messages"])


class ViewPaySlip(BorrowerTool):
    name = "view_pay_slip"
    description = "Open the latest pay slip you uploaded to the app: its reference, employer, pay date and gross pay."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_portal(data)["pay_slip"])


class ApproveAutopayMandate(BorrowerTool):
    name = "approve_autopay_mandate"
    writes = True
    description = "Approve, in the app, autopay debits from one of your accounts; the app shows the mandate reference."
    parameters = params(account_last_four=string("The account's last four digits."))

    @staticmethod
    def invoke(data: Data, account_last_four: str) -> str:
        portal = _portal(data)
        reference = clock.mandate_reference(portal["borrower_id"], account_last_four.strip())
        portal["approvals"].append(reference)
        return f"Autopay mandate approved for the account ending {account_last_four.strip()}: reference {reference}."


class ApproveCreditCheck(BorrowerTool):
    name = "approve_credit_check"
    writes = True
    description = "Consent, in the app, to the credit check a loan application needs; the app shows its reference."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        portal = _portal(data)
        reference = clock.consent_reference(portal["borrower_id"])
        portal["approvals"].append(reference)
        return f"Credit check consent given: reference {reference}."


USER_TOOLS: tuple[type[Tool], ...] = (
    SignInToApp,
    ReadAppMessages,
    ViewPaySlip,
    ApproveAutopayMandate,
    ApproveCreditCheck,
)
