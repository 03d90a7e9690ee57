"""The user's own tools (``side = "user"``): a client's email inbox and e-signature app, a rep's calendar.

The desk cannot see any of them: it learns what is there only from what the user reads out, and a quote is signed
only by the client, in their own app (dual control).
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.sales.records import dump, record
from taumesh.domains.sales.schema import params, string

ADDRESS = string("Your own email address.")


class UserTool(Tool):
    side = "user"


class ReadMailbox(UserTool):
    name = "read_mailbox"
    description = "Read the emails in your inbox, newest last."
    parameters = params(email=ADDRESS)

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for mailbox in data["mailboxes"].values():
            if mailbox["address"] == email.strip().lower():
                return dump(mailbox["messages"])
        raise Refusal("no inbox at that address")


class OpenEsignApp(UserTool):
    name = "open_esign_app"
    description = "Open your e-signature app: the envelopes waiting for your signature."
    parameters = params(email=ADDRESS)

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        address = email.strip().lower()
        return dump([e for e in data["envelopes"].values() if e["signer_email"] == address and e["status"] == "sent"])


class SignEnvelope(UserTool):
    name = "sign_envelope"
    writes = True
    description = "Sign an envelope waiting in your e-signature app; the quote in it becomes signed."
    parameters = params(envelope_id=string("The envelope's id, such as 'env-w1-004'."))

    @staticmethod
    def invoke(data: Data, envelope_id: str) -> str:
        envelope = record(data, "envelopes", envelope_id, "envelope")
        if envelope["status"] != "sent":
            raise Refusal("this envelope is signed already")
        envelope["status"] = "signed"
        data["quotes"][envelope["quote_id"]]["status"] = "signed"
        return f"You signed envelope {envelope_id}."


class OpenCalendar(UserTool):
    name = "open_calendar"
    description = "Open your work calendar: your meetings and calls, with whom and when."
    parameters = params(email=ADDRESS)

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for calendar in data["calendars"].values():
            if calendar["owner_email"] == email.strip().lower():
                return dump(calendar["events"])
        raise Refusal("no calendar for that address")


USER_TOOLS = (ReadMailbox, OpenEsignApp, SignEnvelope, OpenCalendar)
