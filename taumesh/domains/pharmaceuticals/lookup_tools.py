"""The desk's read tools: callers, studies, sites, participants, visits, adverse events, samples and paperwork.

They change nothing, so an agent may look as often as it needs, with one exception kept here because every call
starts with it: verifying a caller logs the check, so acting without one leaves a different desk log. No read tool
shows a participant's treatment arm: only an emergency unblinding does (blinding, policy section 6).
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.pharmaceuticals.clock import NOW
from taumesh.domains.pharmaceuticals.records import answer, fetch, matching
from taumesh.domains.pharmaceuticals.schema import arguments, string

_PARTICIPANT = string("The participant's id, such as 'ptp-w1-07'.")
HIDDEN = frozenset({"arm"})
"""Fields of a participant no read tool shows."""


def blinded(participant: Any) -> dict[str, Any]:
    """A participant record as the desk may show it: without the treatment arm."""
    return {key: value for key, value in participant.items() if key not in HIDDEN}


class FindCaller(Tool):
    name = "find_caller"
    description = "Look up a caller's id from the email address the trial desk holds for them."
    parameters = arguments(email=string("The caller's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        wanted = email.strip().lower()
        for caller in data["callers"].values():
            if caller["email"] == wanted:
                return str(caller["caller_id"])
        raise Refusal("the desk holds no caller with that email address")


class VerifyCaller(Tool):
    """Logs the check, so the desk's record shows who was verified before anything was done for them."""

    name = "verify_caller"
    writes = True
    description = (
        "Check the desk passcode a caller gives. Answers their role, their site, and for a participant their"
        " participant id."
    )
    parameters = arguments(caller_id=string("The caller's id."), passcode=string("The desk passcode the caller gives."))

    @staticmethod
    def invoke(data: Data, caller_id: str, passcode: str) -> str:
        caller = fetch(data, "callers", caller_id, "caller")
        if caller["desk_passcode"] != passcode.strip().lower():
            raise Refusal("the passcode does not match: the caller is not verified")
        data["verifications"][caller["caller_id"]] = {"caller_id": caller["caller_id"], "verified_at": NOW.isoformat()}
        shown = {key: caller[key] for key in ("caller_id", "role", "first_name", "last_name", "site_id")}
        enrolled = matching(data, "participants", caller_id=caller["caller_id"])
        if enrolled:
            shown["participant_id"] = enrolled[0]["participant_id"]
        return answer(shown)


class GetStudy(Tool):
    name = "get_study"
    description = (
        "A study's protocol: medicine, indication, arm names (never who is in which), current and earlier consent"
        " versions, eligibility limits (age, eGFR) and the visit window half-width in days."
    )
    parameters = arguments(study_id=string("The study's id, such as 'std-w1-2'."))

    @staticmethod
    def invoke(data: Data, study_id: str) -> str:
        return answer(fetch(data, "studies", study_id, "study"))


class GetSite(Tool):
    name = "get_site"
    description = "A trial site: its study, name, city, coordinator, enrolment cap, and how many it has randomised."
    parameters = arguments(site_id=string("The site's id, such as 'site-w1-3'."))

    @staticmethod
    def invoke(data: Data, site_id: str) -> str:
        site = fetch(data, "sites", site_id, "site")
        randomised = [p for p in matching(data, "participants", site_id=site["site_id"]) if p["kit_number"]]
        return answer({**site, "randomised": len(randomised)})


class ListSiteParticipants(Tool):
    name = "list_site_participants"
    description = "The participants of a site: id, status and consent version."
    parameters = arguments(site_id=string("The site's id."))

    @staticmethod
    def invoke(data: Data, site_id: str) -> str:
        fetch(data, "sites", site_id, "site")
        rows = matching(data, "participants", site_id=site_id.strip())
        return answer([{k: p[k] for k in ("participant_id", "status", "consent_version")} for p in rows])


class GetParticipant(Tool):
    name = "get_participant"
    description = (
        "A participant's record: study, site, date of birth, screening eGFR, status, kit number, consent version,"
        " withdrawal date and e-diary state. The treatment arm is blinded and never shown."
    )
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        return answer(blinded(fetch(data, "participants", participant_id, "participant")))


class ListVisits(Tool):
    name = "list_visits"
    description = "A participant's protocol visits in order: number, name, target date, status and date held or booked."
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        fetch(data, "participants", participant_id, "participant")
        return answer(matching(data, "visits", participant_id=participant_id.strip()))


class ListAdverseEvents(Tool):
    name = "list_adverse_events"
    description = (
        "A participant's adverse events: term, whether it led to hospital admission or was life-threatening, onset"
        " and site awareness dates, and whether and how it was reported to the sponsor."
    )
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        fetch(data, "participants", participant_id, "participant")
        return answer(matching(data, "adverse_events", participant_id=participant_id.strip()))


class GetSample(Tool):
    name = "get_sample"
    description = "A laboratory sample: participant, site, kind, collection date and any courier pickup booked."
    parameters = arguments(sample_id=string("The sample's id, such as 'smp-w1-04'."))

    @staticmethod
    def invoke(data: Data, sample_id: str) -> str:
        return answer(fetch(data, "samples", sample_id, "sample"))


class ListConsentForms(Tool):
    name = "list_consent_forms"
    description = "The consent forms sent to a participant's study app: version, date sent, date signed, filed or not."
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        fetch(data, "participants", participant_id, "participant")
        return answer(matching(data, "consent_forms", participant_id=participant_id.strip()))


class ListTravel(Tool):
    name = "list_travel"
    description = "A participant's travel receipts received by the desk and the travel claims paid to them."
    parameters = arguments(participant_id=_PARTICIPANT)

    @staticmethod
    def invoke(data: Data, participant_id: str) -> str:
        fetch(data, "participants", participant_id, "participant")
        key = participant_id.strip()
        return answer(
            {
                "receipts": matching(data, "receipts", participant_id=key),
                "claims": matching(data, "travel_claims", participant_id=key),
            }
        )


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindCaller,
    VerifyCaller,
    GetStudy,
    GetSite,
    ListSiteParticipants,
    GetParticipant,
    ListVisits,
    ListAdverseEvents,
    GetSample,
    ListConsentForms,
    ListTravel,
)
IDENTITY_TOOLS = frozenset({"find_caller", "verify_caller"})
"""Finding the caller by email and checking their desk passcode (policy 2.1)."""
