"""The ad platform's tables, one pydantic model per record (``data/<table>.json``), validated when the domain loads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Vertical = Literal["retail", "travel", "software", "alcohol", "gambling", "finance"]
CampaignStatus = Literal["active", "paused"]
ChangeKind = Literal["daily_budget", "spend_cap"]
ChangeStatus = Literal["awaiting_advertiser", "applied", "declined"]
Arm = Literal["A", "B"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Advertiser(Record):
    """A client account of the platform: who answers for it, its vertical and its billing limits."""

    advertiser_id: str
    company: str
    contact_name: str
    email: str
    account_pin: str
    vertical: Vertical
    monthly_spend_cap: float
    credit_limit: float
    """The most the monthly spend cap may be raised to: set by the platform's credit review."""


class Campaign(Record):
    campaign_id: str
    advertiser_id: str
    name: str
    objective: str
    status: CampaignStatus
    daily_budget: float
    lifetime_budget: float
    spent: float
    start_date: str
    end_date: str
    audience_id: str
    excluded_categories: list[str]
    budget_history: list[float]
    """Every earlier daily budget, oldest first: a change leaves a trace even when a later one undoes it."""


class Audience(Record):
    audience_id: str
    advertiser_id: str
    name: str
    min_age: int
    regions: list[str]
    segment_ids: list[str]
    revisions: int
    """How many times the targeting was edited."""


class Segment(Record):
    """An interest segment of the platform's shared catalogue."""

    segment_id: str
    name: str
    sensitive: bool
    """Built from a protected trait (health, religion, orientation, finances): never targetable."""
    reach: int


class SafetyCategory(Record):
    """A brand-safety content category a campaign can keep its ads away from."""

    category: str
    description: str
    mandatory_for: list[str]
    """The verticals that must exclude it (``all``: every campaign)."""


class ArmResult(Record):
    variant: str
    visitors: int
    conversions: int


class Experiment(Record):
    experiment_id: str
    campaign_id: str
    start_date: str
    status: Literal["running", "concluded"]
    arms: dict[str, ArmResult]
    winner: Arm | None


class ChangeRequest(Record):
    """A budget or spend-cap change the desk prepared; it takes effect when the advertiser approves it."""

    request_id: str
    advertiser_id: str
    kind: ChangeKind
    target_id: str
    old_value: float
    new_value: float
    status: ChangeStatus


class DailyMetric(Record):
    metric_id: str
    campaign_id: str
    date: str
    impressions: int
    clicks: int
    conversions: int
    spend: float


class Verification(Record):
    advertiser_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    summary: str


class AdvertisingDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    advertisers: dict[str, Advertiser]
    campaigns: dict[str, Campaign]
    audiences: dict[str, Audience]
    segments: dict[str, Segment]
    safety_categories: dict[str, SafetyCategory]
    experiments: dict[str, Experiment]
    change_requests: dict[str, ChangeRequest]
    daily_metrics: dict[str, DailyMetric]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
