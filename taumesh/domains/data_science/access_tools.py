"""The desk's access tools: granting and revoking access to data sets, sharing reports, and hand-offs.

A grant carries the code the data set's owner reads from their approval app; the tool refuses a code that was not
issued for that data set and that person. Whether the policy lets the person in at all (training, role) is the
agent's to judge, so that a trap's forbidden grant is possible and the agent must decline it.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.data_science.clock import GRANT_DAYS, TODAY, days_after, grant_code
from taumesh.domains.data_science.records import dump, fetch, one_of, params, text
from taumesh.domains.data_science.tables import has_grant

TEAMS = ("data_governance", "data_engineering", "analytics_lead")


class GrantAccess(Tool):
    name = "grant_access"
    writes = True
    description = (
        "Grant a person access to a restricted data set for 90 days, under the code the data set's owner reads"
        " from their approval app."
    )
    parameters = params(
        dataset_id=text("The data set's id."),
        requester_id=text("The id of the person to admit."),
        owner_code=text("The code from the owner's approval app, such as 'DO-1A2B3C'."),
    )

    @staticmethod
    def invoke(data: Data, dataset_id: str, requester_id: str, owner_code: str) -> str:
        fetch(data, "datasets", dataset_id, "data set")
        fetch(data, "requesters", requester_id, "requester")
        given = owner_code.strip().upper()
        if given != grant_code(dataset_id, requester_id):
            raise Refusal(f"that code was not issued for {requester_id} on {dataset_id}")
        if has_grant(data, dataset_id, requester_id):
            raise Refusal("that person already holds an active grant on the data set")
        earlier = sum(
            g["dataset_id"] == dataset_id and g["requester_id"] == requester_id for g in data["grants"].values()
        )
        key = f"gr-{dataset_id}-{requester_id}-{earlier + 1}"
        data["grants"][key] = {
            "grant_id": key,
            "dataset_id": dataset_id,
            "requester_id": requester_id,
            "granted_on": TODAY.isoformat(),
            "expires_on": days_after(TODAY, GRANT_DAYS),
            "status": "active",
            "owner_code": given,
            "revoked_on": None,
        }
        return dump(data["grants"][key])


class RevokeAccess(Tool):
    name = "revoke_access"
    writes = True
    description = "Revoke an active access grant from today."
    parameters = params(grant_id=text("The grant's id."))

    @staticmethod
    def invoke(data: Data, grant_id: str) -> str:
        grant = fetch(data, "grants", grant_id, "grant")
        if grant["status"] != "active":
            raise Refusal("the grant is already revoked")
        grant.update(status="revoked", revoked_on=TODAY.isoformat())
        return dump(grant)


class ShareReport(Tool):
    name = "share_report"
    writes = True
    description = "Share a published report with a colleague, who can then open it."
    parameters = params(report_id=text("The report's id."), recipient_id=text("The colleague's requester id."))

    @staticmethod
    def invoke(data: Data, report_id: str, recipient_id: str) -> str:
        report = fetch(data, "reports", report_id, "report")
        fetch(data, "requesters", recipient_id, "requester")
        if recipient_id in report["shared_with"]:
            raise Refusal("the report is already shared with that colleague")
        report["shared_with"] = sorted([*report["shared_with"], recipient_id])
        return dump(report)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the requester to a team (data governance, data engineering, the analytics lead); ends the chat."
    parameters = params(requester_id=text("The requester's id."), team=text("The team.", TEAMS))

    @staticmethod
    def invoke(data: Data, requester_id: str, team: str) -> str:
        fetch(data, "requesters", requester_id, "requester")
        one_of(team, TEAMS, "team")
        key = f"handoff-{len(data['handoffs']) + 1:03d}"
        data["handoffs"][key] = {"handoff_id": key, "requester_id": requester_id, "team": team}
        return "Transferred; the team takes the request from here."


ACCESS_TOOLS: tuple[type[Tool], ...] = (GrantAccess, RevokeAccess, ShareReport, TransferToHumanAgents)
