"""The desk's pipeline tools: losing a deal, close dates and forecast, activities, follow-ups, ownership, hand-offs."""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.sales.clock import TODAY, day
from taumesh.domains.sales.lookup_tools import ACCOUNT, OPPORTUNITY
from taumesh.domains.sales.quote_tools import OPEN_STAGES
from taumesh.domains.sales.records import dump, next_id, record, valid_day, world_tag
from taumesh.domains.sales.schema import params, string

LOST_REASONS = ["price", "competitor", "no_budget", "no_decision", "timing"]
FORECASTS = ["pipeline", "best_case", "commit"]
HANDOFF_REASONS = ["legal_or_contract_terms", "complaint", "deal_desk_exception", "out_of_scope"]
CONTACT = string("The contact's id.")
REP = string("The rep's id.")


def _open(data: Data, opportunity_id: str) -> Any:
    opportunity = record(data, "opportunities", opportunity_id, "opportunity")
    if opportunity["stage"] not in OPEN_STAGES:
        raise Refusal("the opportunity is closed")
    return opportunity


def _contact_of(data: Data, opportunity: Any, contact_id: str) -> Any:
    contact = record(data, "contacts", contact_id, "contact")
    if contact["account_id"] != opportunity["account_id"]:
        raise Refusal("the contact is not on the opportunity's account")
    return contact


def _active_rep(data: Data, rep_id: str) -> Any:
    rep = record(data, "reps", rep_id, "rep")
    if rep["status"] != "active":
        raise Refusal("the rep has left the company")
    return rep


class MarkOpportunityLost(Tool):
    name = "mark_opportunity_lost"
    writes = True
    description = "Close an open opportunity as lost, with the reason."
    parameters = params(opportunity_id=OPPORTUNITY, reason=string("Why it was lost.", LOST_REASONS))

    @staticmethod
    def invoke(data: Data, opportunity_id: str, reason: str) -> str:
        opportunity = _open(data, opportunity_id)
        if reason not in LOST_REASONS:
            raise Refusal(f"the reason is one of {', '.join(LOST_REASONS)}")
        opportunity.update(stage="closed_lost", forecast_category="closed", lost_reason=reason)
        return dump(opportunity)


