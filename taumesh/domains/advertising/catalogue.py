"""The platform's shared reference data: the interest-segment catalogue and the brand-safety categories.

Both are the same in every world (``merge_worlds`` checks it) and no tool writes them.
"""

from __future__ import annotations

from taumesh.domains.factory import Table

PLAIN_SEGMENTS = (
    "Outdoor hiking enthusiasts",
    "Home cooking fans",
    "Frequent business travellers",
    "Craft beer lovers",
    "Live football followers",
    "Budget family holidays",
    "Small business owners",
    "Personal finance readers",
    "Cloud software buyers",
    "Fashion bargain hunters",
    "City break planners",
    "Board game players",
)
SENSITIVE_SEGMENTS = (
    "Chronic illness sufferers",
    "Religious service attendees",
    "LGBTQ community members",
    "Debt relief seekers",
    "Fertility treatment researchers",
)
"""Segments drawn from a protected trait: in the catalogue, flagged, and never targetable (policy 6.3)."""
SAFETY_CATEGORIES = {
    "adult_content": ("Sexual or explicit material.", ["all"]),
    "hate_speech": ("Content attacking people for who they are.", ["all"]),
    "youth_content": ("Sites, videos and games made for children and teenagers.", ["alcohol", "gambling"]),
    "crypto_speculation": ("Get-rich-quick trading and token promotion.", ["finance"]),
    "violent_news": ("News reports of crime, war and violence.", []),
    "political_news": ("Elections, parties and political commentary.", []),
    "tragedy_disaster": ("Coverage of accidents, disasters and deaths.", []),
    "celebrity_gossip": ("Rumour and gossip about public figures.", []),
    "user_forums": ("Discussion boards whose posts are not moderated before they appear.", []),
}
"""Each category: what it covers and the verticals that must exclude it (``all``: every campaign)."""


def slug(name: str) -> str:
    """A segment name as its id holds it (``Home cooking fans``: ``home-cooking-fans``)."""
    return "-".join(name.lower().split())


def segments() -> Table:
    """The interest-segment catalogue, the sensitive segments flagged."""
    table = {}
    for number, name in enumerate([*PLAIN_SEGMENTS, *SENSITIVE_SEGMENTS]):
        segment_id = f"seg-{slug(name)}"
        reach = 180_000 + 37_000 * number
        table[segment_id] = {
            "segment_id": segment_id,
            "name": name,
            "sensitive": name in SENSITIVE_SEGMENTS,
            "reach": reach,
        }
    return table


def safety_categories() -> Table:
    """The brand-safety categories, each with the verticals that must exclude it."""
    return {
        name: {"category": name, "description": description, "mandatory_for": list(verticals)}
        for name, (description, verticals) in SAFETY_CATEGORIES.items()
    }


def mandatory(vertical: str) -> list[str]:
    """The categories a campaign of ``vertical`` must exclude, sorted."""
    return sorted(
        name for name, (_, verticals) in SAFETY_CATEGORIES.items() if "all" in verticals or vertical in verticals
    )


def optional_categories() -> list[str]:
    """The categories no vertical must exclude: each advertiser's own choice (policy 8.2)."""
    return sorted(name for name, (_, verticals) in SAFETY_CATEGORIES.items() if not verticals)
