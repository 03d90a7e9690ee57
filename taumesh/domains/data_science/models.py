"""The service desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

``approval_apps`` is the data owners' side: the approval app they sign in to and read grant codes from. The desk's
tools never read it; a code reaches the desk when the owner reads it out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["analyst", "stakeholder", "owner"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Requester(Record):
    """Someone who asks the desk for work: an analyst, a business stakeholder, or a data set's owner."""

    requester_id: str
    first_name: str
    last_name: str
    role: Role
    staff_number: str
    passphrase: str
    team: str
    privacy_training_expires: str
    """The day their data-privacy training lapses; no new grant after it (policy 3.3)."""


class Dataset(Record):
    """A data set the desk holds: who owns it, whether it is restricted, and how much of it is missing."""

    dataset_id: str
    name: str
    description: str
    owner_id: str
    restricted: bool
    row_count: int
    missing_spend: int
    """Rows whose spend is not recorded."""


class Row(Record):
    """One customer of a data set; ``split`` is the fixed train/test assignment models use."""

    row_id: str
    dataset_id: str
    region: str
    channel: str
    visits: int
    spend: float | None
    tenure_months: int
    split: Literal["train", "test"]


class Grant(Record):
    grant_id: str
    dataset_id: str
    requester_id: str
    granted_on: str
    expires_on: str
    status: Literal["active", "revoked"]
    owner_code: str | None
    revoked_on: str | None


class DerivedTable(Record):
    """A cleaned copy of a data set: the rows kept, and the value a missing spend was filled with (if any)."""

    table_id: str
    dataset_id: str
    method: Literal["drop_missing", "impute_median"]
    row_ids: list[str]
    fill_value: float | None


class Report(Record):
    """Published figures about a table: a column summary or a group comparison, and who it is shared with."""

    report_id: str
    author_id: str
    table_id: str
    kind: Literal["summary", "group_test"]
    column: str
    figures: dict[str, float]
    shared_with: list[str]


class Chart(Record):
    """A chart as its specification: type, axes, aggregate and filter (never its pixels)."""

    chart_id: str
    requester_id: str
    table_id: str
    chart_type: Literal["bar", "pie", "line", "scatter"]
    x: str
    y: str
    aggregate: Literal["sum", "mean"]
    channel_filter: str


class Model(Record):
    """A straight-line model fitted on the train rows and scored on the test rows of a table."""

    model_id: str
    requester_id: str
    table_id: str
    target: str
    feature: str
    slope: float
    intercept: float
    train_rows: int
    test_rows: int
    test_rmse: float


class Verification(Record):
    requester_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    requester_id: str
    team: str


class ApprovalApp(Record):
    """A data owner's approval app: what they see on it, which the desk's systems do not read."""

    owner_id: str
    staff_number: str
    app_pin: str
    signed_in: bool
    shown: list[str]


class DataScienceDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    requesters: dict[str, Requester]
    datasets: dict[str, Dataset]
    rows: dict[str, Row]
    grants: dict[str, Grant]
    derived_tables: dict[str, DerivedTable]
    reports: dict[str, Report]
    charts: dict[str, Chart]
    models: dict[str, Model]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    approval_apps: dict[str, ApprovalApp]
