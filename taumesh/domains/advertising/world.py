"""The ad platform's worlds: one per seed, every id tagged with its world, invariants checked as each is built.

Each world is nine advertisers of varied verticals with three campaigns each. Campaigns take their shape from their
place in the world (every ninth alike), so that every world holds each case the policy distinguishes: campaigns
delivering, paused and resumable, paused past their end date, paused with the lifetime budget spent; A/B tests ready
to stop, too young, or short of conversions; campaigns without a running test.
"""

from __future__ import annotations

import random
from datetime import timedelta

from taumesh.domains.advertising.catalogue import (
    PLAIN_SEGMENTS,
    mandatory,
    optional_categories,
    safety_categories,
    slug,
)
from taumesh.domains.advertising.catalogue import segments as segment_catalogue
from taumesh.domains.advertising.clock import REPORT_DAYS, TODAY, cents, day, min_age
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record, within

SEEDS = {"w1": 4401, "w2": 4402, "w3": 4403}
TEST_WORLDS = frozenset({"w3"})
"""World 3's tasks are the test split; worlds 1 and 2's the train split (they share no entity)."""
SHARED = ("segments", "safety_categories")
"""Reference tables every world holds alike."""

VERTICALS = ("alcohol", "gambling", "finance", "retail", "travel", "software", "alcohol", "retail", "finance")
COMPANIES = (
    "Larkspur",
    "Tidewell",
    "Ironvale",
    "Brambleton",
    "Quillfield",
    "Harrowgate",
    "Saltmarsh",
    "Copperline",
    "Fernhollow",
    "Glenmoor",
    "Ashcombe",
    "Redwick",
    "Stormhaven",
    "Millbrook",
    "Oakhurst",
    "Westerly",
)
SUFFIX = {
    "alcohol": "Distillers",
    "gambling": "Gaming",
    "finance": "Capital",
    "retail": "Outfitters",
    "travel": "Journeys",
    "software": "Labs",
}
FIRST = ("Maya", "Tomas", "Priya", "Owen", "Ines", "Felix", "Hana", "Ruben", "Clara", "Jonas", "Leila", "Marco")
LAST = ("Okafor", "Lindqvist", "Baptiste", "Moreau", "Tanaka", "Castillo", "Novak", "Brennan", "Haddad", "Sorensen")
OBJECTIVES = ("conversions", "traffic", "awareness")
THEMES = (
    "Spring Launch",
    "Loyalty Push",
    "Weekend Deals",
    "Brand Story",
    "Retargeting",
    "New Markets",
    "Summer Teaser",
)
CREATIVES = ("Hero Video", "Carousel Classic", "Static Banner", "Testimonial Clip", "Product Grid")
REGIONS = ("north", "south", "east", "west", "capital")
CAMPAIGN_SHAPES = (
    "ready",
    "early",
    "short",
    "untested",
    "quiet",
    "resumable",
    "ended",
    "spent_out",
    "ready",
)
"""Each campaign's shape by its place in the world: delivering with a test ready to stop (``ready``), too young
(``early``) or short of conversions (``short``), with a finished test (``untested``) or none (``quiet``); or paused
and resumable, past its end date, or with its lifetime budget spent."""
PAUSED = frozenset({"resumable", "ended", "spent_out"})


def _advertiser(rng: random.Random, tag: str, number: int, vertical: str, company: str) -> dict[str, object]:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    cap = rng.randint(10, 60) * 1000
    return {
        "advertiser_id": f"adv-{tag}-{number:02d}",
        "company": f"{company} {SUFFIX[vertical]}",
        "contact_name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower()}@{company.lower()}-{tag}.example",
        "account_pin": f"{rng.randint(100_000, 999_999)}",
        "vertical": vertical,
        "monthly_spend_cap": float(cap),
        "credit_limit": float(cap + rng.randint(5, 40) * 1000),
    }


def _flight(rng: random.Random, shape: str) -> tuple[str, str, float, float, float]:
    """Start date, end date, daily budget, lifetime budget and amount spent of a campaign of ``shape``."""
    start = TODAY - timedelta(days=rng.randint(40, 120))
    end = (
        TODAY - timedelta(days=rng.randint(3, 30)) if shape == "ended" else TODAY + timedelta(days=rng.randint(20, 90))
    )
    daily = float(rng.randint(4, 40) * 10)
    spent = float(rng.randint(20, 200) * 50)
    left = (end - TODAY).days + 1
    lifetime = (
        spent if shape == "spent_out" else float(round(spent + daily * max(left, 10) * rng.uniform(1.3, 2.2), -2))
    )
    return start.isoformat(), end.isoformat(), daily, lifetime, spent


