"""The desk's worlds: growers with their fields, probes, forecasts, spray jobs, yields and field app, one per seed.

Every id but the products' carries the world's tag. :data:`INVARIANTS` states what a farm-operations system keeps
true (readings and logs in the past, bookings ahead, water used within the allocation, a field's re-entry time that
follows from its logged sprays, yields per hectare that follow from tonnes and area) and :func:`worlds` checks it on
each world it builds.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from taumesh.domains.agriculture.catalogue import (
    BASE_YIELD_T_HA,
    CROP_FAMILY,
    DISTRICTS,
    FARM_KINDS,
    FARM_WORDS,
    FIELD_NAMES,
    FIRST,
    LAST,
    PRODUCTS,
    SOIL_REFILL_PCT,
)
from taumesh.domains.agriculture.clock import (
    FORECAST_DAYS,
    NOW,
    TODAY,
    days_after,
    log_reference,
    reading_time,
    reentry_from,
    stamp,
    water_volume,
    yield_per_hectare,
)
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 45_401, "w2": 45_402, "w3": 45_403}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
GROWERS = 22
"""Growers per world, three fields each."""
FIELDS_PER_GROWER = 3
NEARLY_SPENT = 0.25
"""The share of fields whose season's water is nearly all used: a deep irrigation no longer fits (policy 8.5)."""
READING_DAYS = 4
"""Days of readings the desk holds for each probe, up to yesterday; today's waits in the grower's app."""

Record = dict[str, Any]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the products' carries ``tag``."""
    rng = random.Random(seed)
    world: World = {
        "growers": {},
        "districts": {},
        "fields": {},
        "sensors": {},
        "readings": {},
        "forecasts": {},
        "products": copy.deepcopy(PRODUCTS),
        "spray_jobs": {},
        "irrigation_events": {},
        "entry_permits": {},
        "yield_records": {},
        "plantings": {},
        "allocation_transfers": {},
        "verifications": {},
        "handoffs": {},
        "field_apps": {},
    }
    districts = [f"dist-{tag}-{k}" for k in (1, 2, 3)]
    for district_id, name in zip(districts, rng.sample(DISTRICTS, len(districts)), strict=True):
        world["districts"][district_id] = {"district_id": district_id, "name": name}
        _forecast(world, rng, district_id)
    names = rng.sample([(f, last) for f in FIRST for last in LAST], GROWERS)
    farms = rng.sample([f"{word} {kind}" for word in FARM_WORDS for kind in FARM_KINDS], GROWERS)
    for number, ((first, last), farm) in enumerate(zip(names, farms, strict=True), 1):
        grower_id = f"gro-{tag}-{number:03d}"
        world["growers"][grower_id] = {
            "grower_id": grower_id,
            "first_name": first,
            "last_name": last,
            "farm_name": farm,
            "member_number": f"CM-{rng.randint(100_000, 999_999)}",
            "postal_code": str(rng.randint(2_600, 7_499)),
            "phone": f"04{rng.randint(10_000_000, 99_999_999)}",
        }
        world["field_apps"][grower_id] = {
            "grower_id": grower_id,
            "username": f"{first.lower()[:3]}{last.lower()[:5]}{rng.randint(10, 99)}",
            "pin": f"{rng.randint(0, 9999):04d}",
            "signed_in": False,
            "unsynced_readings": {},
            "spray_logs": {},
            "confirmed_logs": [],
        }
        home = rng.choice(districts)
        away = rng.choice([d for d in districts if d != home])
        spread = [home, home, away if rng.random() < 0.5 else home]
        for field_name, district_id in zip(rng.sample(FIELD_NAMES, FIELDS_PER_GROWER), spread, strict=True):
            _field(world, rng, tag, grower_id, field_name, district_id)
    return world


def _forecast(world: World, rng: random.Random, district_id: str) -> None:
    for offset in range(FORECAST_DAYS):
        date = days_after(TODAY, offset)
        windy = rng.random() < 0.35
        rainy = rng.random() < 0.25
        forecast_id = f"fc-{district_id.removeprefix('dist-')}-{date}"
        world["forecasts"][forecast_id] = {
            "forecast_id": forecast_id,
            "district_id": district_id,
            "date": date,
            "max_wind_kmh": rng.randint(16, 32) if windy else rng.randint(4, 11),
            "rain_mm": round(rng.uniform(2.5, 14.0), 1) if rainy else rng.choice([0.0, 0.0, 0.4, 1.2]),
        }


