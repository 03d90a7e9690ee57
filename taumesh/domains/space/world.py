"""The desk's worlds, one a seed.

Each holds three customers and their six spacecraft, the desk's operators, four ground stations and a week of passes
over them, telemetry channels with their readings and alarms, conjunction warnings with their proposed avoidance
burns, and earlier imaging requests and queued commands. Every id carries the world's tag. The spacecraft play set
parts (:data:`CASES`) so that every world holds each case the policy distinguishes: a safe-mode spacecraft that may
be recovered and one that may not, an alarm that has cleared and one that has not, a burn worth approving, one below
the threshold and one that would eat into the reserve. :data:`INVARIANTS` states what the fleet's systems keep true.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.space.catalogue import (
    CHANNELS,
    COMPANIES,
    CONSTELLATIONS,
    DEBRIS,
    FIRST,
    LAST,
    STATIONS,
    TARGETS,
    WORDS,
)
from taumesh.domains.space.clock import (
    BUS_COMMANDS,
    MANEUVER_THRESHOLD,
    MIN_PASS_ELEVATION,
    TODAY,
    approval_code,
    booking_cost,
    days_after,
)

SEEDS = {"w1": 45_601, "w2": 45_602, "w3": 45_603}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
STATIONS_PER_WORLD, DAYS, OPERATORS = 4, 7, 7
CASES: dict[int, dict[str, Any]] = {
    1: {"mode": "nominal", "alarm": ("wheel_speed", "cleared"), "burn": "worth"},
    2: {"mode": "safe", "alarm": None, "burn": "worth"},
    3: {"mode": "nominal", "alarm": ("wheel_speed", "cleared"), "burn": "unlikely"},
    4: {"mode": "safe", "alarm": None, "burn": "reserve"},
    5: {"mode": "nominal", "alarm": ("bus_voltage", "standing"), "burn": "worth"},
    6: {"mode": "safe", "alarm": ("battery_temp", "standing"), "burn": "unlikely"},
}
"""What each spacecraft (by number in its world) shows: its mode, its active alarm, and its proposed burn."""
QUOTA_USE = (0.98, 0.4, 1.0)
"""How much of its monthly imaging quota each customer has used: nearly all, under half, all."""

Rec = dict[str, Any]
TABLES = [
    "customers", "callers", "spacecraft", "ground_stations", "passes", "channels", "readings", "alarms",
    "conjunctions", "maneuvers", "imaging_requests", "command_queue", "verifications", "handoffs", "consoles",
]  # fmt: skip


def _empty() -> World:
    return {name: {} for name in TABLES}


def _people(rng: random.Random, count: int) -> list[tuple[str, str]]:
    names = [(f, last) for f in FIRST for last in LAST]
    return rng.sample(names, count)


def _passphrase(rng: random.Random) -> str:
    first, second = rng.sample(WORDS, 2)
    return f"{first}-{second}"


def _customers(world: World, rng: random.Random, tag: str, index: int) -> None:
    for n in range(1, 4):
        quota = float(rng.choice([2000, 2500, 3000, 3500, 4000]))
        key = f"cu-{tag}-{n}"
        world["customers"][key] = {
            "customer_id": key,
            "name": COMPANIES[index * 3 + n - 1],
            "account_number": f"AC-{rng.randint(10000, 99999)}",
            "quota_km2": quota,
            "used_km2": round(quota * QUOTA_USE[n - 1] - (20 if n == 1 else 0), 2),
            "overage_per_km2": round(rng.uniform(2.4, 6.8), 2),
        }


def _callers(world: World, rng: random.Random, tag: str) -> None:
    customers = sorted(world["customers"])
    people = _people(rng, OPERATORS + 2 * len(customers))
    for n, (first, last) in enumerate(people, 1):
        key = f"cl-{tag}-{n:02d}"
        operator = n <= OPERATORS
        customer = None if operator else customers[(n - OPERATORS - 1) // 2]
        reference = f"OP-{rng.randint(1000, 9999)}" if operator else world["customers"][str(customer)]["account_number"]
        world["callers"][key] = {
            "caller_id": key,
            "first_name": first,
            "last_name": last,
            "role": "operator" if operator else "customer",
            "reference": reference,
            "passphrase": _passphrase(rng),
            "customer_id": customer,
        }
        if operator:
            world["consoles"][key] = {
                "caller_id": key,
                "operator_number": reference,
                "console_pin": f"{rng.randint(0, 999999):06d}",
                "signed_in": False,
                "shown": [],
            }


def _fleet(world: World, rng: random.Random, tag: str, index: int) -> None:
    names = CONSTELLATIONS[index * 6 : index * 6 + 6]
    for n, case in CASES.items():
        key = f"sc-{tag}-{n}"
        reserve = round(rng.uniform(6, 10), 1)
        world["spacecraft"][key] = {
            "spacecraft_id": key,
            "name": f"{names[n - 1]}-{rng.randint(1, 9)}",
            "customer_id": f"cu-{tag}-{(n + 1) // 2}",
            "mode": case["mode"],
            "mode_changes": rng.randint(2, 9),
            "propellant_kg": round(reserve + (0.4 if case["burn"] == "reserve" else rng.uniform(8, 40)), 1),
            "reserve_kg": reserve,
        }
    for n, name in enumerate(STATIONS[index * 4 : index * 4 + STATIONS_PER_WORLD], 1):
        key = f"gs-{tag}-{n}"
        world["ground_stations"][key] = {"station_id": key, "name": name, "rate_per_min": round(rng.uniform(11, 24), 2)}


def _passes(world: World, rng: random.Random, tag: str) -> None:
    count = 0
    for craft in sorted(world["spacecraft"]):
        for station in sorted(world["ground_stations"]):
            for offset in range(DAYS):
                count += 1
                key = f"ps-{tag}-{count:03d}"
                minute = rng.randint(0, 23 * 60 + 40)
                world["passes"][key] = {
                    "pass_id": key,
                    "spacecraft_id": craft,
                    "station_id": station,
                    "date": days_after(TODAY, offset),
                    "start_utc": f"{minute // 60:02d}:{minute % 60:02d}",
                    "duration_min": rng.randint(5, 14),
                    "max_elevation_deg": round(rng.choice([rng.uniform(5, 14.5), rng.uniform(16, 86)]), 1),
                    "status": "open",
                    "booking_cost": None,
                    "cancellation_charge": None,
                }
        for offsets in ((0,), (1, 2), (4, 5)):
            high = [
                p
                for _, p in sorted(world["passes"].items())
                if p["spacecraft_id"] == craft
                and p["max_elevation_deg"] >= MIN_PASS_ELEVATION
                and p["date"] in {days_after(TODAY, o) for o in offsets}
            ]
            chosen = rng.choice(high)
            rate = world["ground_stations"][chosen["station_id"]]["rate_per_min"]
            chosen.update(status="booked", booking_cost=booking_cost(chosen["duration_min"], rate))


def _value(rng: random.Random, low: float, high: float, inside: bool) -> float:
    span = high - low
    value = rng.uniform(low + 0.1 * span, high - 0.1 * span) if inside else high + rng.uniform(0.05, 0.2) * span
    return round(value, 1)


def _telemetry(world: World, rng: random.Random, tag: str) -> None:
    alarms = 0
    for n, case in CASES.items():
        craft = f"sc-{tag}-{n}"
        for short, (_, unit, low, high) in CHANNELS.items():
            channel_id = f"ch-{tag}-{n}-{short}"
            world["channels"][channel_id] = {
                "channel_id": channel_id,
                "spacecraft_id": craft,
                "channel": short,
                "unit": unit,
                "low": low,
                "high": high,
            }
            alarm = case["alarm"] if case["alarm"] and case["alarm"][0] == short else None
            tripped = alarm is not None or (case["mode"] == "safe" and short == "battery_temp")
            standing = alarm is not None and alarm[1] == "standing"
            for k, time in enumerate(("06:10", "07:55", "09:40")):
                inside = not ((tripped and k == 1) or (standing and k == 2))
                reading_id = f"rd-{tag}-{n}-{short}-{k + 1}"
                world["readings"][reading_id] = {
                    "reading_id": reading_id,
                    "channel_id": channel_id,
                    "time_utc": f"{TODAY.isoformat()}T{time}Z",
                    "value": _value(rng, low, high, inside),
                }
            if tripped:
                alarms += 1
                key = f"al-{tag}-{alarms:02d}"
                world["alarms"][key] = {
                    "alarm_id": key,
                    "channel_id": channel_id,
                    "raised_utc": f"{TODAY.isoformat()}T07:55Z",
                    "status": "active" if alarm else "acknowledged",
                    "acknowledged_by": None if alarm else f"cl-{tag}-{rng.randint(1, OPERATORS):02d}",
                }


def _conjunctions(world: World, rng: random.Random, tag: str) -> None:
    debris = rng.sample(DEBRIS, 2 * len(CASES))
    for n, case in CASES.items():
        craft = world["spacecraft"][f"sc-{tag}-{n}"]
        for k, status in enumerate(("closed", "monitoring")):
            key = f"cj-{tag}-{n}{k + 1}"
            likely = case["burn"] != "unlikely" and status == "monitoring"
            probability = rng.uniform(1.5, 9.5) * (1e-4 if likely else 1e-5)
            world["conjunctions"][key] = {
                "conjunction_id": key,
                "spacecraft_id": craft["spacecraft_id"],
                "object_name": debris[2 * n - 2 + k],
                "tca_date": days_after(TODAY, rng.randint(-20, -3) if status == "closed" else rng.randint(2, 6)),
                "miss_distance_m": rng.randint(60, 240) if likely else rng.randint(400, 1900),
                "probability": float(f"{probability:.2e}"),
                "status": status,
            }
            if status != "monitoring":
                continue
            burn = round(rng.uniform(0.6, 1.4), 2) if case["burn"] == "reserve" else round(rng.uniform(0.1, 0.35), 2)
            maneuver_id = f"mv-{tag}-{n}"
            world["maneuvers"][maneuver_id] = {
                "maneuver_id": maneuver_id,
                "spacecraft_id": craft["spacecraft_id"],
                "conjunction_id": key,
                "burn_date": days_after(world["conjunctions"][key]["tca_date"], -1),
                "delta_v_ms": round(burn * rng.uniform(0.18, 0.26), 3),
                "propellant_kg": burn,
                "status": "proposed",
                "approval_code": None,
            }


def _history(world: World, rng: random.Random, tag: str) -> None:
    """Earlier imaging requests and queued commands: the records a desk accumulates."""
    for n in range(1, 7):
        target, area = rng.choice(TARGETS)
        key = f"img-{tag}-{n:02d}"
        world["imaging_requests"][key] = {
            "request_id": key,
            "spacecraft_id": f"sc-{tag}-{n}",
            "target": target,
            "area_km2": area,
            "date": days_after(TODAY, -rng.randint(2, 15)),
            "charge": 0.0,
        }
    booked = [p for _, p in sorted(world["passes"].items()) if p["status"] == "booked" and p["date"] > str(TODAY)]
    for n, found in enumerate(rng.sample(booked, 4), 1):
        key = f"cmd-{tag}-{n:02d}"
        world["command_queue"][key] = {
            "command_id": key,
            "spacecraft_id": found["spacecraft_id"],
            "pass_id": found["pass_id"],
            "command": rng.choice(BUS_COMMANDS),
            "approval_code": approval_code(found["pass_id"]),
        }


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    index = int(tag[1:]) - 1
    world = _empty()
    _customers(world, rng, tag, index)
    _callers(world, rng, tag)
    _fleet(world, rng, tag, index)
    _passes(world, rng, tag)
    _telemetry(world, rng, tag)
    _conjunctions(world, rng, tag)
    _history(world, rng, tag)
    return copy.deepcopy(world)


def _booked_pass(found: Rec) -> str | None:
    if found["status"] == "booked" and found["max_elevation_deg"] < MIN_PASS_ELEVATION:
        return "is booked below the minimum elevation"
    if (found["status"] == "booked") != (found["booking_cost"] is not None):
        return "has a booking cost without a booking, or a booking without one"
    return None


def _reserve(craft: Rec) -> str | None:
    return None if craft["propellant_kg"] >= craft["reserve_kg"] else "holds less propellant than its reserve"


def _safe_mode_has_a_cause(world: World) -> list[str]:
    """A spacecraft in safe mode went there on a reading out of limits today, with its alarm on record."""
    problems = []
    for key, craft in world["spacecraft"].items():
        channels = {k for k, c in world["channels"].items() if c["spacecraft_id"] == key}
        tripped = [a for a in world["alarms"].values() if a["channel_id"] in channels]
        if craft["mode"] == "safe" and not tripped:
            problems.append(f"{key} is in safe mode with no alarm")
    return problems


def _alarm_reading(world: World) -> list[str]:
    """Every alarm was raised on a reading outside its channel's limits at the time it was raised."""
    problems = []
    for key, alarm in world["alarms"].items():
        channel = world["channels"][alarm["channel_id"]]
        at = [
            r
            for r in world["readings"].values()
            if r["channel_id"] == alarm["channel_id"] and r["time_utc"] == alarm["raised_utc"]
        ]
        if not at or channel["low"] <= at[0]["value"] <= channel["high"]:
            problems.append(f"{key} has no reading out of limits when it was raised")
    return problems