class UpdateCloseDate(Tool):
    name = "update_close_date"
    writes = True
    description = (
        "Set an open opportunity's expected close date (YYYY-MM-DD, after today); each change is counted on the"
        " opportunity."
    )
    parameters = params(opportunity_id=OPPORTUNITY, close_date=string("The new close date, YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, opportunity_id: str, close_date: str) -> str:
        opportunity = _open(data, opportunity_id)
        if day(valid_day(close_date, "close_date")) <= TODAY:
            raise Refusal("a close date must be after today")
        opportunity["close_date_changes"] += 1
        opportunity["close_date"] = close_date
        return dump(opportunity)


class SetForecastCategory(Tool):
    name = "set_forecast_category"
    writes = True
    description = "Set an open opportunity's forecast category."
    parameters = params(opportunity_id=OPPORTUNITY, category=string("The category.", FORECASTS))

    @staticmethod
    def invoke(data: Data, opportunity_id: str, category: str) -> str:
        opportunity = _open(data, opportunity_id)
        if category not in FORECASTS:
            raise Refusal(f"the category is one of {', '.join(FORECASTS)}")
        opportunity["forecast_category"] = category
        return dump(opportunity)


class LogActivity(Tool):
    name = "log_activity"
    writes = True
    description = (
        "Log a meeting or call that took place with a contact on an opportunity (by its owner);"
        " the opportunity's last activity date follows it."
    )
    parameters = params(
        opportunity_id=OPPORTUNITY,
        contact_id=CONTACT,
        kind=string("What it was.", ["meeting", "call"]),
        date=string("The day it took place, YYYY-MM-DD."),
    )

    @staticmethod
    def invoke(data: Data, opportunity_id: str, contact_id: str, kind: str, date: str) -> str:
        opportunity = record(data, "opportunities", opportunity_id, "opportunity")
        _contact_of(data, opportunity, contact_id)
        if kind not in ("meeting", "call"):
            raise Refusal("the kind is meeting or call")
        if day(valid_day(date, "date")) > TODAY:
            raise Refusal("only what has taken place is logged")
        activity_id = next_id(data, "activities", "act", world_tag(opportunity_id), width=4)
        activity = {
            "activity_id": activity_id,
            "opportunity_id": opportunity_id,
            "contact_id": contact_id,
            "rep_id": opportunity["owner_rep_id"] or "",
            "kind": kind,
            "date": date,
        }
        data["activities"][activity_id] = activity
        opportunity["last_activity_date"] = max(opportunity["last_activity_date"], date)
        return dump(activity)


class ScheduleFollowUp(Tool):
    name = "schedule_follow_up"
    writes = True
    description = "Schedule a follow-up email or call with a contact on an open opportunity, for its owner."
    parameters = params(
        opportunity_id=OPPORTUNITY,
        contact_id=CONTACT,
        channel=string("How to follow up.", ["email", "call"]),
        due_date=string("The day it is due, YYYY-MM-DD, after today."),
    )

    @staticmethod
    def invoke(data: Data, opportunity_id: str, contact_id: str, channel: str, due_date: str) -> str:
        opportunity = _open(data, opportunity_id)
        _contact_of(data, opportunity, contact_id)
        if channel not in ("email", "call"):
            raise Refusal("the channel is email or call")
        if day(valid_day(due_date, "due_date")) <= TODAY:
            raise Refusal("a follow-up is due after today")
        follow_up_id = next_id(data, "follow_ups", "fu", world_tag(opportunity_id))
        follow_up = {
            "follow_up_id": follow_up_id,
            "opportunity_id": opportunity_id,
            "contact_id": contact_id,
            "rep_id": opportunity["owner_rep_id"] or "",
            "channel": channel,
            "due_date": due_date,
            "status": "open",
        }
        data["follow_ups"][follow_up_id] = follow_up
        return dump(follow_up)


class CancelFollowUp(Tool):
    name = "cancel_follow_up"
    writes = True
    description = "Cancel an open follow-up."
    parameters = params(follow_up_id=string("The follow-up's id, such as 'fu-w1-004'."))

    @staticmethod
    def invoke(data: Data, follow_up_id: str) -> str:
        follow_up = record(data, "follow_ups", follow_up_id, "follow-up")
        if follow_up["status"] != "open":
            raise Refusal("the follow-up is not open")
        follow_up["status"] = "cancelled"
        return dump(follow_up)


class AssignAccountOwner(Tool):
    name = "assign_account_owner"
    writes = True
    description = "Make an active rep the owner of an account (its open opportunities are reassigned separately)."
    parameters = params(account_id=ACCOUNT, rep_id=REP)

    @staticmethod
    def invoke(data: Data, account_id: str, rep_id: str) -> str:
        account = record(data, "accounts", account_id, "account")
        _active_rep(data, rep_id)
        account["owner_rep_id"] = rep_id
        return dump(account)


class ReassignOpportunity(Tool):
    name = "reassign_opportunity"
    writes = True
    description = "Make an active rep the owner of an open opportunity."
    parameters = params(opportunity_id=OPPORTUNITY, rep_id=REP)

    @staticmethod
    def invoke(data: Data, opportunity_id: str, rep_id: str) -> str:
        opportunity = _open(data, opportunity_id)
        _active_rep(data, rep_id)
        opportunity["owner_rep_id"] = rep_id
        return dump(opportunity)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the conversation to a human in sales operations, with the reason; this ends the conversation."
    parameters = params(
        person_id=string("The caller's rep or contact id once known, else an empty string."),
        reason=string("Why.", HANDOFF_REASONS),
    )

    @staticmethod
    def invoke(data: Data, person_id: str, reason: str) -> str:
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"the reason is one of {', '.join(HANDOFF_REASONS)}")
        handoff_id = f"ho-{len(data['handoffs']) + 1:03d}"
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "person_id": person_id, "reason": reason}
        return "Transferred to sales operations. Please hold."


PIPELINE_TOOLS = (
    MarkOpportunityLost,
    UpdateCloseDate,
    SetForecastCategory,
    LogActivity,
    ScheduleFollowUp,
    CancelFollowUp,
    AssignAccountOwner,
    ReassignOpportunity,
    TransferToHumanAgents,
)