def _crops(rng: random.Random) -> list[str]:
    """Three seasons of crops, each of another family than the season before (good rotation)."""
    crops = [rng.choice(sorted(CROP_FAMILY))]
    while len(crops) < 3:
        crops.append(rng.choice([c for c in sorted(CROP_FAMILY) if CROP_FAMILY[c] != CROP_FAMILY[crops[-1]]]))
    return crops


def _field(world: World, rng: random.Random, tag: str, grower_id: str, name: str, district_id: str) -> None:
    number = len(world["fields"]) + 1
    field_id = f"fld-{tag}-{number:03d}"
    soil = rng.choice(sorted(SOIL_REFILL_PCT))
    area = round(rng.uniform(18.0, 96.0), 1)
    allocation = float(round(area * rng.uniform(1_400, 2_600), -2))
    crops = _crops(rng)
    field: Record = {
        "field_id": field_id,
        "grower_id": grower_id,
        "name": name,
        "district_id": district_id,
        "area_ha": area,
        "soil": soil,
        "refill_point_pct": SOIL_REFILL_PCT[soil],
        "allocation_m3": allocation,
        "used_m3": 0.0,
        "crop_history": [{"season": s, "crop": c} for s, c in zip((2023, 2024, 2025), crops, strict=True)],
        "expected_harvest": days_after(TODAY, rng.randint(12, 110)),
        "reentry_from": None,
    }
    world["fields"][field_id] = field
    _probe(world, rng, tag, number, field)
    _irrigations(world, rng, tag, field)
    _sprays(world, rng, tag, field)
    for season, crop in zip((2023, 2024), crops[:2], strict=True):
        tonnes = round(BASE_YIELD_T_HA[crop] * area * rng.uniform(0.7, 1.3), 1)
        record_id = f"yld-{tag}-{number:03d}-{season}"
        world["yield_records"][record_id] = {
            "record_id": record_id,
            "field_id": field_id,
            "season": season,
            "crop": crop,
            "harvested_tonnes": tonnes,
            "area_ha": area,
            "yield_t_ha": yield_per_hectare(tonnes, area),
            "status": "certified" if season == 2023 or rng.random() < 0.4 else "draft",
            "revisions": [],
        }


def _probe(world: World, rng: random.Random, tag: str, number: int, field: Record) -> None:
    sensor_id = f"probe-{tag}-{number:03d}"
    refill = field["refill_point_pct"]
    moisture = refill + rng.uniform(-4.0, 6.0)
    for back in range(READING_DAYS, 0, -1):
        taken = reading_time(TODAY.fromordinal(TODAY.toordinal() - back))
        moisture = max(4.0, moisture - rng.uniform(0.3, 1.8))
        reading_id = f"rd-{sensor_id}-{taken[:10]}"
        world["readings"][reading_id] = {
            "reading_id": reading_id,
            "sensor_id": sensor_id,
            "taken_at": taken,
            "soil_moisture_pct": round(moisture, 1),
        }
    world["sensors"][sensor_id] = {
        "sensor_id": sensor_id,
        "field_id": field["field_id"],
        "kind": "soil_probe",
        "depth_cm": rng.choice([20, 30, 40]),
        "last_synced": taken,
    }
    today = refill - rng.uniform(1.5, 7.0) if rng.random() < 0.6 else refill + rng.uniform(1.5, 8.0)
    app = world["field_apps"][field["grower_id"]]
    app["unsynced_readings"][sensor_id] = {"taken_at": reading_time(TODAY), "soil_moisture_pct": round(today, 1)}


