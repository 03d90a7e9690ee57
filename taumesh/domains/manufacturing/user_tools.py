"""The operator's tools (``side = "user"``): their shop-floor handheld, signed in with their badge and PIN.

The desk cannot see the handheld: a lot label's scan reference and a lock-out tag reach the agent only when the
operator reads them out. Scanning a label proves the lot is physically in front of the operator; confirming a
lock-out is the operator's own act at the machine, which no one at a desk may do for them.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.manufacturing.clock import lockout_tag, scan_reference
from taumesh.domains.manufacturing.schema import params, text


def _signed_in(data: Data) -> Any:
    for handheld in data["handhelds"].values():
        if handheld["signed_in"]:
            return handheld
    raise Refusal("the handheld is locked: sign in with your badge number and PIN first")


class OperatorTool(Tool):
    side = "user"


class SignInToHandheld(OperatorTool):
    name = "sign_in_to_handheld"
    writes = True
    description = "Sign in to your shop-floor handheld with your badge number and handheld PIN."
    parameters = params(badge_number=text("Your badge number."), pin=text("Your handheld PIN."))

    @staticmethod
    def invoke(data: Data, badge_number: str, pin: str) -> str:
        for handheld in data["handhelds"].values():
            if (handheld["badge_number"], handheld["pin"]) == (badge_number.strip().upper(), pin.strip()):
                handheld["signed_in"] = True
                return "Signed in. " + json.dumps(handheld["screen"])
        raise Refusal("badge number or PIN not recognised")


class ScanLotLabel(OperatorTool):
    name = "scan_lot_label"
    writes = True
    description = "Scan the label of a lot in front of you; the handheld shows the scan reference."
    parameters = params(lot_id=text("The lot id printed on the label."))

    @staticmethod
    def invoke(data: Data, lot_id: str) -> str:
        handheld = _signed_in(data)
        lot = lot_id.strip()
        if lot not in data["lots"]:
            raise Refusal("the label does not read as a lot of this plant")
        reference = scan_reference(lot)
        handheld["screen"].append(f"Scanned {lot}: {reference}")
        return f"Label of {lot} scanned: scan reference {reference}."


class ConfirmLockout(OperatorTool):
    name = "confirm_lockout"
    writes = True
    description = "Confirm on the handheld that you have locked out and tagged a machine; it shows the tag number."
    parameters = params(machine_id=text("The machine id on the machine's plate."))

    @staticmethod
    def invoke(data: Data, machine_id: str) -> str:
        handheld = _signed_in(data)
        machine = machine_id.strip()
        if machine not in data["machines"]:
            raise Refusal("no machine with that plate id")
        tag = lockout_tag(machine)
        handheld["screen"].append(f"Locked out {machine}: tag {tag}")
        return f"Lock-out of {machine} confirmed: tag {tag}."


USER_TOOLS: tuple[type[Tool], ...] = (SignInToHandheld, ScanLotLabel, ConfirmLockout)