def _experiments(rng: random.Random, tag: str, campaign_id: str, shape: str, number: int) -> list[dict[str, object]]:
    """The A/B tests of a campaign of ``shape``: one running, one finished, or none."""
    if shape not in {"ready", "early", "short", "untested"}:
        return []
    variant_a, variant_b = rng.sample(CREATIVES, 2)
    ages = {"ready": (16, 40), "early": (3, 12), "short": (15, 40), "untested": (60, 90)}[shape]
    visitors = [rng.randint(3000, 9000), rng.randint(3000, 9000)]
    conversions = [rng.randint(110, 320), rng.randint(110, 320)]
    if shape == "early":
        conversions = [rng.randint(20, 160), rng.randint(20, 160)]
    if shape == "short":
        conversions[rng.randrange(2)] = rng.randint(40, 90)
    while conversions[0] * visitors[1] == conversions[1] * visitors[0]:
        conversions[0] += 1
    arms = {
        arm: {"variant": variant, "visitors": visitors[i], "conversions": conversions[i]}
        for i, (arm, variant) in enumerate((("A", variant_a), ("B", variant_b)))
    }
    running = shape != "untested"
    return [
        {
            "experiment_id": f"exp-{tag}-{number:03d}",
            "campaign_id": campaign_id,
            "start_date": (TODAY - timedelta(days=rng.randint(*ages))).isoformat(),
            "status": "running" if running else "concluded",
            "arms": arms,
            "winner": None if running else rng.choice(["A", "B"]),
        }
    ]


def _metrics(rng: random.Random, tag: str, campaign: dict[str, object], number: int) -> dict[str, dict[str, object]]:
    """A week of daily delivery before today (nothing while the campaign is paused)."""
    rows = {}
    delivering = campaign["status"] == "active"
    for back in range(REPORT_DAYS, 0, -1):
        when = TODAY - timedelta(days=back)
        impressions = rng.randint(4000, 40000) if delivering else 0
        clicks = int(impressions * rng.uniform(0.01, 0.04))
        conversions = int(clicks * rng.uniform(0.03, 0.09))
        spend = cents(float(campaign["daily_budget"]) * rng.uniform(0.7, 1.0)) if delivering else 0.0  # type: ignore[arg-type]
        metric_id = f"met-{tag}-{number:03d}-{when.strftime('%m%d')}"
        rows[metric_id] = {
            "metric_id": metric_id,
            "campaign_id": campaign["campaign_id"],
            "date": when.isoformat(),
            "impressions": impressions,
            "clicks": clicks,
            "conversions": conversions,
            "spend": spend,
        }
    return rows


def build_world(seed: int, tag: str) -> World:
    """Nine advertisers, three campaigns each with an audience, a week of metrics, tests and earlier changes."""
    rng = random.Random(seed)
    verticals = list(VERTICALS)
    rng.shuffle(verticals)
    companies = rng.sample(COMPANIES, len(verticals))
    world: World = {
        "advertisers": {},
        "campaigns": {},
        "audiences": {},
        "segments": segment_catalogue(),
        "safety_categories": safety_categories(),
        "experiments": {},
        "change_requests": {},
        "daily_metrics": {},
        "verifications": {},
        "handoffs": {},
    }
    plain = [f"seg-{slug(name)}" for name in PLAIN_SEGMENTS]
    number = 0
    for index, (vertical, company) in enumerate(zip(verticals, companies, strict=True), 1):
        advertiser = _advertiser(rng, tag, index, vertical, company)
        world["advertisers"][str(advertiser["advertiser_id"])] = advertiser
        themes = rng.sample(THEMES, 3)
        for theme in themes:
            number += 1
            shape = CAMPAIGN_SHAPES[(number - 1) % len(CAMPAIGN_SHAPES)]
            campaign_id, audience_id = f"cmp-{tag}-{number:03d}", f"aud-{tag}-{number:03d}"
            start, end, daily, lifetime, spent = _flight(rng, shape)
            optional = rng.sample(optional_categories(), rng.randint(1, 3))
            campaign = {
                "campaign_id": campaign_id,
                "advertiser_id": advertiser["advertiser_id"],
                "name": f"{theme} {TODAY.year}",
                "objective": rng.choice(OBJECTIVES),
                "status": "paused" if shape in PAUSED else "active",
                "daily_budget": daily,
                "lifetime_budget": lifetime,
                "spent": spent,
                "start_date": start,
                "end_date": end,
                "audience_id": audience_id,
                "excluded_categories": sorted({*mandatory(vertical), *optional}),
                "budget_history": [],
            }
            world["campaigns"][campaign_id] = campaign
            world["audiences"][audience_id] = {
                "audience_id": audience_id,
                "advertiser_id": advertiser["advertiser_id"],
                "name": f"{theme} audience",
                "min_age": min_age(vertical) + rng.choice([0, 0, 4, 9]),
                "regions": sorted(rng.sample(REGIONS, rng.randint(1, 3))),
                "segment_ids": sorted(rng.sample(plain, rng.randint(1, 3))),
                "revisions": rng.randint(0, 4),
            }
            for experiment in _experiments(rng, tag, campaign_id, shape, len(world["experiments"]) + 1):
                world["experiments"][str(experiment["experiment_id"])] = experiment
            world["daily_metrics"].update(_metrics(rng, tag, campaign, number))
    _earlier_changes(rng, tag, world)
    return world