def _irrigations(world: World, rng: random.Random, tag: str, field: Record) -> None:
    for _ in range(rng.randint(1, 3)):
        depth = rng.choice([15, 20, 25, 30])
        volume = water_volume(depth, field["area_ha"])
        if field["used_m3"] + volume > 0.7 * field["allocation_m3"]:
            break
        event_id = f"irr-{tag}-{len(world['irrigation_events']) + 1:03d}"
        world["irrigation_events"][event_id] = {
            "event_id": event_id,
            "field_id": field["field_id"],
            "date": days_after(TODAY, -rng.randint(6, 40)),
            "depth_mm": depth,
            "volume_m3": volume,
        }
        field["used_m3"] = round(field["used_m3"] + volume, 1)
    if rng.random() < NEARLY_SPENT:
        _spend_down(world, rng, tag, field, left_mm=rng.randint(8, 14))


def _spend_down(world: World, rng: random.Random, tag: str, field: Record, left_mm: int) -> None:
    """Irrigations that leave only about ``left_mm`` millimetres of the field's allocation, 30 mm at a time."""
    depth = int((field["allocation_m3"] - field["used_m3"]) / (field["area_ha"] * 10)) - left_mm
    while depth > 0:
        step = min(depth, 30)
        event_id = f"irr-{tag}-{len(world['irrigation_events']) + 1:03d}"
        volume = water_volume(step, field["area_ha"])
        world["irrigation_events"][event_id] = {
            "event_id": event_id,
            "field_id": field["field_id"],
            "date": days_after(TODAY, -rng.randint(2, 60)),
            "depth_mm": step,
            "volume_m3": volume,
        }
        field["used_m3"] = round(field["used_m3"] + volume, 1)
        depth -= step


def _job(world: World, tag: str, field: Record, product_id: str, date: str, status: str) -> Record:
    job_id = f"job-{tag}-{len(world['spray_jobs']) + 1:03d}"
    job: Record = {
        "job_id": job_id,
        "field_id": field["field_id"],
        "product_id": product_id,
        "date": date,
        "rate_l_ha": PRODUCTS[product_id]["label_rate_l_ha"],
        "status": status,
        "cancellation_fee": None,
        "applied_rate_l_ha": None,
        "completed_at": None,
        "log_reference": None,
    }
    world["spray_jobs"][job_id] = job
    return job


def _sprays(world: World, rng: random.Random, tag: str, field: Record) -> None:
    """A field's sprays: an old logged job, then one booked ahead, one awaiting its log, one just done, or none."""
    products = sorted(PRODUCTS)
    old = _job(world, tag, field, rng.choice(products), days_after(TODAY, -rng.randint(20, 60)), "completed")
    _complete(old, f"{old['date']}T{rng.randint(9, 16):02d}:00", 1.0)
    field["reentry_from"] = reentry_from(old["completed_at"], PRODUCTS[old["product_id"]]["rei_hours"])
    scenario = rng.choice(["booked", "booked", "awaiting_log", "just_done", "none"])
    product_id = rng.choice(products)
    if scenario == "booked":
        _job(world, tag, field, product_id, days_after(TODAY, rng.choice([0, 0, 1, 2, 3, 5, 8])), "scheduled")
    elif scenario == "awaiting_log":
        job = _job(world, tag, field, product_id, days_after(TODAY, -rng.randint(1, 3)), "awaiting_log")
        over = rng.random() < 0.4
        rate = PRODUCTS[product_id]["label_rate_l_ha"] * (rng.uniform(1.12, 1.45) if over else 1.0)
        app = world["field_apps"][field["grower_id"]]
        app["spray_logs"][job["job_id"]] = {
            "applied_rate_l_ha": round(rate, 2),
            "finished_at": f"{job['date']}T{rng.randint(8, 17):02d}:{rng.choice(['00', '15', '30', '45'])}",
        }
    elif scenario == "just_done":
        product_id = rng.choice([p for p in products if PRODUCTS[p]["rei_hours"] >= 24])
        job = _job(world, tag, field, product_id, days_after(TODAY, -rng.randint(0, 1)), "completed")
        finished = f"{job['date']}T{rng.randint(6, 18):02d}:{rng.choice(['00', '30'])}"
        if finished < stamp(NOW):
            _complete(job, finished, 1.0)
            field["reentry_from"] = reentry_from(finished, PRODUCTS[product_id]["rei_hours"])
        else:
            job["status"] = "scheduled"