def _maneuver_fits(world: World) -> list[str]:
    problems = []
    for key, maneuver in world["maneuvers"].items():
        conjunction = world["conjunctions"][maneuver["conjunction_id"]]
        if conjunction["spacecraft_id"] != maneuver["spacecraft_id"]:
            problems.append(f"{key} avoids another spacecraft's conjunction")
        if not str(TODAY) < maneuver["burn_date"] < conjunction["tca_date"]:
            problems.append(f"{key} burns outside the days between today and the closest approach")
    return problems


def _one_open_warning(world: World) -> list[str]:
    """A spacecraft has at most one conjunction under monitoring, so a briefing names one."""
    open_by = [c["spacecraft_id"] for c in world["conjunctions"].values() if c["status"] == "monitoring"]
    return [f"{key} has {open_by.count(key)} open warnings" for key in set(open_by) if open_by.count(key) > 1]


def _probability(conjunction: Rec) -> str | None:
    near = conjunction["probability"] >= MANEUVER_THRESHOLD
    if near and conjunction["miss_distance_m"] > 300:
        return "is likely yet passes far"
    return None if 0 < conjunction["probability"] < 1 else "has no probability"


def _tagged(world: World) -> list[str]:
    return [f"{table}[{key}]" for table, records in world.items() for key in records if key.split("-")[1] not in SEEDS]


INVARIANTS = (
    per_record("passes", "a booked pass peaks above the minimum elevation and carries its cost", _booked_pass),
    per_record("spacecraft", "a spacecraft keeps its propellant reserve", _reserve),
    per_record("conjunctions", "a likely conjunction passes close", _probability),
    Invariant("a spacecraft in safe mode has the alarm that put it there", _safe_mode_has_a_cause),
    Invariant("an alarm is raised on a reading out of limits", _alarm_reading),
    Invariant("a burn avoids its own spacecraft's conjunction, before it", _maneuver_fits),
    Invariant("a spacecraft has at most one open conjunction warning", _one_open_warning),
    Invariant("every id carries its world's tag", _tagged),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
