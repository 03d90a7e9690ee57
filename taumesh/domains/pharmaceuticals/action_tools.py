"""The desk's write tools: visits, randomisation, safety reports, unblinding, samples, consent, diaries, travel.

Tools refuse only what the records themselves rule out (an unknown id, a malformed date, a code that does not match,
a second report of one event); the protocol's rules (windows, eligibility, deadlines, blinding) are the agent's to
apply, as in τ-bench, so that a wrong write is possible and can be graded. A value a tool replaces is kept in a
history field, so a wrong write followed by the right one still leaves a trace.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.pharmaceuticals.clock import TODAY, arm_index, consent_form_id, kit_number, unlock_code
from taumesh.domains.pharmaceuticals.records import answer, calendar_day, choice, fetch, next_id
from taumesh.domains.pharmaceuticals.schema import arguments, euros, string

SCREEN_FAILURES = ["age_out_of_range", "egfr_below_minimum"]
SERIOUSNESS = ["serious", "non_serious"]
DEVIATIONS = ["late_safety_report", "visit_out_of_window", "sample_unstable"]
HANDOFF_REASONS = ["medical_emergency", "complaint", "data_protection_request", "protocol_question"]
_TODAY = TODAY.isoformat()
_PARTICIPANT = string("The participant's id.")


class ScheduleVisit(Tool):
    name = "schedule_visit"
    writes = True
    description = "Book (or move) a participant's protocol visit to a date; an earlier booked date is kept in history."
    parameters = arguments(visit_id=string("The visit's id, such as 'vis-w1-07-4'."), date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, visit_id: str, date: str) -> str:
        visit = fetch(data, "visits", visit_id, "visit")
        when = calendar_day(date, "date")
        if visit["status"] == "completed":
            raise Refusal("that visit has taken place already")
        if visit["visit_date"]:
            visit["date_history"].append(visit["visit_date"])
        visit.update(visit_date=when, status="booked")
        return answer(visit)


class RandomiseParticipant(Tool):
    """Assigns the kit and the arm; answers the kit only, since the arm stays blinded."""

    name = "randomise_participant"
    writes = True
    description = "Randomise a screened participant: they are allocated a treatment arm (blinded) and a kit number."
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        if participant["kit_number"]:
            raise Refusal("that participant has been randomised already")
        arms = data["studies"][participant["study_id"]]["arms"]
        participant["status_history"].append(participant["status"])
        participant.update(
            status="randomised",
            kit_number=kit_number(participant["participant_id"]),
            arm=arms[arm_index(participant["participant_id"], len(arms))],
        )
        return answer({"participant_id": participant["participant_id"], "kit_number": participant["kit_number"]})


class ReplaceKit(Tool):
    """Dispenses a new kit of the same arm, so the replacement keeps the blind."""

    name = "replace_kit"
    writes = True
    description = "Issue a randomised participant a replacement medication kit from their arm's stock (blinded)."
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        if not participant["kit_number"]:
            raise Refusal("that participant has not been randomised")
        participant["kit_history"].append(participant["kit_number"])
        participant["kit_number"] = kit_number(participant["participant_id"], len(participant["kit_history"]))
        return answer({"participant_id": participant["participant_id"], "kit_number": participant["kit_number"]})


class RecordScreenFailure(Tool):
    name = "record_screen_failure"
    writes = True
    description = "Record that a participant in screening failed an eligibility criterion; they are not randomised."
    parameters = arguments(participant_id=_PARTICIPANT, reason=string("The criterion failed.", SCREEN_FAILURES))

    @staticmethod
    def invoke(data: Data, participant_id: str, reason: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        participant["status_history"].append(participant["status"])
        participant.update(status="screen_failed", screen_failure_reason=choice(reason, SCREEN_FAILURES, "reason"))
        return answer({k: participant[k] for k in ("participant_id", "status", "screen_failure_reason")})


class SubmitAdverseEvent(Tool):
    name = "submit_adverse_event"
    writes = True
    description = "Submit a site's draft adverse-event report to the sponsor's safety team, classified by seriousness."
    parameters = arguments(
        ae_id=string("The adverse event's id, such as 'ae-w1-03'."),
        seriousness=string("The classification.", SERIOUSNESS),
    )

    @staticmethod
    def invoke(data: Data, ae_id: str, seriousness: str) -> str:
        event = fetch(data, "adverse_events", ae_id, "adverse event")
        if event["status"] == "submitted":
            raise Refusal("that adverse event has been submitted already")
        event.update(
            status="submitted", seriousness=choice(seriousness, SERIOUSNESS, "seriousness"), submitted_on=_TODAY
        )
        return answer(event)


class LogDeviation(Tool):
    name = "log_deviation"
    writes = True
    description = "Log a protocol deviation against a participant, dated today."
    parameters = arguments(participant_id=_PARTICIPANT, kind=string("The deviation.", DEVIATIONS))

    @staticmethod
    def invoke(data: Data, participant_id: str, kind: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        deviation_id = next_id(data, "deviations", "dev")
        data["deviations"][deviation_id] = {
            "deviation_id": deviation_id,
            "participant_id": participant["participant_id"],
            "kind": choice(kind, DEVIATIONS, "kind"),
            "logged_on": _TODAY,
        }
        return answer(data["deviations"][deviation_id])


class UnblindParticipant(Tool):
    """The only tool that shows an arm: the emergency code-break, logged against the event that justified it."""

    name = "unblind_participant"
    writes = True
    description = (
        "Emergency code-break: reveal a randomised participant's treatment arm, logged against the adverse event"
        " that requires it."
    )
    parameters = arguments(participant_id=_PARTICIPANT, ae_id=string("The adverse event that requires it."))

    @staticmethod
    def invoke(data: Data, participant_id: str, ae_id: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        event = fetch(data, "adverse_events", ae_id, "adverse event")
        if event["participant_id"] != participant["participant_id"]:
            raise Refusal("that adverse event belongs to another participant")
        if not participant["arm"]:
            raise Refusal("that participant has not been randomised")
        unblinding_id = next_id(data, "unblindings", "unb")
        data["unblindings"][unblinding_id] = {
            "unblinding_id": unblinding_id,
            "participant_id": participant["participant_id"],
            "ae_id": event["ae_id"],
            "requested_by": "trial_desk",
            "on": _TODAY,
        }
        participant["unblinded"] = True
        return answer({"participant_id": participant["participant_id"], "arm": participant["arm"]})


class BookSamplePickup(Tool):
    name = "book_sample_pickup"
    writes = True
    description = "Book the central laboratory's courier to collect a sample from its site on a date."
    parameters = arguments(sample_id=string("The sample's id."), date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, sample_id: str, date: str) -> str:
        sample = fetch(data, "samples", sample_id, "sample")
        when = calendar_day(date, "date")
        if sample["pickup_date"]:
            sample["pickup_history"].append(sample["pickup_date"])
        sample["pickup_date"] = when
        return answer(sample)


class SendConsentForm(Tool):
    name = "send_consent_form"
    writes = True
    description = "Send a version of the study's consent form to the participant's study app for e-signature."
    parameters = arguments(participant_id=_PARTICIPANT, version=string("The consent version, such as 'v3'."))

    @staticmethod
    def invoke(data: Data, participant_id: str, version: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        study = data["studies"][participant["study_id"]]
        choice(version, list(study["consent_versions"]), "version")
        form_id = consent_form_id(participant["participant_id"], version)
        if form_id in data["consent_forms"]:
            raise Refusal("that version has been sent to this participant already")
        data["consent_forms"][form_id] = {
            "form_id": form_id,
            "participant_id": participant["participant_id"],
            "version": version,
            "sent_on": _TODAY,
            "signed_on": None,
            "filed": False,
        }
        return answer(data["consent_forms"][form_id])


class FileConsent(Tool):
    name = "file_consent"
    writes = True
    description = "File a consent form the participant has e-signed: it becomes their consent version on record."
    parameters = arguments(form_id=string("The consent form's id."))

    @staticmethod
    def invoke(data: Data, form_id: str) -> str:
        form = fetch(data, "consent_forms", form_id, "consent form")
        if not form["signed_on"]:
            raise Refusal("the participant has not signed that form in their app yet")
        if form["filed"]:
            raise Refusal("that form is filed already")
        participant = data["participants"][form["participant_id"]]
        participant["consent_history"].append(participant["consent_version"])
        participant["consent_version"] = form["version"]
        form["filed"] = True
        return answer({"participant_id": participant["participant_id"], "consent_version": form["version"]})


class SendDiaryUnlockCode(Tool):
    name = "send_diary_unlock_code"
    writes = True
    description = "Send a one-time e-diary unlock code to the participant's study app (the desk does not see it)."
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        message_id = next_id(data, "app_messages", "msg")
        code = unlock_code(participant["participant_id"], participant["diary_unlocks"])
        data["app_messages"][message_id] = {
            "message_id": message_id,
            "caller_id": participant["caller_id"],
            "text": f"Your e-diary unlock code is {code}. Read it to the trial desk.",
        }
        return "Code sent to the participant's study app."


class UnlockDiary(Tool):
    name = "unlock_diary"
    writes = True
    description = "Reopen a participant's e-diary with the unlock code they read from their study app."
    parameters = arguments(participant_id=_PARTICIPANT, code=string("The code the participant reads out."))

    @staticmethod
    def invoke(data: Data, participant_id: str, code: str) -> str:
        participant = fetch(data, "participants", participant_id, "participant")
        if code.strip() != unlock_code(participant["participant_id"], participant["diary_unlocks"]):
            raise Refusal("that code does not match the one sent")
        participant["diary_unlocks"] += 1
        participant["diary_status"] = "open"
        return answer({k: participant[k] for k in ("participant_id", "diary_status", "diary_unlocks")})


class PayTravelClaim(Tool):
    name = "pay_travel_claim"
    writes = True
    description = "Pay a participant's travel claim for one visit to their bank account on file."
    parameters = arguments(visit_id=string("The visit's id."), amount=euros("Euros paid."))

    @staticmethod
    def invoke(data: Data, visit_id: str, amount: float) -> str:
        visit = fetch(data, "visits", visit_id, "visit")
        if any(c["visit_id"] == visit["visit_id"] for c in data["travel_claims"].values()):
            raise Refusal("a travel claim for that visit has been paid already")
        claim_id = next_id(data, "travel_claims", "clm")
        data["travel_claims"][claim_id] = {
            "claim_id": claim_id,
            "visit_id": visit["visit_id"],
            "participant_id": visit["participant_id"],
            "amount": round(float(amount), 2),
            "paid_on": _TODAY,
        }
        return answer(data["travel_claims"][claim_id])


class TransferToHumanAgents(Tool):
    """Files the hand-off and ends the call (a write: the hand-off is on record)."""

    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the caller to the sponsor's clinical team; the call ends. Give the caller id ('' if unknown)."
    parameters = arguments(caller_id=string("The caller's id, or ''."), reason=string("Why.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, caller_id: str, reason: str) -> str:
        if caller_id:
            fetch(data, "callers", caller_id, "caller")
        handoff_id = next_id(data, "handoffs", "hnd")
        data["handoffs"][handoff_id] = {
            "handoff_id": handoff_id,
            "caller_id": caller_id,
            "reason": choice(reason, HANDOFF_REASONS, "reason"),
        }
        return "Transfer successful: the sponsor's clinical team takes over the call."


ACTION_TOOLS: tuple[type[Tool], ...] = (
    ScheduleVisit,
    RandomiseParticipant,
    ReplaceKit,
    RecordScreenFailure,
    SubmitAdverseEvent,
    LogDeviation,
    UnblindParticipant,
    BookSamplePickup,
    SendConsentForm,
    FileConsent,
    SendDiaryUnlockCode,
    UnlockDiary,
    PayTravelClaim,
    TransferToHumanAgents,
)
