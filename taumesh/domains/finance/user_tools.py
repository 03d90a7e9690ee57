"""The client's own app (``side = "user"``): what awaits their approval, the approval itself, the risk questionnaire.

The desk cannot see the app or act in it: an order is placed, or a rebalance executed, only once the client has
approved it there, and a risk profile is recorded from a questionnaire the client submitted there (dual control).
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.finance.records import dump, params, text, whole

EMAIL = text("Your own email address (the one your app signs in with).")


class UserTool(Tool):
    side = "user"


def _client(data: Data, email: str) -> Any:
    for client in data["clients"].values():
        if client["email"] == email.strip().lower():
            return client
    raise Refusal("no app account signs in with that address")


class OpenWealthApp(UserTool):
    name = "open_wealth_app"
    description = "Open your wealth app: the order tickets and rebalancing requests waiting for your approval."
    parameters = params(email=EMAIL)

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        client = _client(data, email)
        mine = {a["account_id"] for a in data["accounts"].values() if a["client_id"] == client["client_id"]}
        waiting = [
            r
            for table in ("tickets", "rebalances")
            for r in data[table].values()
            if r["account_id"] in mine and r["status"] == "awaiting_client"
        ]
        return dump(waiting)


class ApproveRequest(UserTool):
    name = "approve_request"
    writes = True
    description = "Approve, in your app, an order ticket or a rebalancing request waiting for you."
    parameters = params(request_id=text("The ticket's or request's id, such as 'tk-w1-004' or 'rb-w1-002'."))

    @staticmethod
    def invoke(data: Data, request_id: str) -> str:
        table = "tickets" if request_id.startswith("tk-") else "rebalances"
        request = data[table].get(request_id)
        if request is None:
            raise Refusal(f"nothing called {request_id} is in your app")
        if request["status"] != "awaiting_client":
            raise Refusal("this is not waiting for your approval")
        request["status"] = "approved"
        return f"You approved {request_id}."


class SubmitRiskQuestionnaire(UserTool):
    name = "submit_risk_questionnaire"
    writes = True
    description = "Submit the risk questionnaire in your app with the total score your answers came to (0 to 40)."
    parameters = params(email=EMAIL, score=whole("Your answers' total score."))

    @staticmethod
    def invoke(data: Data, email: str, score: int) -> str:
        client = _client(data, email)
        if not 0 <= score <= 40:
            raise Refusal("a score runs from 0 to 40")
        client["questionnaire_score"] = score
        return "Your questionnaire was submitted: the desk can see your score."


USER_TOOLS = (OpenWealthApp, ApproveRequest, SubmitRiskQuestionnaire)
