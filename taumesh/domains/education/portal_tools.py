"""The student's tools (``side = "user"``): their learning portal, signed in with university number and portal PIN.

The desk cannot see the portal. A tutoring offer's confirmation code reaches the agent only when the student accepts
the offer there and reads it out; late work reaches the university only when the student uploads it there, into the
graded submissions.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.education.clock import TODAY, confirmation_code
from taumesh.domains.education.records import dump, fetch, new_id, params, text


def _signed_in(data: Data) -> Any:
    for portal in data["portals"].values():
        if portal["signed_in"]:
            return portal
    raise Refusal("the portal is locked: sign in with your university number and portal PIN first")


class StudentTool(Tool):
    side = "user"


class PortalSignIn(StudentTool):
    name = "portal_sign_in"
    writes = True
    description = "Sign in to your learning portal with your university number and portal PIN."
    parameters = params(university_number=text("Your university number."), portal_pin=text("Your portal PIN."))

    @staticmethod
    def invoke(data: Data, university_number: str, portal_pin: str) -> str:
        for portal in data["portals"].values():
            if (portal["university_number"], portal["portal_pin"]) == (
                university_number.strip().upper(),
                portal_pin.strip(),
            ):
                portal["signed_in"] = True
                return "Signed in to your learning portal."
        raise Refusal("university number or portal PIN not recognised")


class AcceptTutoringOffer(StudentTool):
    name = "accept_tutoring_offer"
    writes = True
    description = "Accept the desk's offer of a tutoring slot; the portal shows the confirmation code to read out."
    parameters = params(slot_id=text("The tutoring slot's id, as the agent gives it."))

    @staticmethod
    def invoke(data: Data, slot_id: str) -> str:
        portal = _signed_in(data)
        slot = fetch(data, "tutoring_slots", slot_id.strip(), "tutoring slot")
        if slot["status"] != "open":
            raise Refusal("this slot is no longer on offer")
        code = confirmation_code(slot["slot_id"], portal["person_id"])
        portal["shown"].append(f"Tutoring {slot['slot_id']}: {code}")
        return f"Offer accepted. Confirmation code for {slot['slot_id']}: {code}."


class UploadSubmission(StudentTool):
    name = "upload_submission"
    writes = True
    description = "Upload your file for an assignment; an overdue one needs a late window the desk has opened."
    parameters = params(assignment_id=text("The assignment's id."), file_name=text("Your file, such as 'essay.pdf'."))

    @staticmethod
    def invoke(data: Data, assignment_id: str, file_name: str) -> str:
        portal = _signed_in(data)
        who = portal["person_id"]
        assignment = fetch(data, "assignments", assignment_id.strip(), "assignment")
        key = assignment["assignment_id"]
        if any((s["student_id"], s["assignment_id"]) == (who, key) for s in data["submissions"].values()):
            raise Refusal("you have handed this assignment in already")
        window = any((w["student_id"], w["assignment_id"]) == (who, key) for w in data["late_windows"].values())
        if assignment["due"] < TODAY.isoformat() and not window:
            raise Refusal("this assignment is overdue: ask student services to open a late window")
        sub_id = new_id(data, "submissions", "sub")
        record = {
            "submission_id": sub_id,
            "assignment_id": key,
            "student_id": who,
            "submitted_on": TODAY.isoformat(),
            "file_name": file_name.strip(),
            "mark": None,
        }
        data["submissions"][sub_id] = record
        return dump(record)


USER_TOOLS: tuple[type[Tool], ...] = (PortalSignIn, AcceptTutoringOffer, UploadSubmission)
