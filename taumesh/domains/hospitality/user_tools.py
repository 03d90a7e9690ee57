"""The guest's own tools (``side = "user"``): the hotel app on their phone.

The desk cannot see the phone: the agent learns what is there only from what the guest reads out. The app opens
with the guest's PIN, which also says whose phone it is; codes and mobile keys arrive in it, and its settings show the
device code a mobile key is issued to. The phones are outside the state hash (:mod:`.hashing`).
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.hospitality.schema import obj, text


def _app(data: Data) -> Any:
    for phone in data["phones"].values():
        if phone["signed_in"]:
            return phone
    raise Refusal("the hotel app is signed out: open it with your PIN first")


class GuestTool(Tool):
    side = "user"


class OpenHotelApp(GuestTool):
    name = "open_hotel_app"
    writes = True
    description = "Open the hotel app on your phone with your app PIN; the app's other tools need it open."
    parameters = obj(pin=text("Your app PIN."))

    @staticmethod
    def invoke(data: Data, pin: str) -> str:
        for phone in data["phones"].values():
            if phone["app_pin"] == pin.strip():
                phone["signed_in"] = True
                return "The hotel app is open."
        raise Refusal("wrong PIN")


class ViewAppInbox(GuestTool):
    name = "view_app_inbox"
    description = "Read the messages in the hotel app, newest last."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_app(data)["inbox"])


class ViewLoyaltyCard(GuestTool):
    name = "view_loyalty_card"
    description = "Show your loyalty card in the app: tier, member number and points balance."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        guest = data["guests"][_app(data)["guest_id"]]
        card = {k: guest[k] for k in ("loyalty_tier", "member_number", "points")}
        return json.dumps(card)


class ViewDeviceCode(GuestTool):
    name = "view_device_code"
    description = "Open the app's settings, which show this phone's device code for mobile keys."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps({"device_code": _app(data)["device_code"]})


class ViewDigitalKeys(GuestTool):
    name = "view_digital_keys"
    description = "List the mobile keys in the app and whether each is active."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_app(data)["keys"])


class ActivateDigitalKey(GuestTool):
    name = "activate_digital_key"
    writes = True
    description = "Activate the mobile key the front desk sent to your app, so your phone opens the room door."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        pending = [key for key in _app(data)["keys"] if key["status"] == "pending"]
        if not pending:
            raise Refusal("no mobile key is waiting in the app")
        for key in pending:
            key["status"] = "active"
        return json.dumps(pending)


USER_TOOLS: tuple[type[Tool], ...] = (
    OpenHotelApp,
    ViewAppInbox,
    ViewLoyaltyCard,
    ViewDeviceCode,
    ViewDigitalKeys,
    ActivateDigitalKey,
)
"""Every tool on the guest's side."""
