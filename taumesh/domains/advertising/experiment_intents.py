"""The reference solvers of A/B tests: starting one, and stopping one under the stopping rule.

A campaign runs one test at a time (a second is refused with the running test's id); a test stops only after 14 days
with 100 conversions in each arm, its winner the higher conversion rate (said in percent); one that may not stop yet
keeps running, and the advertiser hears the first day it may stop or the conversions still missing.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.advertising.clock import TEST_MIN_CONVERSIONS, TODAY, conversion_rate, day, earliest_stop
from taumesh.domains.advertising.drafts import Draft
from taumesh.domains.advertising.world import CREATIVES
from taumesh.domains.factory import World, act

Record = dict[str, Any]


def _tests(world: World, campaign_id: str) -> list[Record]:
    return [e for e in world["experiments"].values() if e["campaign_id"] == campaign_id]


def _find_tests(draft: Draft, campaign: Record) -> Draft:
    return draft.do(
        act("list_campaigns", advertiser_id=campaign["advertiser_id"]),
        act("list_experiments", campaign_id=campaign["campaign_id"]),
    )


def start_experiment(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """A test started with the first day it may stop said; refused, with the running test's id, when one runs."""
    if campaign["status"] != "active":
        return None
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    running = [e for e in _tests(world, campaign["campaign_id"]) if e["status"] == "running"]
    current, challenger = rng.sample(CREATIVES, 2)
    draft = Draft(world, advertiser, persona, intent="start_experiment").verify().cite("3.1", "9.1")
    _find_tests(draft, campaign)
    draft.want(
        f"You want an A/B test started on your campaign '{campaign['name']}', with your current creative '{current}' as"
        f" arm A and a new creative '{challenger}' as arm B, and you want to know the first day it may be stopped."
        " If no test can be started, you want to know why."
    )
    start = act("start_experiment", campaign_id=campaign["campaign_id"], variant_a=current, variant_b=challenger)
    if running:
        test_id = running[0]["experiment_id"]
        draft.trap_case("running", f"9.1: test {test_id} is running on the campaign already", start)
        return draft.say("text", test_id, "9.1: the id of the test that is running")
    draft.cite("9.2", "9.3").do(start)
    return draft.say("date", earliest_stop(TODAY.isoformat()), "9.2: the first day the new test may stop")


def conclude_experiment(world: World, experiment: Record, rng: random.Random, persona: str) -> Draft | None:
    """A test that may stop is stopped with its winner, its rate said; one too young or short of conversions runs on."""
    if experiment["status"] != "running":
        return None
    campaign = world["campaigns"][experiment["campaign_id"]]
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    rates = {arm: conversion_rate(r["conversions"], r["visitors"]) for arm, r in experiment["arms"].items()}
    leader = max(rates, key=lambda arm: experiment["arms"][arm]["conversions"] / experiment["arms"][arm]["visitors"])
    draft = Draft(world, advertiser, persona, intent="conclude_experiment").verify().cite("3.1", "9.3")
    _find_tests(draft, campaign)
    draft.want(
        f"You want the A/B test on your campaign '{campaign['name']}' stopped and its winner declared, and you want to"
        " know the winning arm's conversion rate. If it cannot be stopped yet, you want to know why."
    )
    conclude = act("conclude_experiment", experiment_id=experiment["experiment_id"], winner=leader)
    fewest = min(r["conversions"] for r in experiment["arms"].values())
    first_day = earliest_stop(experiment["start_date"])
    if day(first_day) > TODAY:
        draft.trap_case("too_early", "9.3: the test has run fewer than 14 days", conclude)
        return draft.cite("9.5").say("date", first_day, "9.5: the first day the test may stop")
    if fewest < TEST_MIN_CONVERSIONS:
        missing = TEST_MIN_CONVERSIONS - fewest
        draft.trap_case("too_few", "9.3: an arm has fewer than 100 conversions", conclude)
        phrases = f"{missing} more conversion|{missing} conversions|{missing} additional conversion"
        return draft.cite("9.5").say("text", phrases, "9.5: the conversions the weaker arm still needs")
    draft.cite("9.4").do(conclude)
    return draft.say("amount", f"{rates[leader]:.2f}", "9.4: the winning arm's conversion rate in percent")
