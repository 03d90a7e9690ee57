"""The operator's tools (``side = "user"``): their authenticator console, signed in with operator number and PIN.

The desk cannot see the console: a two-person approval code reaches the agent only when the operator reads it out.
Reading the code is the operator's own act of approval, which no one at the desk may do for them.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.space.clock import approval_code
from taumesh.domains.space.records import params, text

_APPROVABLE = ("maneuvers", "passes", "spacecraft")
"""What a code approves: a manoeuvre's burn, the commands of a pass, a spacecraft's mode change."""


def _signed_in(data: Data) -> Any:
    for console in data["consoles"].values():
        if console["signed_in"]:
            return console
    raise Refusal("the console is locked: sign in with your operator number and console PIN first")


class OperatorTool(Tool):
    side = "user"


class ConsoleSignIn(OperatorTool):
    name = "console_sign_in"
    writes = True
    description = "Sign in to your authenticator console with your operator number and console PIN."
    parameters = params(operator_number=text("Your operator number."), console_pin=text("Your console PIN."))

    @staticmethod
    def invoke(data: Data, operator_number: str, console_pin: str) -> str:
        for console in data["consoles"].values():
            if (console["operator_number"], console["console_pin"]) == (
                operator_number.strip().upper(),
                console_pin.strip(),
            ):
                console["signed_in"] = True
                return "Signed in. " + json.dumps(console["shown"])
        raise Refusal("operator number or console PIN not recognised")


class ShowApprovalCode(OperatorTool):
    name = "show_approval_code"
    writes = True
    description = "Show the two-person approval code for a manoeuvre, a pass's commands or a spacecraft's mode change."
    parameters = params(subject_id=text("The manoeuvre, pass or spacecraft id to approve."))

    @staticmethod
    def invoke(data: Data, subject_id: str) -> str:
        console = _signed_in(data)
        subject = subject_id.strip()
        if not any(subject in data[table] for table in _APPROVABLE):
            raise Refusal("no manoeuvre, pass or spacecraft with that id")
        code = approval_code(subject)
        console["shown"].append(f"Approval for {subject}: {code}")
        return f"Two-person approval code for {subject}: {code}."


USER_TOOLS: tuple[type[Tool], ...] = (ConsoleSignIn, ShowApprovalCode)