def _earlier_changes(rng: random.Random, tag: str, world: World) -> None:
    """Three budget changes applied before today, each kept in its campaign's budget history."""
    delivering = sorted(key for key, c in world["campaigns"].items() if c["status"] == "active")
    for number, campaign_id in enumerate(rng.sample(delivering, 3), 1):
        campaign = world["campaigns"][campaign_id]
        old = float(campaign["daily_budget"] - rng.randint(1, 3) * 10)
        campaign["budget_history"] = [old]
        request_id = f"chg-{tag}-{number:03d}"
        world["change_requests"][request_id] = {
            "request_id": request_id,
            "advertiser_id": campaign["advertiser_id"],
            "kind": "daily_budget",
            "target_id": campaign_id,
            "old_value": old,
            "new_value": campaign["daily_budget"],
            "status": "applied",
        }


def _one_running_test(world: World) -> list[str]:
    running: dict[str, int] = {}
    for experiment in world["experiments"].values():
        if experiment["status"] == "running":
            running[experiment["campaign_id"]] = running.get(experiment["campaign_id"], 0) + 1
    return [f"campaign {key} runs {count} tests" for key, count in running.items() if count > 1]


def _ages_within_vertical(world: World) -> list[str]:
    problems = []
    for audience in world["audiences"].values():
        vertical = world["advertisers"][audience["advertiser_id"]]["vertical"]
        if audience["min_age"] < min_age(vertical):
            problems.append(f"audience {audience['audience_id']} reaches {audience['min_age']}, under its floor")
    return problems


def _mandatory_excluded(world: World) -> list[str]:
    problems = []
    for campaign in world["campaigns"].values():
        vertical = world["advertisers"][campaign["advertiser_id"]]["vertical"]
        missing = set(mandatory(vertical)) - set(campaign["excluded_categories"])
        if missing:
            problems.append(f"campaign {campaign['campaign_id']} lacks {sorted(missing)}")
    return problems


def _no_sensitive_targeting(world: World) -> list[str]:
    return [
        f"audience {a['audience_id']} targets sensitive {s}"
        for a in world["audiences"].values()
        for s in a["segment_ids"]
        if world["segments"][s]["sensitive"]
    ]


INVARIANTS = (
    per_record(
        "campaigns",
        "spend stays within the lifetime budget",
        lambda c: within(c["spent"], 0, c["lifetime_budget"], "spent"),
    ),
    per_record(
        "campaigns",
        "a daily budget is at least ten dollars",
        lambda c: within(c["daily_budget"], 10, 10_000, "daily budget"),
    ),
    per_record(
        "campaigns",
        "a flight ends after it starts",
        lambda c: None if day(c["start_date"]) < day(c["end_date"]) else "ends first",
    ),
    per_record(
        "advertisers",
        "the spend cap is under the credit limit",
        lambda a: within(a["monthly_spend_cap"], 1, a["credit_limit"] - 1, "cap"),
    ),
    per_record(
        "daily_metrics",
        "conversions come from clicks and clicks from impressions",
        lambda m: None if m["conversions"] <= m["clicks"] <= m["impressions"] else "funnel inverted",
    ),
    Invariant("an audience reaches no one under its vertical's minimum age", _ages_within_vertical),
    Invariant("every campaign excludes its mandatory brand-safety categories", _mandatory_excluded),
    Invariant("no audience targets a sensitive segment", _no_sensitive_targeting),
    Invariant("a campaign runs at most one A/B test at a time", _one_running_test),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against every invariant."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
