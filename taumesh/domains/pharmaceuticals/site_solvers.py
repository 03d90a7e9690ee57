"""Reference solvers of the research coordinator's intents: visits, randomisation, safety reports, code-breaks, samples.

Each computes, from one world's records, every outcome the policy allows for one request, the statements the agent
must make, and, where the policy forbids what is asked, the forbidden write and the clause that forbids it.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.pharmaceuticals.clock import (
    TODAY,
    WEEKDAYS,
    age_on,
    day,
    kit_number,
    report_due,
    stable_until,
    window,
)
from taumesh.domains.pharmaceuticals.draft import Draft

Entity = dict[str, Any]
AGE = (
    "too old|too young|age limit|age range|maximum age|minimum age|upper age|lower age|age criterion|age requirement"
    "|older than|younger than|years old|above the maximum|below the minimum|over the maximum|under the minimum"
)
EGFR = "egfr|kidney function|renal function|glomerular"
NOT_SERIOUS = (
    "not serious|non-serious|nonserious|non serious|not a serious|isn't serious|is not considered serious"
    "|not classed as serious|not classified as serious|does not meet the seriousness|doesn't meet the seriousness"
    "|does not meet the criteria for a serious|doesn't meet the criteria for a serious"
)
FRIDAY = "friday"


def _coordinator(world: World, site_id: str, manner: str, intent: str) -> Draft:
    site = world["sites"][site_id]
    study = world["studies"][site["study_id"]]
    role = f"the research coordinator at {site['name']} (site {site_id}) for study {study['protocol_code']}"
    return Draft(world, world["callers"][site["coordinator_id"]], manner, role, intent=intent).identify("2.2")


def _weekday(offset: int) -> str:
    """The first weekday on or after ``offset`` days from today."""
    when = TODAY + timedelta(days=offset)
    while when.weekday() >= 5:
        when += timedelta(days=1)
    return when.isoformat()


def schedule_visit(world: World, visit: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Book the participant's next visit inside its window; refuse a date outside and say the window's edge."""
    participant = world["participants"][visit["participant_id"]]
    waiting = sorted(
        (v for v in world["visits"].values() if v["participant_id"] == visit["participant_id"]),
        key=lambda v: v["number"],
    )
    if (
        participant["status"] != "randomised"
        or next((v for v in waiting if v["status"] == "to_book"), None) is not visit
    ):
        return None
    study = world["studies"][participant["study_id"]]
    half = study["window_days"]
    opens, closes = window(visit["target_date"], half)
    offset = rng.choice([-half - 3, -half - 1, -1, 0, 1, half, half + 2, half + 4])
    asked = (day(visit["target_date"]) + timedelta(days=offset)).isoformat()
    if asked <= TODAY.isoformat() or day(asked).weekday() >= 5:
        return None
    draft = _coordinator(world, participant["site_id"], manner, "schedule_visit").cite("3.1")
    draft.goal.append(
        f"You want visit {visit['number']} ({visit['name']}) of participant {participant['participant_id']} booked"
        f" on {asked}. If it cannot be booked on that date, you want to know why."
    )
    draft.do(
        act("get_participant", participant_id=participant["participant_id"]),
        act("get_study", study_id=study["study_id"]),
        act("list_visits", participant_id=participant["participant_id"]),
    )
    book = act("schedule_visit", visit_id=visit["visit_id"], date=asked)
    if asked < opens or asked > closes:
        edge = opens if asked < opens else closes
        draft.trap(f"3.2: {asked} is outside the window {opens} to {closes}", book).cite("3.2")
        draft.say("date", edge, "3.2: the edge of the window on the side of the requested date")
    else:
        draft.do(book)
    return draft


