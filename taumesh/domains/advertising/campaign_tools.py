"""Tools over an advertiser's account and campaigns: lookups, performance, budgets, spend caps, pausing, hand-offs.

Budget and spend-cap changes are only prepared here: each becomes a change request that the advertiser approves in
their own dashboard (``user_tools``). The tools refuse what is malformed; what the policy forbids is the agent's to
refuse.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.advertising.clock import MIN_DAILY_BUDGET, cents, day
from taumesh.domains.advertising.records import dump, next_id, number, params, record, string, world_tag

ADVERTISER = string("The advertiser's id, such as 'adv-w1-03'.")
CAMPAIGN = string("The campaign's id, such as 'cmp-w1-007'.")


class GetAdvertiser(Tool):
    name = "get_advertiser"
    description = "Read an advertiser's account: company, vertical, monthly spend cap and credit limit."
    parameters = params(advertiser_id=ADVERTISER)

    @staticmethod
    def invoke(data: Data, advertiser_id: str) -> str:
        advertiser = dict(record(data, "advertisers", advertiser_id, "advertiser"))
        advertiser.pop("account_pin")
        return dump(advertiser)


class ListCampaigns(Tool):
    name = "list_campaigns"
    description = "List an advertiser's campaigns: id, name and status."
    parameters = params(advertiser_id=ADVERTISER)

    @staticmethod
    def invoke(data: Data, advertiser_id: str) -> str:
        record(data, "advertisers", advertiser_id, "advertiser")
        return dump(
            [
                {"campaign_id": c["campaign_id"], "name": c["name"], "status": c["status"]}
                for c in data["campaigns"].values()
                if c["advertiser_id"] == advertiser_id
            ]
        )


class GetCampaign(Tool):
    name = "get_campaign"
    description = "Read a campaign: budgets, amount spent, flight dates, audience and brand-safety exclusions."
    parameters = params(campaign_id=CAMPAIGN)

    @staticmethod
    def invoke(data: Data, campaign_id: str) -> str:
        return dump(record(data, "campaigns", campaign_id, "campaign"))


class GetCampaignMetrics(Tool):
    name = "get_campaign_metrics"
    description = "A campaign's daily delivery between two dates (inclusive): impressions, clicks, conversions, spend."
    parameters = params(
        campaign_id=CAMPAIGN,
        start_date=string("The first day, YYYY-MM-DD."),
        end_date=string("The last day, YYYY-MM-DD."),
    )

    @staticmethod
    def invoke(data: Data, campaign_id: str, start_date: str, end_date: str) -> str:
        record(data, "campaigns", campaign_id, "campaign")
        try:
            first, last = day(start_date), day(end_date)
        except ValueError as error:
            raise Refusal("dates are written YYYY-MM-DD") from error
        rows = [
            m
            for m in data["daily_metrics"].values()
            if m["campaign_id"] == campaign_id and first <= day(m["date"]) <= last
        ]
        return dump(sorted(rows, key=lambda m: m["date"]))


class ProposeBudgetChange(Tool):
    name = "propose_budget_change"
    writes = True
    description = (
        "Prepare a new daily budget for a campaign. It is a change request: it takes effect when the advertiser"
        " approves it in their dashboard. Returns the request."
    )
    parameters = params(campaign_id=CAMPAIGN, new_daily_budget=number("The new daily budget in dollars."))

    @staticmethod
    def invoke(data: Data, campaign_id: str, new_daily_budget: float) -> str:
        campaign = record(data, "campaigns", campaign_id, "campaign")
        if new_daily_budget < MIN_DAILY_BUDGET:
            raise Refusal(f"a daily budget is at least {MIN_DAILY_BUDGET:.2f} dollars")
        request_id = next_id(data, "change_requests", "chg", world_tag(campaign_id))
        request = {
            "request_id": request_id,
            "advertiser_id": campaign["advertiser_id"],
            "kind": "daily_budget",
            "target_id": campaign_id,
            "old_value": campaign["daily_budget"],
            "new_value": cents(new_daily_budget),
            "status": "awaiting_advertiser",
        }
        data["change_requests"][request_id] = request
        return dump(request)


class RequestSpendCapChange(Tool):
    name = "request_spend_cap_change"
    writes = True
    description = (
        "Prepare a new monthly spend cap for an advertiser. It is a change request: it takes effect when the"
        " advertiser approves it in their dashboard. Returns the request."
    )
    parameters = params(advertiser_id=ADVERTISER, new_cap=number("The new monthly spend cap in dollars."))

    @staticmethod
    def invoke(data: Data, advertiser_id: str, new_cap: float) -> str:
        advertiser = record(data, "advertisers", advertiser_id, "advertiser")
        if new_cap <= 0:
            raise Refusal("a spend cap is a positive amount")
        request_id = next_id(data, "change_requests", "chg", world_tag(advertiser_id))
        request = {
            "request_id": request_id,
            "advertiser_id": advertiser_id,
            "kind": "spend_cap",
            "target_id": advertiser_id,
            "old_value": advertiser["monthly_spend_cap"],
            "new_value": cents(new_cap),
            "status": "awaiting_advertiser",
        }
        data["change_requests"][request_id] = request
        return dump(request)


class ResumeCampaign(Tool):
    name = "resume_campaign"
    writes = True
    description = "Set a paused campaign delivering again."
    parameters = params(campaign_id=CAMPAIGN)

    @staticmethod
    def invoke(data: Data, campaign_id: str) -> str:
        campaign = record(data, "campaigns", campaign_id, "campaign")
        if campaign["status"] != "paused":
            raise Refusal("the campaign is not paused")
        campaign["status"] = "active"
        return dump(campaign)


class PauseCampaign(Tool):
    name = "pause_campaign"
    writes = True
    description = "Stop a delivering campaign; its budget and settings are kept."
    parameters = params(campaign_id=CAMPAIGN)

    @staticmethod
    def invoke(data: Data, campaign_id: str) -> str:
        campaign = record(data, "campaigns", campaign_id, "campaign")
        if campaign["status"] != "active":
            raise Refusal("the campaign is not delivering")
        campaign["status"] = "paused"
        return dump(campaign)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the conversation to a human account manager, with a summary of what the advertiser needs."
    parameters = params(summary=string("What the advertiser needs and why the desk cannot do it."))

    @staticmethod
    def invoke(data: Data, summary: str) -> str:
        handoff_id = f"handoff-{len(data['handoffs']) + 1:03d}"
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "summary": summary}
        return "Transferred to a human account manager."


CAMPAIGN_TOOLS = (
    GetAdvertiser,
    ListCampaigns,
    GetCampaign,
    GetCampaignMetrics,
    ProposeBudgetChange,
    RequestSpendCapChange,
    ResumeCampaign,
    PauseCampaign,
    TransferToHumanAgents,
)
