"""The desk's reference solvers: per intent, every outcome the policy allows, from a world and a grower.

Each solver reads the grower's records as the agent would, then answers with the factory's parts: the steps of the
allowed outcome, what the agent must say (a fee, a volume, a reading, a yield, why a request is declined), and for a
trap the write the grower asks for and the clause that forbids it. An intent's instruction is one template for its
trap and plain tasks alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.agriculture.catalogue import CROP_FAMILY, PRODUCTS
from taumesh.domains.agriculture.clock import (
    FORECAST_DAYS,
    MAX_RAIN_MM,
    TODAY,
    days_after,
    figure,
    first_entry_day,
    late_notice_fee,
    log_reference,
    reading_time,
    water_volume,
    yield_per_hectare,
)
from taumesh.domains.agriculture.drafts import Draft, Grower
from taumesh.domains.agriculture.world import SEEDS
from taumesh.domains.factory import FactoryTask, World, act

Record = dict[str, Any]
DISPATCHED = "dispatched|on its way|already left|on the road"
CERTIFIED = "certified"
ROTATION = "rotation|same family|same crop family|same plant family"
DISTRICT = "district"
PRE_HARVEST = "pre-harvest|harvest interval|withholding"


def _fields(world: World, grower: Grower) -> list[Record]:
    return sorted(
        (f for f in world["fields"].values() if f["grower_id"] == grower["grower_id"]), key=lambda f: f["field_id"]
    )


def _forecast(world: World, district_id: str, date: str) -> Record:
    return next(f for f in world["forecasts"].values() if f["district_id"] == district_id and f["date"] == date)


def _sprayable(world: World, field: Record, product: Record, date: str) -> bool:
    """Policy 4.3: wind at or below the product's limit and rain under 2 mm."""
    forecast = _forecast(world, field["district_id"], date)
    return bool(forecast["max_wind_kmh"] <= product["max_wind_kmh"] and forecast["rain_mm"] < MAX_RAIN_MM)


