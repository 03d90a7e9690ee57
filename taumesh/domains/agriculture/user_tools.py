"""The grower's tools (``side = "user"``): their FieldLink app, signed in with their own PIN.

The desk cannot see the app. A soil probe's newest reading reaches the desk only when the grower syncs it (the sync
writes it into the desk's readings); a spray log reaches it only when the grower confirms it and reads out its
rate, finish time and reference.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.agriculture.clock import log_reference
from taumesh.domains.agriculture.schema import params, text


def _app(data: Data) -> Any:
    for app in data["field_apps"].values():
        if app["signed_in"]:
            return app
    raise Refusal("you are not signed in to FieldLink: sign in with your username and PIN first")


class GrowerTool(Tool):
    side = "user"


class SignInToFieldApp(GrowerTool):
    name = "sign_in_to_field_app"
    writes = True
    description = "Sign in to your FieldLink app with your username and PIN; the app's other tools need it."
    parameters = params(username=text("Your username."), pin=text("Your four-digit PIN."))

    @staticmethod
    def invoke(data: Data, username: str, pin: str) -> str:
        for app in data["field_apps"].values():
            if (app["username"], app["pin"]) == (username.strip(), pin.strip()):
                app["signed_in"] = True
                return "Signed in to FieldLink."
        raise Refusal("wrong username or PIN")


class SyncSoilProbes(GrowerTool):
    name = "sync_soil_probes"
    writes = True
    description = "Sync every soil probe on your farm with the co-op: the readings they hold are sent to the desk."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        app = _app(data)
        sent = []
        for sensor_id, pending in sorted(app["unsynced_readings"].items()):
            reading_id = f"rd-{sensor_id}-{pending['taken_at'][:10]}"
            if reading_id in data["readings"]:
                continue
            data["readings"][reading_id] = {
                "reading_id": reading_id,
                "sensor_id": sensor_id,
                "taken_at": pending["taken_at"],
                "soil_moisture_pct": pending["soil_moisture_pct"],
            }
            data["sensors"][sensor_id]["last_synced"] = pending["taken_at"]
            sent.append(sensor_id)
        return f"Synced {len(sent)} probe(s)." if sent else "Every probe is already synced."


class ViewSprayLog(GrowerTool):
    name = "view_spray_log"
    description = "Open the log your applicator kept of a spray job: the rate applied and when it finished."
    parameters = params(job_id=text("The job's id, as the desk gives it."))

    @staticmethod
    def invoke(data: Data, job_id: str) -> str:
        log = _app(data)["spray_logs"].get(job_id.strip())
        if log is None:
            raise Refusal("your app holds no log of that job")
        return json.dumps(log)


class ConfirmSprayLog(GrowerTool):
    name = "confirm_spray_log"
    writes = True
    description = "Confirm, in the app, that a spray log is right; the app shows the log and its reference."
    parameters = params(job_id=text("The job's id, as the desk gives it."))

    @staticmethod
    def invoke(data: Data, job_id: str) -> str:
        app = _app(data)
        log = app["spray_logs"].get(job_id.strip())
        if log is None:
            raise Refusal("your app holds no log of that job")
        reference = log_reference(job_id.strip())
        if reference not in app["confirmed_logs"]:
            app["confirmed_logs"].append(reference)
        return (
            f"Spray log confirmed: {log['applied_rate_l_ha']} L/ha applied, finished {log['finished_at']};"
            f" reference {reference}."
        )


USER_TOOLS: tuple[type[Tool], ...] = (SignInToFieldApp, SyncSoilProbes, ViewSprayLog, ConfirmSprayLog)
