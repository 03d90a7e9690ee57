"""The farm desk's database: one pydantic model per record, one field per table (``data/<table>.json``).

``field_apps`` is the grower's side: their FieldLink app (sign-in, the soil probes' readings not yet synced, the spray
logs their applicators kept). The desk's tools never read it; the grower syncs a probe or reads a log out (dual
control), and :mod:`~taumesh.domains.agriculture.hashing` leaves it out of the graded state.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

JobStatus = Literal["scheduled", "awaiting_log", "completed", "cancelled"]
HandoffTeam = Literal["compliance", "agronomist", "water_office", "other"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Grower(Record):
    grower_id: str
    first_name: str
    last_name: str
    farm_name: str
    member_number: str
    postal_code: str
    phone: str


class District(Record):
    """A water and weather district: fields in one share a forecast and a water licence (policy 9.2)."""

    district_id: str
    name: str


class Season(Record):
    season: int
    crop: str


class Field(Record):
    field_id: str
    grower_id: str
    name: str
    district_id: str
    area_ha: float
    soil: str
    refill_point_pct: float
    """Soil moisture below this (volumetric %) means the crop needs water (policy 8.3)."""
    allocation_m3: float
    """The season's water allocation of the field's licence share."""
    used_m3: float
    """Water drawn or booked this season."""
    crop_history: list[Season]
    """Every season's crop, oldest first; the last is the crop in the ground now."""
    expected_harvest: str
    reentry_from: str | None
    """When people may walk in again after the last logged spray (``YYYY-MM-DDTHH:MM``); None: never sprayed."""


class Sensor(Record):
    sensor_id: str
    field_id: str
    kind: Literal["soil_probe"]
    depth_cm: int
    last_synced: str


class Reading(Record):
    reading_id: str
    sensor_id: str
    taken_at: str
    soil_moisture_pct: float


class Forecast(Record):
    forecast_id: str
    district_id: str
    date: str
    max_wind_kmh: int
    rain_mm: float


class Product(Record):
    product_id: str
    name: str
    kind: Literal["herbicide", "fungicide", "insecticide"]
    label_rate_l_ha: float
    rei_hours: int
    """Re-entry interval: hours after a spray before people may enter the field (policy 7.1)."""
    phi_days: int
    """Pre-harvest interval: days between a spray and the harvest (policy 4.4)."""
    max_wind_kmh: int


class SprayJob(Record):
    job_id: str
    field_id: str
    product_id: str
    date: str
    rate_l_ha: float
    status: JobStatus
    cancellation_fee: float | None
    applied_rate_l_ha: float | None
    completed_at: str | None
    log_reference: str | None


class IrrigationEvent(Record):
    event_id: str
    field_id: str
    date: str
    depth_mm: int
    volume_m3: float


class EntryPermit(Record):
    permit_id: str
    field_id: str
    date: str
    crew_size: int


class YieldRecord(Record):
    record_id: str
    field_id: str
    season: int
    crop: str
    harvested_tonnes: float
    area_ha: float
    yield_t_ha: float
    status: Literal["draft", "certified"]
    revisions: list[float]
    """The tonnes each correction replaced, oldest first: a correction always leaves a trace."""


class Planting(Record):
    planting_id: str
    field_id: str
    season: int
    crop: str
    planned_sowing: str


class AllocationTransfer(Record):
    transfer_id: str
    from_field_id: str
    to_field_id: str
    volume_m3: float


class Verification(Record):
    grower_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    grower_id: str
    team: HandoffTeam


class PendingReading(Record):
    taken_at: str
    soil_moisture_pct: float


class SprayLog(Record):
    """What the applicator entered in the grower's app when the job was done."""

    applied_rate_l_ha: float
    finished_at: str


class FieldApp(Record):
    """The grower's FieldLink app: what they see and confirm there, which the desk's systems do not read."""

    grower_id: str
    username: str
    pin: str
    signed_in: bool
    unsynced_readings: dict[str, PendingReading]
    """By probe id: the reading the probe holds that the desk has not received."""
    spray_logs: dict[str, SprayLog]
    """By job id: the applicator's log of a job done but not yet logged with the desk."""
    confirmed_logs: list[str]


class AgricultureDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    growers: dict[str, Grower]
    districts: dict[str, District]
    fields: dict[str, Field]
    sensors: dict[str, Sensor]
    readings: dict[str, Reading]
    forecasts: dict[str, Forecast]
    products: dict[str, Product]
    spray_jobs: dict[str, SprayJob]
    irrigation_events: dict[str, IrrigationEvent]
    entry_permits: dict[str, EntryPermit]
    yield_records: dict[str, YieldRecord]
    plantings: dict[str, Planting]
    allocation_transfers: dict[str, AllocationTransfer]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    field_apps: dict[str, FieldApp]
