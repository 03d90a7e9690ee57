"""The attendee's own ticket app (``side = "user"``).

Its notifications (sign-in and release codes, offers), the tickets it holds, and accepting a ticket transfer offered
to them. The box office cannot see the app: the agent learns what it shows only from what the attendee reads out.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.events.access import dump, wallet_of
from taumesh.domains.events.clock import NOW, at, sign_in_code
from taumesh.domains.events.schema import params, string

ACCOUNT = string("The email your ticket app is signed in with.")


class AppTool(Tool):
    side = "user"


class ViewAppNotifications(AppTool):
    name = "view_app_notifications"
    description = "Open your ticket app: today's sign-in code, and its notifications newest last (codes, offers)."
    parameters = params(account_email=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_email: str) -> str:
        wallet = wallet_of(data, account_email)
        return dump({"sign_in_code": sign_in_code(wallet["attendee_id"]), "notifications": wallet["notifications"]})


class ViewWallet(AppTool):
    name = "view_wallet"
    description = "See the tickets in your ticket app, by booking reference."
    parameters = params(account_email=ACCOUNT)

    @staticmethod
    def invoke(data: Data, account_email: str) -> str:
        return dump(wallet_of(data, account_email)["tickets"])


class AcceptTransferOffer(AppTool):
    name = "accept_transfer_offer"
    writes = True
    description = "Accept, in your ticket app, tickets someone transferred to you; they move to your account."
    parameters = params(account_email=ACCOUNT, transfer_id=string("The transfer's id, as the offer shows it."))

    @staticmethod
    def invoke(data: Data, account_email: str, transfer_id: str) -> str:
        wallet = wallet_of(data, account_email)
        transfer = data["transfers"].get(transfer_id)
        if transfer is None or transfer["recipient_email"] != wallet["account_email"].lower():
            raise Refusal("no such offer in your app")
        if transfer["status"] != "offered" or transfer["offer_expires"] is None or at(transfer["offer_expires"]) <= NOW:
            raise Refusal("this offer has expired or is no longer open")
        order = data["orders"][transfer["order_id"]]
        if order["status"] != "active":
            raise Refusal("these tickets are no longer valid")
        sender = data["wallets"].get(order["attendee_id"])
        if sender is not None and order["reference"] in sender["tickets"]:
            sender["tickets"].remove(order["reference"])
        order["attendee_id"] = wallet["attendee_id"]
        order["transfers_made"] += 1
        transfer["status"] = "accepted"
        wallet["tickets"].append(order["reference"])
        return dump({"accepted": transfer_id, "reference": order["reference"]})


USER_TOOLS: tuple[type[Tool], ...] = (ViewAppNotifications, ViewWallet, AcceptTransferOffer)