def _complete(job: Record, finished: str, share_of_label: float) -> None:
    job.update(
        status="completed",
        applied_rate_l_ha=round(job["rate_l_ha"] * share_of_label, 2),
        completed_at=finished,
        log_reference=log_reference(job["job_id"]),
    )


def _past(value: str | None) -> bool:
    return value is None or value < stamp(NOW)


def _reentry_follows_sprays(world: World) -> list[str]:
    problems = []
    for key, field in world["fields"].items():
        done = [j for j in world["spray_jobs"].values() if j["field_id"] == key and j["status"] == "completed"]
        latest = max(
            (reentry_from(j["completed_at"], PRODUCTS[j["product_id"]]["rei_hours"]) for j in done), default=None
        )
        if latest != field["reentry_from"]:
            problems.append(f"field {key} reopens {field['reentry_from']}, its sprays say {latest}")
    return problems


def _jobs_in_time(job: Record) -> str | None:
    today = TODAY.isoformat()
    if job["status"] == "scheduled":
        return None if job["date"] >= today else "is booked for a past day"
    if job["status"] == "awaiting_log":
        return None if job["date"] < today else "awaits its log before its day"
    return None if _past(job["completed_at"]) else "was completed in the future"


def _logs_of_waiting_jobs(world: World) -> list[str]:
    logged = {job_id for app in world["field_apps"].values() for job_id in app["spray_logs"]}
    waiting = {key for key, job in world["spray_jobs"].items() if job["status"] == "awaiting_log"}
    return [f"job {key} has no log in its grower's app" for key in sorted(waiting ^ logged)]


def _water_within_allocation(field: Record) -> str | None:
    return None if 0 <= field["used_m3"] <= field["allocation_m3"] else f"uses {field['used_m3']} m3 of its allocation"


def _rotated(field: Record) -> str | None:
    families = [CROP_FAMILY[season["crop"]] for season in field["crop_history"]]
    repeats = any(a == b for a, b in itertools.pairwise(families))
    return "grew one family two seasons running" if repeats else None


def _yield_follows(record: Record) -> str | None:
    expected = yield_per_hectare(record["harvested_tonnes"], record["area_ha"])
    return None if record["yield_t_ha"] == expected else f"states {record['yield_t_ha']} t/ha, not {expected}"


def _probes_wait_for_today(world: World) -> list[str]:
    problems = []
    for app in world["field_apps"].values():
        for sensor_id, pending in app["unsynced_readings"].items():
            if pending["taken_at"] != reading_time(TODAY) or world["sensors"][sensor_id]["last_synced"] >= reading_time(
                TODAY
            ):
                problems.append(f"probe {sensor_id}: today's reading is not the one waiting in the app")
    return problems


def _forecast_covers_days(world: World) -> list[str]:
    wanted = {days_after(TODAY, offset) for offset in range(FORECAST_DAYS)}
    return [
        f"district {key} lacks a forecast day"
        for key in world["districts"]
        if {f["date"] for f in world["forecasts"].values() if f["district_id"] == key} != wanted
    ]


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table != "products"
        for key in records
        if not any(f"-{tag}-" in f"-{key}-" for tag in SEEDS)
    ]


INVARIANTS = (
    per_record("readings", "readings are taken in the past", lambda r: None if _past(r["taken_at"]) else "future"),
    per_record("spray_jobs", "bookings are ahead, logs and completions behind", _jobs_in_time),
    per_record("fields", "water used stays within the allocation", _water_within_allocation),
    per_record("fields", "fields have been rotated every season", _rotated),
    per_record("yield_records", "yield per hectare follows from tonnes and area", _yield_follows),
    Invariant("a field's re-entry time follows from its logged sprays", _reentry_follows_sprays),
    Invariant("every job awaiting its log has a log in the grower's app", _logs_of_waiting_jobs),
    Invariant("today's probe readings wait in the grower's app, unsynced", _probes_wait_for_today),
    Invariant("every district has a forecast for each of the ten days", _forecast_covers_days),
    Invariant("every id but the products' carries its world's tag", _tagged),
)
