"""The reference solvers of an account's money and delivery: daily budgets, the spend cap, resuming, reports.

A new daily budget or spend cap is a change request the advertiser approves in their own dashboard (dual control);
one the pacing rule or the credit limit forbids is refused with the figure that bounds it. A paused campaign resumes
only before its end date and with budget left; a report gives the week's cost per conversion.
"""

from __future__ import annotations

import math
import random
from typing import Any

from taumesh.domains.advertising.clock import TODAY, cents, day, highest_daily_budget, money, report_window
from taumesh.domains.advertising.drafts import Draft
from taumesh.domains.factory import World, act

Record = dict[str, Any]


def next_request(world: World, tag: str) -> str:
    """The id the desk's next change request in world ``tag`` gets (the tools' own numbering)."""
    count = sum(1 for key in world["change_requests"] if key.startswith(f"chg-{tag}-"))
    return f"chg-{tag}-{count + 1:03d}"


def find_campaign(draft: Draft, campaign: Record) -> Draft:
    """The campaign the advertiser names, found among theirs and read."""
    return draft.do(
        act("list_campaigns", advertiser_id=campaign["advertiser_id"]),
        act("get_campaign", campaign_id=campaign["campaign_id"]),
    )


def change_daily_budget(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """A new daily budget prepared and approved in the dashboard; one beyond the pacing rule refused, the most said."""
    if campaign["status"] != "active":
        return None
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    highest = highest_daily_budget(campaign["lifetime_budget"], campaign["spent"], campaign["end_date"])
    over = rng.random() < 0.4
    if over:
        amount = float(math.ceil(highest * rng.uniform(1.15, 1.5) / 10) * 10)
    else:
        low, high = int(campaign["daily_budget"] // 5) + 1, int(highest // 5)
        if high < low:
            return None
        amount = float(5 * rng.randint(low, high))
    draft = Draft(world, advertiser, persona, intent="change_daily_budget").verify().cite("3.1", "4.2")
    find_campaign(draft, campaign)
    draft.want(
        f"You want the daily budget of your campaign '{campaign['name']}' changed to {amount:.0f} dollars. If that is"
        " more than the campaign can take, you want to know the most it can be, but you do not want a smaller budget"
        " set today."
    )
    propose = act("propose_budget_change", campaign_id=campaign["campaign_id"], new_daily_budget=amount)
    if over:
        draft.trap_case(
            "over_pace", "4.3: the budget overruns what is left of the lifetime budget: nothing is prepared", propose
        )
        return draft.cite("4.3").say("amount", money(highest), "4.3: the highest daily budget the pacing rule allows")
    draft.do(propose)
    return draft.approve_in_dashboard(next_request(world, campaign["campaign_id"].split("-")[1]))


def raise_spend_cap(world: World, advertiser: Record, rng: random.Random, persona: str) -> Draft | None:
    """A higher monthly cap prepared and approved in the dashboard; one above the credit limit refused, limit said."""
    cap, limit = advertiser["monthly_spend_cap"], advertiser["credit_limit"]
    over = rng.random() < 0.4
    steps = int((limit - cap) // 1000)
    new_cap = float(limit + rng.randint(1, 15) * 1000 if over else cap + rng.randint(1, steps) * 1000)
    draft = Draft(world, advertiser, persona, intent="raise_spend_cap").verify().cite("3.1", "5.1")
    draft.do(act("get_advertiser", advertiser_id=advertiser["advertiser_id"]))
    draft.want(
        f"You want your account's monthly spend cap raised to {new_cap:.0f} dollars. If that much is not possible, you"
        " want to know why, but you do not want a smaller raise today."
    )
    request = act("request_spend_cap_change", advertiser_id=advertiser["advertiser_id"], new_cap=new_cap)
    if over:
        draft.trap_case("over_credit", "5.2: the cap asked for is above the account's credit limit", request)
        return draft.cite("5.2").say("amount", money(limit), "5.2: the account's credit limit")
    draft.do(request)
    return draft.approve_in_dashboard(next_request(world, advertiser["advertiser_id"].split("-")[1]))


def resume_campaign(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """A paused campaign resumed; one past its end date or with its budget spent stays paused, and the user hears it."""
    if campaign["status"] != "paused":
        return None
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    draft = Draft(world, advertiser, persona, intent="resume_campaign").verify().cite("3.1", "6.2")
    find_campaign(draft, campaign)
    draft.want(
        f"You want your paused campaign '{campaign['name']}' delivering again. If it cannot be resumed, you want to"
        " know why."
    )
    resume = act("resume_campaign", campaign_id=campaign["campaign_id"])
    if day(campaign["end_date"]) < TODAY:
        draft.trap_case("ended", "6.3: the campaign's end date has passed: it stays paused", resume)
        return draft.cite("6.3").say("date", campaign["end_date"], "6.3: the date the flight ended")
    if campaign["spent"] >= campaign["lifetime_budget"]:
        draft.trap_case("spent_out", "6.3: the lifetime budget is used up: it stays paused", resume)
        return draft.cite("6.3").say("amount", money(campaign["lifetime_budget"]), "6.3: the lifetime budget spent")
    return draft.do(resume)


def campaign_report(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """The past week's cost per conversion of a delivering campaign, read from its daily metrics."""
    first, last = report_window()
    rows = [
        m
        for m in world["daily_metrics"].values()
        if m["campaign_id"] == campaign["campaign_id"] and first <= m["date"] <= last
    ]
    conversions = sum(m["conversions"] for m in rows)
    if campaign["status"] != "active" or conversions == 0:
        return None
    cost = cents(sum(m["spend"] for m in rows) / conversions)
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    draft = Draft(world, advertiser, persona, intent="campaign_report").verify().cite("10.1", "10.2")
    draft.do(
        act("list_campaigns", advertiser_id=campaign["advertiser_id"]),
        act("get_campaign_metrics", campaign_id=campaign["campaign_id"], start_date=first, end_date=last),
    )
    draft.want(
        f"You want to know what each conversion cost on your campaign '{campaign['name']}' over the past week (the"
        " seven whole days before today). You want no change made."
    )
    return draft.say("amount", money(cost), "10.1: the week's cost per conversion")
