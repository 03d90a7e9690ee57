"""Tools over who sees the ads and where: audiences (age, interest segments) and brand-safety exclusions.

The tools refuse what is malformed (an age outside 13-65, a segment already there, a category not in the list); the
audience and brand-safety rules of the policy are the agent's to apply.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.advertising.clock import DEFAULT_MIN_AGE, MAX_MIN_AGE
from taumesh.domains.advertising.records import dump, integer, params, record, string

AUDIENCE = string("The audience's id, such as 'aud-w1-007'.")
CAMPAIGN = string("The campaign's id, such as 'cmp-w1-007'.")
CATEGORY = string("A brand-safety category's name, such as 'violent_news'.")


class GetAudience(Tool):
    name = "get_audience"
    description = "Read an audience: its minimum age, regions and interest segments."
    parameters = params(audience_id=AUDIENCE)

    @staticmethod
    def invoke(data: Data, audience_id: str) -> str:
        return dump(record(data, "audiences", audience_id, "audience"))


class SetAudienceMinAge(Tool):
    name = "set_audience_min_age"
    writes = True
    description = "Change the youngest age an audience reaches."
    parameters = params(audience_id=AUDIENCE, min_age=integer("The new minimum age, 13 to 65."))

    @staticmethod
    def invoke(data: Data, audience_id: str, min_age: int) -> str:
        audience = record(data, "audiences", audience_id, "audience")
        if not DEFAULT_MIN_AGE <= min_age <= MAX_MIN_AGE:
            raise Refusal(f"a minimum age is between {DEFAULT_MIN_AGE} and {MAX_MIN_AGE}")
        audience["min_age"] = min_age
        audience["revisions"] += 1
        return dump(audience)


class SearchSegments(Tool):
    name = "search_segments"
    description = "Search the interest-segment catalogue by words of a segment's name; returns id, name, flags, reach."
    parameters = params(query=string("Words of the segment's name."))

    @staticmethod
    def invoke(data: Data, query: str) -> str:
        words = query.lower().split()
        found = [s for s in data["segments"].values() if all(w in s["name"].lower() for w in words)]
        if not found:
            raise Refusal("no segment matches")
        return dump(found)


class AddAudienceSegment(Tool):
    name = "add_audience_segment"
    writes = True
    description = "Add an interest segment to an audience's targeting."
    parameters = params(audience_id=AUDIENCE, segment_id=string("The segment's id, such as 'seg-hiking'."))

    @staticmethod
    def invoke(data: Data, audience_id: str, segment_id: str) -> str:
        audience = record(data, "audiences", audience_id, "audience")
        record(data, "segments", segment_id, "segment")
        if segment_id in audience["segment_ids"]:
            raise Refusal("the audience targets this segment already")
        audience["segment_ids"].append(segment_id)
        audience["revisions"] += 1
        return dump(audience)


class ListSafetyCategories(Tool):
    name = "list_safety_categories"
    description = "The brand-safety categories, what each covers, and the verticals that must exclude it."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["safety_categories"].values()))


class AddExclusion(Tool):
    name = "add_exclusion"
    writes = True
    description = "Keep a campaign's ads away from a brand-safety category."
    parameters = params(campaign_id=CAMPAIGN, category=CATEGORY)

    @staticmethod
    def invoke(data: Data, campaign_id: str, category: str) -> str:
        campaign = record(data, "campaigns", campaign_id, "campaign")
        record(data, "safety_categories", category, "category")
        if category in campaign["excluded_categories"]:
            raise Refusal("the campaign excludes this category already")
        campaign["excluded_categories"] = sorted([*campaign["excluded_categories"], category])
        return dump(campaign)


class RemoveExclusion(Tool):
    name = "remove_exclusion"
    writes = True
    description = "Let a campaign's ads appear beside a brand-safety category it excluded."
    parameters = params(campaign_id=CAMPAIGN, category=CATEGORY)

    @staticmethod
    def invoke(data: Data, campaign_id: str, category: str) -> str:
        campaign = record(data, "campaigns", campaign_id, "campaign")
        if category not in campaign["excluded_categories"]:
            raise Refusal("the campaign does not exclude this category")
        campaign["excluded_categories"] = [c for c in campaign["excluded_categories"] if c != category]
        return dump(campaign)


TARGETING_TOOLS = (
    GetAudience,
    SetAudienceMinAge,
    SearchSegments,
    AddAudienceSegment,
    ListSafetyCategories,
    AddExclusion,
    RemoveExclusion,
)
