"""Finding and verifying the policyholder: by date of birth and ZIP code, or by a code texted to their phone.

Each verification is recorded (a write), so an agent that verifies and then does nothing still leaves a trace
the grader compares: the desk's log of who was verified, and how.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.insurance.clock import security_code
from taumesh.domains.insurance.lookup import dump, record
from taumesh.domains.insurance.schema import params, string

HOLDER = string("The policyholder's id, such as 'ph-w1-001'.")


class FindPolicyholder(Tool):
    name = "find_policyholder"
    description = "Find a policyholder's id by first name, last name and date of birth (YYYY-MM-DD)."
    parameters = params(
        first_name=string("First name."), last_name=string("Last name."), date_of_birth=string("YYYY-MM-DD.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, date_of_birth: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), date_of_birth.strip())
        for holder in data["policyholders"].values():
            if (holder["first_name"].lower(), holder["last_name"].lower(), holder["date_of_birth"]) == wanted:
                return str(holder["policyholder_id"])
        raise Refusal("policyholder not found")


class VerifyPolicyholder(Tool):
    name = "verify_policyholder"
    writes = True
    description = "Verify the caller is the policyholder by their date of birth and the ZIP code of their address."
    parameters = params(policyholder_id=HOLDER, date_of_birth=string("YYYY-MM-DD."), zip_code=string("Five digits."))

    @staticmethod
    def invoke(data: Data, policyholder_id: str, date_of_birth: str, zip_code: str) -> str:
        holder = record(data, "policyholders", policyholder_id, "policyholder")
        if holder["date_of_birth"] != date_of_birth.strip() or holder["zip_code"] != zip_code.strip():
            raise Refusal("the details do not match the policyholder's record")
        entry = {"policyholder_id": policyholder_id, "method": "date_of_birth_and_zip", "verified": True}
        data["verifications"][policyholder_id] = {**entry, "codes_sent": 0, "code": None}
        return dump(entry)


class TextSecurityCode(Tool):
    name = "text_security_code"
    writes = True
    description = "Text a six-digit security code to the mobile number on the policyholder's record."
    parameters = params(policyholder_id=HOLDER)

    @staticmethod
    def invoke(data: Data, policyholder_id: str) -> str:
        holder = record(data, "policyholders", policyholder_id, "policyholder")
        earlier = data["verifications"].get(policyholder_id)
        sent = earlier["codes_sent"] + 1 if earlier is not None else 1
        code = security_code(policyholder_id, sent)
        data["verifications"][policyholder_id] = {
            "policyholder_id": policyholder_id,
            "method": "security_code",
            "verified": False,
            "codes_sent": sent,
            "code": code,
        }
        data["devices"][policyholder_id]["text_messages"].append(
            {"sender": "Harborline Mutual", "text": f"Your Harborline security code is {code}. Never share it."}
        )
        return f"A security code was texted to the number ending in {holder['phone'][-4:]}."


class ConfirmSecurityCode(Tool):
    name = "confirm_security_code"
    writes = True
    description = "Check the code the caller reads from their texts; only the last code sent is accepted."
    parameters = params(policyholder_id=HOLDER, code=string("The six digits the caller read."))

    @staticmethod
    def invoke(data: Data, policyholder_id: str, code: str) -> str:
        entry = data["verifications"].get(policyholder_id)
        if entry is None or entry["code"] is None:
            raise Refusal("no security code was sent to this policyholder")
        if entry["code"] != code.strip():
            raise Refusal("the code does not match the last one sent")
        entry["verified"] = True
        return dump({"policyholder_id": policyholder_id, "method": "security_code", "verified": True})


IDENTITY_TOOLS: tuple[type[Tool], ...] = (FindPolicyholder, VerifyPolicyholder, TextSecurityCode, ConfirmSecurityCode)
