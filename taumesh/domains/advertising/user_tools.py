"""The advertiser's own ads dashboard (``side = "user"``): where they see and approve the changes the desk prepares.

The desk cannot approve a change for them: a new daily budget or spend cap takes effect only when the advertiser
approves its request here (dual control).
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.advertising.records import dump, params, record, string

EMAIL = string("Your own email address, the one you sign in with.")
REQUEST = string("The change request's id, such as 'chg-w1-004'.")


class UserTool(Tool):
    side = "user"


def _awaiting(data: Data, request_id: str) -> dict[str, object]:
    request: dict[str, object] = record(data, "change_requests", request_id, "change request")
    if request["status"] != "awaiting_advertiser":
        raise Refusal("this change request is not awaiting your approval")
    return request


class OpenDashboard(UserTool):
    name = "open_dashboard"
    description = "Open your ads dashboard: the change requests waiting for your approval."
    parameters = params(email=EMAIL)

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for advertiser in data["advertisers"].values():
            if advertiser["email"] == email.strip().lower():
                mine = advertiser["advertiser_id"]
                return dump(
                    [
                        r
                        for r in data["change_requests"].values()
                        if r["advertiser_id"] == mine and r["status"] == "awaiting_advertiser"
                    ]
                )
        raise Refusal("no dashboard signs in with that email")


class ApproveChangeRequest(UserTool):
    name = "approve_change_request"
    writes = True
    description = "Approve a change request in your dashboard; the new budget or spend cap takes effect at once."
    parameters = params(request_id=REQUEST)

    @staticmethod
    def invoke(data: Data, request_id: str) -> str:
        request = _awaiting(data, request_id)
        if request["kind"] == "daily_budget":
            campaign = data["campaigns"][request["target_id"]]
            campaign["budget_history"].append(campaign["daily_budget"])
            campaign["daily_budget"] = request["new_value"]
        else:
            data["advertisers"][request["target_id"]]["monthly_spend_cap"] = request["new_value"]
        request["status"] = "applied"
        return f"You approved {request_id}: it is applied."


class DeclineChangeRequest(UserTool):
    name = "decline_change_request"
    writes = True
    description = "Decline a change request in your dashboard; nothing changes."
    parameters = params(request_id=REQUEST)

    @staticmethod
    def invoke(data: Data, request_id: str) -> str:
        _awaiting(data, request_id)["status"] = "declined"
        return f"You declined {request_id}."


USER_TOOLS = (OpenDashboard, ApproveChangeRequest, DeclineChangeRequest)
