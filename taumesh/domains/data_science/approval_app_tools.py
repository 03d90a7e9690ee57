"""The data owner's tools (``side = "user"``): their approval app, signed in with staff number and app PIN.

The desk cannot see the app: a grant code reaches the agent only when the owner reads it out. Showing the code is
the owner's own act of approval, which no one at the desk may do for them.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.data_science.clock import grant_code
from taumesh.domains.data_science.records import params, text


def _signed_in(data: Data) -> Any:
    for app in data["approval_apps"].values():
        if app["signed_in"]:
            return app
    raise Refusal("the approval app is locked: sign in with your staff number and app PIN first")


class OwnerTool(Tool):
    side = "user"


class ApprovalAppSignIn(OwnerTool):
    name = "approval_app_sign_in"
    writes = True
    description = "Sign in to your data-owner approval app with your staff number and app PIN."
    parameters = params(staff_number=text("Your staff number."), app_pin=text("Your app PIN."))

    @staticmethod
    def invoke(data: Data, staff_number: str, app_pin: str) -> str:
        for app in data["approval_apps"].values():
            if (app["staff_number"], app["app_pin"]) == (staff_number.strip().upper(), app_pin.strip()):
                app["signed_in"] = True
                return "Signed in. " + json.dumps(app["shown"])
        raise Refusal("staff number or app PIN not recognised")


class ShowGrantCode(OwnerTool):
    name = "show_grant_code"
    writes = True
    description = "Show the code that approves admitting one person to one of your data sets."
    parameters = params(dataset_id=text("Your data set's id."), requester_id=text("The id of the person to admit."))

    @staticmethod
    def invoke(data: Data, dataset_id: str, requester_id: str) -> str:
        app = _signed_in(data)
        dataset = data["datasets"].get(dataset_id.strip())
        if dataset is None or dataset["owner_id"] != app["owner_id"]:
            raise Refusal("that is not one of your data sets")
        if requester_id.strip() not in data["requesters"]:
            raise Refusal("no person with that id")
        code = grant_code(dataset_id.strip(), requester_id.strip())
        app["shown"].append(f"{dataset_id} for {requester_id}: {code}")
        return f"Approval code for admitting {requester_id} to {dataset_id}: {code}."


USER_TOOLS: tuple[type[Tool], ...] = (ApprovalAppSignIn, ShowGrantCode)