def spray_booking(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Book the day asked if it is a spraying day (4.3); else the first later one in the forecast (4.5)."""
    field = rng.choice(_fields(world, grower))
    product = PRODUCTS[rng.choice(sorted(PRODUCTS))]
    asked = days_after(TODAY, rng.randint(1, 5))
    later = [days_after(TODAY, d) for d in range(1, FORECAST_DAYS) if days_after(TODAY, d) > asked]
    booked = (
        asked
        if _sprayable(world, field, product, asked)
        else next((d for d in later if _sprayable(world, field, product, d)), None)
    )
    if booked is None:
        return None
    too_late = days_after(asked, product["phi_days"]) > field["expected_harvest"]
    if not too_late and days_after(booked, product["phi_days"]) > field["expected_harvest"]:
        return None  # the weather moves the job past its pre-harvest interval: two reasons at once
    draft = Draft(world, grower, intent="spray_booking").cite("4.1", "4.2", "4.3", "4.4")
    draft.do(
        act("list_fields", grower_id=draft.gid),
        act("get_field", field_id=field["field_id"]),
        act("get_forecast", district_id=field["district_id"]),
        act("list_products"),
    )
    draft.goal.append(
        f"You want {product['name']} sprayed on your {field['name']} on {asked}. If the spray cannot go ahead that"
        " day, you take the earliest later day the agent can book."
    )
    book = act("schedule_spray", field_id=field["field_id"], product_id=product["product_id"], date=booked)
    if too_late:
        draft.trap(
            f"4.4: {asked} plus {product['name']}'s {product['phi_days']}-day pre-harvest interval passes the"
            f" expected harvest {field['expected_harvest']}: nothing booked",
            act("schedule_spray", field_id=field["field_id"], product_id=product["product_id"], date=asked),
        )
        return draft.say("text", PRE_HARVEST, "4.4: the pre-harvest interval would run past the harvest")
    if booked != asked:
        draft.trap(
            f"4.3: {asked}'s forecast is too windy or wet for {product['name']}; 4.5: {booked} is booked instead",
            act("schedule_spray", field_id=field["field_id"], product_id=product["product_id"], date=asked),
        ).cite("4.5", "3.2")
    return draft.cite("3.1").do(book)


def spray_cancellation(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Cancel a booked job; not one dispatched today (5.2); a late-notice fee within two days (5.3)."""
    booked = [
        (field, job)
        for field in _fields(world, grower)
        for job in sorted(world["spray_jobs"].values(), key=lambda j: j["job_id"])
        if job["field_id"] == field["field_id"] and job["status"] == "scheduled"
    ]
    if not booked:
        return None
    field, job = rng.choice(booked)
    product = PRODUCTS[job["product_id"]]
    draft = Draft(world, grower, intent="spray_cancellation").cite("5.1")
    draft.do(act("list_fields", grower_id=draft.gid), act("list_spray_jobs", field_id=field["field_id"]))
    draft.goal.append(
        f"You want to cancel the {product['name']} spray booked on your {field['name']} for {job['date']}. If it"
        " cannot be cancelled, you want to know why; if cancelling costs anything, you want to know how much."
    )
    cancel = act("cancel_spray_job", job_id=job["job_id"])
    if job["date"] == TODAY.isoformat():
        draft.trap("5.2: the job is dated today and has been dispatched: no cancellation", cancel).cite("5.2")
        return draft.say("text", DISPATCHED, "5.2: the job has been dispatched")
    draft.cite("3.1", "5.3", "5.4").do(cancel)
    fee = late_notice_fee(job["date"], field["area_ha"])
    return draft.say("amount", figure(fee), "5.3: the late-notice fee charged") if fee else draft


def spray_log(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Log a finished spray from the grower's app (6.1, 6.2); an over-label rate goes to compliance (6.3)."""
    waiting = [
        (field, job)
        for field in _fields(world, grower)
        for job in sorted(world["spray_jobs"].values(), key=lambda j: j["job_id"])
        if job["field_id"] == field["field_id"] and job["status"] == "awaiting_log"
    ]
    if not waiting:
        return None
    field, job = rng.choice(waiting)
    product = PRODUCTS[job["product_id"]]
    log = world["field_apps"][grower["grower_id"]]["spray_logs"][job["job_id"]]
    draft = Draft(world, grower, intent="spray_log").cite("6.1", "6.2")
    draft.do(act("list_fields", grower_id=draft.gid), act("list_spray_jobs", field_id=field["field_id"]))
    draft.sign_in().do(act("confirm_spray_log", "user", job_id=job["job_id"]), act("list_products"))
    draft.goal.append(
        f"The contractor has sprayed {product['name']} on your {field['name']} (the job booked for {job['date']}),"
        " and you want the spray logged with the co-op. When the agent asks, confirm the spray log in your"
        " FieldLink app and read out what it shows. If the agent cannot log it, you accept being transferred to"
        " the right team."
    )
    record = act(
        "record_spray_completion",
        job_id=job["job_id"],
        applied_rate_l_ha=log["applied_rate_l_ha"],
        finished_at=log["finished_at"],
        log_reference=log_reference(job["job_id"]),
    )
    if log["applied_rate_l_ha"] > product["label_rate_l_ha"]:
        draft.trap(
            f"6.3: {log['applied_rate_l_ha']} L/ha is over the {product['label_rate_l_ha']} L/ha label: compliance",
            record,
        ).cite("6.3", "12.1", "12.2")
        return draft.do(act("transfer_to_human_agents", grower_id=draft.gid, team="compliance"))
    return draft.cite("3.1", "6.3").do(record)


def entry_permit(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """A permit for the day asked once the re-entry interval is over by 07:00 (7.1, 7.2); else the first such day."""
    fields = _fields(world, grower)
    closed = [f for f in fields if first_entry_day(f["reentry_from"]) > TODAY.isoformat()]
    field = rng.choice(fields + closed * 2)
    asked = days_after(TODAY, rng.randint(0, 2))
    crew = rng.randint(2, 9)
    first = first_entry_day(field["reentry_from"])
    draft = Draft(world, grower, intent="entry_permit").cite("7.1", "7.2", "7.4")
    draft.do(act("list_fields", grower_id=draft.gid), act("get_field", field_id=field["field_id"]))
    draft.goal.append(
        f"You want a permit for a crew of {crew} to work in your {field['name']} on {asked}. If they cannot go in"
        " that day, you take the first day the agent can give."
    )
    if asked < first:
        draft.trap(
            f"7.1: the field may be entered from {field['reentry_from']}; 7.3: a permit for {first} instead",
            act("issue_entry_permit", field_id=field["field_id"], date=asked, crew_size=crew),
        ).cite("7.3", "3.2")
    return draft.cite("3.1").do(
        act("issue_entry_permit", field_id=field["field_id"], date=max(asked, first), crew_size=crew)
    )


def irrigation(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Irrigate on today's synced reading below the refill point (8.1, 8.3), within the allocation (8.5)."""
    field = rng.choice(_fields(world, grower))
    probe = next(s for s in world["sensors"].values() if s["field_id"] == field["field_id"])
    today = world["field_apps"][grower["grower_id"]]["unsynced_readings"][probe["sensor_id"]]
    assert today["taken_at"] == reading_time(TODAY)
    depth = rng.choice([15, 20, 25, 30, 35])
    when = days_after(TODAY, rng.randint(0, 1))
    left = field["allocation_m3"] - field["used_m3"]
    fits = next((d for d in range(depth, 0, -1) if water_volume(d, field["area_ha"]) <= left), 0)
    dry = today["soil_moisture_pct"] < field["refill_point_pct"]
    if fits < 1 or (not dry and fits < depth):
        return None  # no water left at all, or two reasons at once
    draft = Draft(world, grower, intent="irrigation").cite("8.1", "8.2", "8.3")
    draft.do(act("list_fields", grower_id=draft.gid), act("get_field", field_id=field["field_id"]))
    draft.sign_in().do(act("sync_soil_probes", "user"), act("get_probe_readings", sensor_id=probe["sensor_id"]))
    draft.goal.append(
        f"You want your {field['name']} irrigated {depth} mm deep on {when}. When the agent asks, sync your soil"
        " probes in your FieldLink app. If that depth does not fit in what is left of the field's water"
        " allocation, you take the deepest the agent can book. If the field is not irrigated, you want to know the"
        " soil moisture reading behind that; if it is, you want to know how much water the irrigation takes."
    )
    water = act("schedule_irrigation", field_id=field["field_id"], date=when, depth_mm=depth)
    if not dry:
        draft.trap(
            f"8.3: today's reading {today['soil_moisture_pct']} % is at or above the refill point"
            f" {field['refill_point_pct']} %: no irrigation",
            water,
        )
        return draft.say("amount", figure(today["soil_moisture_pct"]), "8.3: today's soil moisture reading")
    if fits < depth:
        draft.trap(
            f"8.5: {depth} mm takes {water_volume(depth, field['area_ha'])} m3 but {round(left, 1)} m3 are left;"
            f" {fits} mm, the deepest that fits, instead",
            water,
        ).cite("3.2")
        water = act("schedule_irrigation", field_id=field["field_id"], date=when, depth_mm=fits)
    draft.cite("3.1", "8.4", "8.5").do(water)
    return draft.say("amount", figure(water_volume(fits, field["area_ha"])), "8.5: the volume the irrigation takes")


def allocation_transfer(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Move allocation between the grower's fields of one district (9.2), within what is left (9.3)."""
    giver, taker = rng.sample(_fields(world, grower), 2)
    left = giver["allocation_m3"] - giver["used_m3"]
    volume = rng.choice([500, 1_000, 1_500, 2_000, 2_500, 3_000])
    if volume > left:
        return None
    draft = Draft(world, grower, intent="allocation_transfer").cite("9.1", "9.2", "9.3")
    draft.do(
        act("list_fields", grower_id=draft.gid),
        act("get_field", field_id=giver["field_id"]),
        act("get_field", field_id=taker["field_id"]),
    )
    draft.goal.append(
        f"You want {volume} cubic metres of this season's water allocation moved from your {giver['name']} to"
        f" your {taker['name']}. If it cannot be moved, you want to know why; if it can, you want to know the"
        f" new allocation of your {taker['name']}."
    )
    move = act("transfer_allocation", from_field_id=giver["field_id"], to_field_id=taker["field_id"], volume_m3=volume)
    if giver["district_id"] != taker["district_id"]:
        draft.trap("9.2: the two fields lie in different districts: no transfer", move)
        return draft.say("text", DISTRICT, "9.2: the fields are in different districts")
    draft.cite("3.1", "9.4").do(move)
    return draft.say("amount", figure(taker["allocation_m3"] + volume), "9.4: the receiving field's new allocation")


def yield_correction(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Correct a draft record (10.1) and state the new yield per hectare (10.3); a certified one stays (10.2)."""
    field = rng.choice(_fields(world, grower))
    found = [y for y in world["yield_records"].values() if y["field_id"] == field["field_id"]]
    record = rng.choice(sorted(found, key=lambda y: y["record_id"]))
    tonnes = round(record["harvested_tonnes"] * rng.choice([0.86, 0.9, 0.94, 1.06, 1.1, 1.14]), 1)
    draft = Draft(world, grower, intent="yield_correction").cite("10.1", "10.2")
    draft.do(act("list_fields", grower_id=draft.gid), act("list_yield_records", field_id=field["field_id"]))
    draft.goal.append(
        f"Your {record['season']} {record['crop']} harvest from your {field['name']} is recorded wrongly: it was"
        f" {tonnes} tonnes. You want the record corrected and to know the field's yield per hectare once it is; if"
        " it cannot be corrected, you want to know why."
    )
    correct = act("correct_yield_record", record_id=record["record_id"], harvested_tonnes=tonnes)
    if record["status"] == "certified":
        draft.trap("10.2: the record is certified and final: no correction", correct)
        return draft.say("text", CERTIFIED, "10.2: the record is certified")
    draft.cite("3.1", "10.3").do(correct)
    return draft.say("amount", figure(yield_per_hectare(tonnes, record["area_ha"])), "10.3: the yield per hectare")


def planting_registration(world: World, grower: Grower, rng: random.Random) -> Draft | None:
    """Register next season's crop (11.1), never of the family the field last grew (11.2)."""
    field = rng.choice(_fields(world, grower))
    last = field["crop_history"][-1]["crop"]
    same = [c for c in sorted(CROP_FAMILY) if CROP_FAMILY[c] == CROP_FAMILY[last]]
    other = [c for c in sorted(CROP_FAMILY) if CROP_FAMILY[c] != CROP_FAMILY[last]]
    crop = rng.choice(same if rng.random() < 0.4 else other)
    sowing = days_after(TODAY, rng.randint(45, 100))
    draft = Draft(world, grower, intent="planting_registration").cite("11.1", "11.2")
    draft.do(act("list_fields", grower_id=draft.gid), act("get_field", field_id=field["field_id"]))
    draft.goal.append(
        f"You want {crop} registered for your {field['name']} next season, to be sown on {sowing}. If it cannot be"
        " registered, you want to know why."
    )
    plant = act("register_planting", field_id=field["field_id"], crop=crop, planned_sowing=sowing)
    if CROP_FAMILY[crop] == CROP_FAMILY[last]:
        family = CROP_FAMILY[crop]
        draft.trap(f"11.2: {crop} and {last}, the field's last crop, are both {family}s: not registered", plant)
        return draft.say("text", ROTATION, "11.2: the rotation rule forbids the same family")
    return draft.cite("3.1", "11.3").do(plant)


Solver = Callable[[World, Grower, random.Random], Draft | None]
SOLVERS: dict[str, Solver] = {
    f.__name__: f
    for f in (
        spray_booking,
        spray_cancellation,
        spray_log,
        entry_permit,
        irrigation,
        allocation_transfer,
        yield_correction,
        planting_registration,
    )
}
"""The reference solver of each intent."""
PLAIN_PER_WORLD = 2
TRAPS_PER_WORLD = 1
PERSONAS = [
    "You are polite and answer only what you are asked.",
    "You are busy at harvest time and keep your messages short.",
    "You are new to the co-op's desk and ask for things to be explained plainly.",
    "You are chatty and mention the weather, but you stick to your request.",
    "You are wary of mistakes and ask the agent to repeat figures back to you.",
]
"""Given out in turn to an intent's plain tasks, which use every one, then to its traps: none marks a trap."""
CANDIDATES = 8
"""Drafts of each kind (trap, plain) an intent looks at per world, so that it can choose varied ones."""


def _varied(candidates: list[Draft], count: int) -> list[Draft]:
    """``count`` of ``candidates``, those testing clauses or saying kinds of things the others do not first."""
    chosen: list[Draft] = []
    seen: set[tuple[object, ...]] = set()
    for draft in candidates:
        kind = (*draft.clauses, *(s.kind for s in draft.statements))
        if len(chosen) < count and kind not in seen:
            chosen.append(draft)
            seen.add(kind)
    return chosen + [d for d in candidates if d not in chosen][: count - len(chosen)]


def _rotated(traps: list[Draft], turn: int) -> list[Draft]:
    """``traps`` led by one reason (the clause its rationale opens with), another in each world, then the rest."""
    reasons = sorted({draft.trap_rationale.split(":")[0] for draft in traps if draft.trap_rationale})
    lead = reasons[turn % len(reasons)] if reasons else None
    return sorted(traps, key=lambda draft: (draft.trap_rationale or "").split(":")[0] != lead)


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over the growers of world ``tag``: one trap and two plain tasks each."""
    turn = list(SEEDS).index(tag)
    growers = sorted(
        (g for g in world["growers"].values() if g["grower_id"].split("-")[1] == tag), key=lambda g: g["grower_id"]
    )
    tasks = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        order = list(growers)
        rng.shuffle(order)
        traps: list[Draft] = []
        plain: list[Draft] = []
        for grower in order:
            draft = solve(world, grower, rng)
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            if len(bucket) < CANDIDATES and accept(draft.task("probe")):
                bucket.append(draft)
        chosen = [*_varied(plain, PLAIN_PER_WORLD), *_rotated(traps, turn)[:TRAPS_PER_WORLD]]
        if len(chosen) < PLAIN_PER_WORLD + TRAPS_PER_WORLD:
            raise ValueError(f"world {tag}: intent {intent} found {len(plain)} plain and {len(traps)} trap tasks")
        for number, draft in enumerate(chosen):
            draft.persona = PERSONAS[(turn * len(chosen) + number) % len(PERSONAS)]
        rng.shuffle(chosen)  # a trap's place among its intent's tasks says nothing
        for number, draft in enumerate(chosen, 1):
            tasks.append(draft.task(f"{intent}-{tag}-{number:02d}"))
    return tasks
