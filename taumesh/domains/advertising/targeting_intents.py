"""The reference solvers of who sees the ads and where: minimum ages, interest segments, brand-safety exclusions.

An age under the vertical's floor, a sensitive segment, or a mandatory exclusion is refused, and the advertiser hears
the rule's fact (the floor, that the segment is sensitive, that the category is mandatory for them).
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.advertising.account_intents import find_campaign
from taumesh.domains.advertising.catalogue import mandatory
from taumesh.domains.advertising.clock import DEFAULT_MIN_AGE, min_age
from taumesh.domains.advertising.drafts import Draft
from taumesh.domains.factory import World, act

Record = dict[str, Any]


def _age_phrases(floor: int) -> str:
    """The ways an agent says the youngest age a vertical allows."""
    forms = (
        "at least {}",
        "minimum age is {}",
        "minimum age of {}",
        "{} or older",
        "{} and older",
        "{} and over",
        "under {}",
        "below {}",
        "{}+",
        "age {}",
    )
    return "|".join(form.format(floor) for form in forms)


def set_min_age(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """An audience's minimum age changed; one under the vertical's floor is refused and the floor said."""
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    audience = world["audiences"][campaign["audience_id"]]
    floor = min_age(advertiser["vertical"])
    under = floor > DEFAULT_MIN_AGE and rng.random() < 0.5
    choices = range(max(DEFAULT_MIN_AGE, floor - 5), floor) if under else range(floor, floor + 13)
    ages = [age for age in choices if age != audience["min_age"]]
    age = rng.choice(ages)
    draft = Draft(world, advertiser, persona, intent="set_min_age").verify().cite("3.1", "7.1")
    draft.do(act("get_advertiser", advertiser_id=advertiser["advertiser_id"]))
    find_campaign(draft, campaign).do(act("get_audience", audience_id=audience["audience_id"]))
    draft.want(
        f"You want the audience of your campaign '{campaign['name']}' to reach people from age {age} up. If that is"
        " not allowed, you want to know why."
    )
    change = act("set_audience_min_age", audience_id=audience["audience_id"], min_age=age)
    if under:
        draft.trap_case(f"under_{floor}", f"7.2: {age} is under the {advertiser['vertical']} vertical's floor", change)
        return draft.cite("7.2").say("text", _age_phrases(floor), "7.2: the youngest age the vertical allows")
    return draft.cite("7.2").do(change)


def add_segment(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """An interest segment added to an audience; a sensitive one never is, and the advertiser hears why."""
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    audience = world["audiences"][campaign["audience_id"]]
    sensitive = rng.random() < 0.4
    pool = sorted(
        s["segment_id"]
        for s in world["segments"].values()
        if s["sensitive"] == sensitive and s["segment_id"] not in audience["segment_ids"]
    )
    segment = world["segments"][rng.choice(pool)]
    draft = Draft(world, advertiser, persona, intent="add_segment").verify().cite("3.1", "7.4")
    find_campaign(draft, campaign).do(act("search_segments", query=segment["name"]))
    draft.want(
        f"You want the '{segment['name']}' interest segment added to the audience of your campaign"
        f" '{campaign['name']}'. If it cannot be added, you want to know why."
    )
    add = act("add_audience_segment", audience_id=audience["audience_id"], segment_id=segment["segment_id"])
    if sensitive:
        draft.trap_case("sensitive", "7.3: the segment is flagged sensitive: no audience may target it", add)
        return draft.cite("7.3").say("text", "sensitive", "7.3: the segment is a sensitive one")
    return draft.do(add)


def remove_exclusion(world: World, campaign: Record, rng: random.Random, persona: str) -> Draft | None:
    """An optional exclusion removed; a mandatory one for the campaign's vertical stays, and the advertiser hears so."""
    advertiser = world["advertisers"][campaign["advertiser_id"]]
    required = mandatory(advertiser["vertical"])
    optional = [c for c in campaign["excluded_categories"] if c not in required]
    keep = rng.random() < 0.4 or not optional
    category = rng.choice(required if keep else optional)
    draft = Draft(world, advertiser, persona, intent="remove_exclusion").verify().cite("3.1", "8.1")
    draft.do(act("get_advertiser", advertiser_id=advertiser["advertiser_id"]))
    find_campaign(draft, campaign).do(act("list_safety_categories"))
    draft.want(
        f"You want your campaign '{campaign['name']}' to stop excluding the '{category}' brand-safety category, so that"
        " its ads may appear there too. If that is not allowed, you want to know why."
    )
    remove = act("remove_exclusion", campaign_id=campaign["campaign_id"], category=category)
    if keep:
        draft.trap_case(f"mandatory_{category}", f"8.3: {category} is mandatory for the campaign's vertical", remove)
        phrases = "mandatory|required|must be excluded|must stay|must remain|cannot be removed|can't be removed"
        return draft.cite("8.3").say("text", phrases, "8.3: the category is mandatory for the campaign")
    return draft.cite("8.2").do(remove)
