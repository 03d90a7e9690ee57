"""The employee's own phone (dual control): its authenticator app and its endpoint app.

The authenticator app enrols a new phone; the endpoint app checks one of their devices. Both are the user's tools;
the desk sees only the codes read out to it.

The apps open with the employee's work email and app PIN; what they show is kept on the phone's record, which the
state hash leaves out (:mod:`~taumesh.domains.cybersecurity.hashing`).
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.cybersecurity.clock import check_code, enrolment_code
from taumesh.domains.cybersecurity.records import params, text

_EMAIL = text("Your work email.")
_PIN = text("Your phone's app PIN.")


def _phone(data: Data, email: str, app_pin: str) -> Any:
    for phone in data["phones"].values():
        if (phone["email"], phone["app_pin"]) == (email.strip().lower(), app_pin.strip()):
            return phone
    raise Refusal("the app does not recognise that email and PIN")


class PhoneTool(Tool):
    side = "user"
    writes = True


class OpenAuthenticatorApp(PhoneTool):
    name = "open_authenticator_app"
    description = "Open the authenticator app on your new phone: it shows the phone's serial and its enrolment code."
    parameters = params(email=_EMAIL, app_pin=_PIN)

    @staticmethod
    def invoke(data: Data, email: str, app_pin: str) -> str:
        phone = _phone(data, email, app_pin)
        serial = phone["new_device_serial"]
        shown = f"New phone {serial} is ready to enrol. Enrolment code: {enrolment_code(phone['employee_id'], serial)}"
        phone["shown"].append(shown)
        return shown + "."


class RunEndpointCheck(PhoneTool):
    name = "run_endpoint_check"
    description = (
        "Run the endpoint app's check on one of your devices by hostname: it shows the result and a check code."
    )
    parameters = params(email=_EMAIL, app_pin=_PIN, hostname=text("The device's hostname."))

    @staticmethod
    def invoke(data: Data, email: str, app_pin: str, hostname: str) -> str:
        phone = _phone(data, email, app_pin)
        wanted = hostname.strip().lower()
        owned = [
            a for a in data["assets"].values() if a["owner_id"] == phone["employee_id"] and a["hostname"] == wanted
        ]
        if not owned:
            raise Refusal("no device of yours has that hostname")
        asset = owned[0]
        shown = f"Check of {wanted}: {asset['health']}. Check code: {check_code(asset['asset_id'], asset['health'])}"
        phone["shown"].append(shown)
        return shown + "."


USER_TOOLS: tuple[type[Tool], ...] = (OpenAuthenticatorApp, RunEndpointCheck)
