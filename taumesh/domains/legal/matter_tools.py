"""The desk's writes over matters: conflict checks, intake, staffing, deadlines, closing, and hand-offs to a human.

The tools keep the records straight (ids exist, dates are dates); the policy's judgements (who may ask, whether a
conflict or an open deadline stands in the way) are the agent's to make, as at a real desk.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.legal.clock import DISPOSITIONS, PRACTICE_AREAS, TODAY, day
from taumesh.domains.legal.records import dump, fetch, next_id, one_of, tag_of
from taumesh.domains.legal.schema import params, text

MATTER = text("The matter's id, such as 'mat-w1-007'.")
LAWYER = text("A lawyer's attorney id, such as 'att-w1-03'.")


def conflict_hits(data: Data, client_name: str, adverse_party: str) -> list[str]:
    """The live matters (intake or open) that acting against ``adverse_party`` for ``client_name`` would cross."""
    against = adverse_party.strip().lower()
    ours = client_name.strip().lower()
    hits = []
    for matter in data["matters"].values():
        if matter["status"] == "closed":
            continue
        client = data["clients"][matter["client_id"]]["name"].lower()
        if client == against or matter["adverse_party"].lower() == ours:
            hits.append(matter["matter_id"])
    return sorted(hits)


class RunConflictCheck(Tool):
    name = "run_conflict_check"
    writes = True
    description = "Search the firm's live matters for a conflict in acting for a client against an adverse party."
    parameters = params(
        attorney_id=text("The partner who asks for the check."),
        client_id=text("The client the firm would act for."),
        adverse_party=text("The other side's name, exactly as given."),
    )

    @staticmethod
    def invoke(data: Data, attorney_id: str, client_id: str, adverse_party: str) -> str:
        fetch(data, "attorneys", attorney_id, "attorney")
        client = fetch(data, "clients", client_id, "client")
        hits = conflict_hits(data, client["name"], adverse_party)
        check_id = next_id(data, "conflict_checks", "chk", tag_of(client_id))
        data["conflict_checks"][check_id] = {
            "check_id": check_id,
            "client_id": client_id,
            "adverse_party": adverse_party.strip(),
            "run_by": attorney_id,
            "result": "conflict" if hits else "clear",
            "hits": hits,
            "escalated": False,
        }
        return dump(data["conflict_checks"][check_id])


class EscalateConflict(Tool):
    name = "escalate_conflict"
    writes = True
    description = "Refer a conflict check that found a conflict to the firm's general counsel."
    parameters = params(check_id=text("The conflict check's id, such as 'chk-w1-021'."))

    @staticmethod
    def invoke(data: Data, check_id: str) -> str:
        check = fetch(data, "conflict_checks", check_id, "conflict check")
        if check["result"] != "conflict":
            raise Refusal("this check found no conflict: there is nothing to refer")
        check["escalated"] = True
        return f"{check_id} is referred to the general counsel."


class OpenMatter(Tool):
    name = "open_matter"
    writes = True
    description = "Open a new matter at intake for a client, with the asking partner responsible for it."
    parameters = params(
        client_id=text("The client's id."),
        title=text("The matter's title, as the partner gives it."),
        practice_area=text("The practice area.", PRACTICE_AREAS),
        adverse_party=text("The other side's name."),
        attorney_id=text("The responsible partner's attorney id."),
    )

    @staticmethod
    def invoke(data: Data, client_id: str, title: str, practice_area: str, adverse_party: str, attorney_id: str) -> str:
        fetch(data, "clients", client_id, "client")
        fetch(data, "attorneys", attorney_id, "attorney")
        one_of(practice_area, PRACTICE_AREAS, "practice_area")
        checks = [
            c["check_id"]
            for c in data["conflict_checks"].values()
            if c["client_id"] == client_id and c["adverse_party"].lower() == adverse_party.strip().lower()
        ]
        matter_id = next_id(data, "matters", "mat", tag_of(client_id))
        data["matters"][matter_id] = {
            "matter_id": matter_id,
            "client_id": client_id,
            "title": title.strip(),
            "practice_area": practice_area,
            "responsible_attorney_id": attorney_id,
            "team": [attorney_id],
            "adverse_party": adverse_party.strip(),
            "status": "intake",
            "opened_on": TODAY.isoformat(),
            "conflict_check_id": checks[-1] if checks else None,
            "engagement_letter_id": None,
            "citations": [],
            "closed_on": None,
            "disposition": None,
        }
        return dump(data["matters"][matter_id])


class AddTeamMember(Tool):
    name = "add_team_member"
    writes = True
    description = "Add a lawyer of the firm to a matter's team."
    parameters = params(matter_id=MATTER, attorney_id=LAWYER)

    @staticmethod
    def invoke(data: Data, matter_id: str, attorney_id: str) -> str:
        matter = fetch(data, "matters", matter_id, "matter")
        lawyer = fetch(data, "attorneys", attorney_id, "attorney")
        if lawyer["status"] != "active":
            raise Refusal("this lawyer has left the firm")
        if attorney_id in matter["team"]:
            raise Refusal("this lawyer is on the team already")
        matter["team"].append(attorney_id)
        return dump(matter)


class MoveDeadline(Tool):
    name = "move_deadline"
    writes = True
    description = "Move a deadline to a new due date (YYYY-MM-DD); the date it had is kept in its moves."
    parameters = params(
        deadline_id=text("The deadline's id, such as 'ddl-w1-030'."), new_due_on=text("The new due date, YYYY-MM-DD.")
    )

    @staticmethod
    def invoke(data: Data, deadline_id: str, new_due_on: str) -> str:
        deadline = fetch(data, "deadlines", deadline_id, "deadline")
        try:
            due = day(new_due_on)
        except ValueError:
            raise Refusal(f"new_due_on must be a date written YYYY-MM-DD, not {new_due_on!r}") from None
        if deadline["status"] != "open":
            raise Refusal("this deadline has been met already")
        if due <= day(deadline["due_on"]):
            raise Refusal("a deadline is only ever moved later")
        deadline["moves"].append(deadline["due_on"])
        deadline["due_on"] = due.isoformat()
        return dump(deadline)


class CloseMatter(Tool):
    name = "close_matter"
    writes = True
    description = "Close an open matter today, with how it ended."
    parameters = params(matter_id=MATTER, disposition=text("How the matter ended.", DISPOSITIONS))

    @staticmethod
    def invoke(data: Data, matter_id: str, disposition: str) -> str:
        matter = fetch(data, "matters", matter_id, "matter")
        one_of(disposition, DISPOSITIONS, "disposition")
        if matter["status"] != "open":
            raise Refusal(f"only an open matter is closed; this one is {matter['status']}")
        matter.update(status="closed", closed_on=TODAY.isoformat(), disposition=disposition)
        return dump(matter)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the caller to a person at the firm's practice office, with the reason; ends the conversation."
    parameters = params(
        person_id=text("The caller's attorney or contact id."),
        reason=text("Why.", ("legal_advice", "complaint", "outside_the_desk")),
    )

    @staticmethod
    def invoke(data: Data, person_id: str, reason: str) -> str:
        one_of(reason, ("legal_advice", "complaint", "outside_the_desk"), "reason")
        handoff_id = next_id(data, "handoffs", "hnd", tag_of(person_id))
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "person_id": person_id, "reason": reason}
        return f"Transferred ({handoff_id})."


MATTER_TOOLS = (
    RunConflictCheck,
    EscalateConflict,
    OpenMatter,
    AddTeamMember,
    MoveDeadline,
    CloseMatter,
    TransferToHumanAgents,
)
