"""The client's tools (``side = "user"``): their tracking app, signed in with their own username and PIN.

The desk cannot see the app: a passcode, the safe place a consignee chose, or the photos they uploaded reach the
agent only when the client reads out what the app shows. Each choice returns the reference the agent's write needs.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.logistics import clock
from taumesh.domains.logistics.schema import params, text
from taumesh.domains.logistics.shipment_tools import SAFE_PLACES


def _app(data: Data) -> Any:
    for app in data["tracking_apps"].values():
        if app["signed_in"]:
            return app
    raise Refusal("you are not signed in to your tracking app: sign in with your username and PIN first")


def _own_shipment(data: Data, app: Any, shipment_id: str) -> Any:
    shipment = data["shipments"].get(shipment_id.strip())
    if shipment is None or app["client_id"] not in (shipment["shipper_id"], shipment["consignee_id"]):
        raise Refusal("no shipment with that tracking number is on your account")
    return shipment


class ClientAppTool(Tool):
    side = "user"


class SignInToTrackingApp(ClientAppTool):
    name = "sign_in_to_tracking_app"
    writes = True
    description = "Sign in to your tracking app with your username and PIN; the app's other features need it."
    parameters = params(username=text("Your username."), pin=text("Your PIN."))

    @staticmethod
    def invoke(data: Data, username: str, pin: str) -> str:
        for app in data["tracking_apps"].values():
            if (app["username"], app["pin"]) == (username.strip(), pin.strip()):
                app["signed_in"] = True
                return "Signed in."
        raise Refusal("wrong username or PIN")


class ReadAppInbox(ClientAppTool):
    name = "read_app_inbox"
    description = "Read the messages in your tracking app's inbox, newest last."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_app(data)["inbox"])


class ChooseSafePlace(ClientAppTool):
    name = "choose_safe_place"
    writes = True
    description = "Choose, in the app, where a parcel you are receiving may be left; the app shows a reference."
    parameters = params(shipment_id=text("The tracking number."), place=text("Where it may be left.", SAFE_PLACES))

    @staticmethod
    def invoke(data: Data, shipment_id: str, place: str) -> str:
        app = _app(data)
        _own_shipment(data, app, shipment_id)
        if place not in SAFE_PLACES:
            raise Refusal(f"choose one of {SAFE_PLACES}")
        reference = clock.safe_place_reference(shipment_id.strip(), place)
        app["safe_place_choices"].append(reference)
        return f"Safe place {place} chosen: reference {reference}."


class UploadDamagePhotos(ClientAppTool):
    name = "upload_damage_photos"
    writes = True
    description = "Upload, in the app, the photos you took of a damaged parcel; the app shows their reference."
    parameters = params(shipment_id=text("The tracking number."))

    @staticmethod
    def invoke(data: Data, shipment_id: str) -> str:
        app = _app(data)
        _own_shipment(data, app, shipment_id)
        reference = clock.photo_reference(shipment_id.strip())
        app["uploaded_photos"].append(reference)
        return f"Photos uploaded: reference {reference}."


USER_TOOLS: tuple[type[Tool], ...] = (SignInToTrackingApp, ReadAppInbox, ChooseSafePlace, UploadDamagePhotos)
