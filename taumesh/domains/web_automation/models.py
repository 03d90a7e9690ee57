"""The automation desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

The simulated web lives here as records (sites, their robots rules, pages with their text and fields, forms), beside
what the desk runs on it for its client teams (extractions, schedules, watches and the changes they caught, exports,
form submissions and linked accounts). A team member's own browser and authenticator are not a table: what they
show reaches the desk only when the member reads it out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Team(Record):
    team_id: str
    name: str
    requests_used: int
    """Page requests the team's extractions made this month: each extraction adds its pages."""


class Member(Record):
    """A team member who asks the desk for automation."""

    member_id: str
    first_name: str
    last_name: str
    employee_number: str
    passphrase: str
    team_id: str


class Site(Record):
    site_id: str
    host: str
    name: str
    rate_limit_per_min: int
    """The most page requests a minute the site's terms allow an automated client."""
    min_interval_minutes: int
    """The shortest gap between two scheduled runs the site's terms allow."""
    allows_automated_sign_in: bool


class RobotsRule(Record):
    """One line of a site's robots rules: a path prefix automated clients may or may not fetch."""

    rule_id: str
    site_id: str
    path_prefix: str
    allowed: bool


class Page(Record):
    page_id: str
    site_id: str
    path: str
    title: str
    text: str
    requires_sign_in: bool
    fields: dict[str, float | str]
    last_changed: str
    version: int


class Form(Record):
    form_id: str
    site_id: str
    path: str
    title: str
    captcha: bool
    max_quantity: int
    """The most units one submission may ask for, as the form itself states."""


class Submission(Record):
    submission_id: str
    form_id: str
    member_id: str
    quantity: int
    confirmation: str


class AccountLink(Record):
    link_id: str
    member_id: str
    site_id: str


class Extraction(Record):
    """The rows one extraction collected: each page's value of one field."""

    extraction_id: str
    team_id: str
    site_id: str
    path_prefix: str
    field: str
    rows: list[dict[str, float | str]]
    pace_per_min: int
    contains_personal_data: bool


class Schedule(Record):
    schedule_id: str
    team_id: str
    site_id: str
    path_prefix: str
    field: str
    interval_minutes: int
    monthly_requests: int
    status: Literal["active", "paused", "deleted"]
    run_in_progress: bool
    runs_completed: int


class Watch(Record):
    watch_id: str
    team_id: str
    page_id: str
    interval_hours: int
    baseline_version: int


class Change(Record):
    """A change a watch caught on its page: one field's old and new value."""

    change_id: str
    watch_id: str
    page_id: str
    detected_on: str
    field: str
    old_value: float
    new_value: float
    status: Literal["unreviewed", "reviewed"]
    reviewed_by: str | None


class Export(Record):
    export_id: str
    extraction_id: str
    member_id: str
    redacted: bool
    rows: list[dict[str, float | str]]


class Verification(Record):
    member_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    member_id: str
    team: str


class AutomationDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    teams: dict[str, Team]
    members: dict[str, Member]
    sites: dict[str, Site]
    robots_rules: dict[str, RobotsRule]
    pages: dict[str, Page]
    forms: dict[str, Form]
    submissions: dict[str, Submission]
    account_links: dict[str, AccountLink]
    extractions: dict[str, Extraction]
    schedules: dict[str, Schedule]
    watches: dict[str, Watch]
    changes: dict[str, Change]
    exports: dict[str, Export]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