def randomise(world: World, participant: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Randomise an eligible participant (say the kit); record the failed criterion for one who is not."""
    if participant["status"] != "screening":
        return None
    study = world["studies"][participant["study_id"]]
    draft = _coordinator(world, participant["site_id"], manner, "randomise").cite("4.1")
    draft.goal.append(
        f"Participant {participant['participant_id']} has finished screening; you want them randomised and to know"
        " the kit number the pharmacy should dispense. If they cannot be randomised, you want to know why."
    )
    draft.do(
        act("get_participant", participant_id=participant["participant_id"]),
        act("get_study", study_id=study["study_id"]),
    )
    randomise_them = act("randomise_participant", participant_id=participant["participant_id"])
    age = age_on(participant["date_of_birth"])
    failed = None
    if not study["min_age"] <= age <= study["max_age"]:
        failed = ("age_out_of_range", AGE, f"aged {age}, outside {study['min_age']}-{study['max_age']}")
    elif participant["egfr"] < study["min_egfr"]:
        failed = ("egfr_below_minimum", EGFR, f"eGFR {participant['egfr']} below {study['min_egfr']}")
    if failed:
        reason, phrases, why = failed
        draft.trap(f"4.1: {why}", randomise_them).cite("4.2")
        draft.do(act("record_screen_failure", participant_id=participant["participant_id"], reason=reason))
        draft.say("text", phrases, "4.2: the criterion the participant fails")
    else:
        kit = kit_number(participant["participant_id"])
        draft.cite("4.3").do(randomise_them).say("text", f"{kit}|{kit[3:]}", "4.3: the kit number to dispense")
    return draft


def submit_event(world: World, event: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Submit a draft report as the criteria classify it, say its due date, and log a late one as a deviation."""
    if event["status"] != "draft":
        return None
    participant = world["participants"][event["participant_id"]]
    serious = event["hospitalised"] or event["life_threatening"]
    believed = rng.choice(["serious", "non-serious"]) if serious else "non-serious"
    draft = _coordinator(world, participant["site_id"], manner, "submit_event").cite("5.1", "5.2")
    draft.goal.append(
        f"You want the draft adverse event report {event['ae_id']} ({event['term']}) for participant"
        f" {participant['participant_id']} submitted to the sponsor as a {believed} event, and to know the date the"
        " report is due by."
    )
    draft.do(act("list_adverse_events", participant_id=participant["participant_id"]))
    classification = "serious" if serious else "non_serious"
    submit = act("submit_adverse_event", ae_id=event["ae_id"], seriousness=classification)
    if believed != classification.replace("_", "-"):
        what = "hospital admission" if event["hospitalised"] else "a life-threatening event"
        wrong = act("submit_adverse_event", ae_id=event["ae_id"], seriousness="non_serious")
        draft.trap(f"5.1: {what} makes the event serious", wrong)
    draft.do(submit)
    due = report_due(event["site_aware_date"], serious)
    if due < TODAY.isoformat():
        draft.cite("5.3").do(
            act("log_deviation", participant_id=participant["participant_id"], kind="late_safety_report")
        )
    draft.say("date", due, "5.2: the date the report is due by")
    return draft


def unblind(world: World, event: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Break the code for a serious event and give the arm; refuse for a non-serious one and say it is not serious."""
    participant = world["participants"][event["participant_id"]]
    if participant["status"] != "randomised" or participant["unblinded"]:
        return None
    draft = _coordinator(world, participant["site_id"], manner, "unblind").cite("6.1", "6.2")
    draft.goal.append(
        f"The physician treating participant {participant['participant_id']} for adverse event {event['ae_id']}"
        f" ({event['term']}) needs to know which treatment they receive; you want the participant unblinded and to be"
        " told the arm. If that cannot be done, you want to know why."
    )
    draft.do(
        act("get_participant", participant_id=participant["participant_id"]),
        act("list_adverse_events", participant_id=participant["participant_id"]),
    )
    code_break = act("unblind_participant", participant_id=participant["participant_id"], ae_id=event["ae_id"])
    if event["hospitalised"] or event["life_threatening"]:
        arm = participant["arm"]
        dose = arm.split(" ", 1)[1] if " " in arm else arm
        draft.do(code_break).say("text", f"{dose}|{dose.replace(' ', '')}", "6.2: the arm, told to the coordinator")
    else:
        draft.trap(f"6.3: {event['term']} is not serious under 5.1", code_break).cite("5.1", "6.3")
        draft.say("text", NOT_SERIOUS, "6.3: the event is not serious, so the code stays unbroken")
    return draft


def book_pickup(world: World, sample: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Book a courier on a stable Monday-to-Thursday date; refuse a later date (say the last) or a Friday."""
    if sample["pickup_date"]:
        return None
    asked = _weekday(rng.randint(1, 6))
    last = stable_until(sample["collected_on"], sample["kind"])
    draft = _coordinator(world, sample["site_id"], manner, "book_pickup").cite("7.1")
    draft.goal.append(
        f"You want the courier to collect sample {sample['sample_id']} ({sample['kind'].replace('_', ' ')}) from your"
        f" site on {asked}. If it cannot be collected that day, you want to know why."
    )
    draft.do(act("get_sample", sample_id=sample["sample_id"]))
    book = act("book_sample_pickup", sample_id=sample["sample_id"], date=asked)
    if asked > last:
        draft.trap(f"7.2: the sample is stable until {last}", book).cite("7.2")
        draft.say("date", last, "7.2: the last day the sample may be collected")
    elif WEEKDAYS[day(asked).weekday()] == "Friday":
        draft.trap(f"7.3: {asked} is a Friday", book).cite("7.3")
        draft.say("text", FRIDAY, "7.3: the courier does not collect on Fridays")
    else:
        draft.cite("7.2", "7.3").do(book)
    return draft


def replace_kit(world: World, participant: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Replace a lost kit during the treatment period (say the new number); refuse after it and say when it ended."""
    if participant["status"] != "randomised":
        return None
    pid = participant["participant_id"]
    draft = _coordinator(world, participant["site_id"], manner, "replace_kit").cite("4.4")
    draft.goal.append(
        f"Participant {pid} reports that their medication kit was damaged at home; you want a replacement kit issued"
        " and to know its number. If it cannot be issued, you want to know why."
    )
    draft.do(act("get_participant", participant_id=pid))
    replace = act("replace_kit", participant_id=pid)
    ended = participant["diary_closes_on"]
    if ended < TODAY.isoformat():
        draft.trap(f"4.5: the treatment period ended on {ended}", replace).cite("4.5")
        draft.say("date", ended, "4.5: the date the treatment period ended")
        return draft
    kit = kit_number(pid, len(participant["kit_history"]) + 1)
    draft.do(replace).say("text", f"{kit}|{kit[3:]}", "4.4: the replacement kit's number")
    return draft
