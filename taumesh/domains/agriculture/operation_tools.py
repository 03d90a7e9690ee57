"""The agent's write tools: spray jobs, spray logs, irrigation, entry permits, yield records, plantings, water.

Tools refuse what the data itself rules out (an unknown id, a job already cancelled, a log reference the grower's
app never gave); the policy's rules (weather windows, late notice, label rates, re-entry, refill points, rotation,
districts, certified records) are the agent's to follow, as in τ-bench, so that the write a grower asks for and the
policy forbids is possible and the agent must decline it.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.agriculture import clock
from taumesh.domains.agriculture.catalogue import CROP_FAMILY
from taumesh.domains.agriculture.clock import (
    TODAY,
    late_notice_fee,
    moment,
    reentry_from,
    stamp,
    water_volume,
    yield_per_hectare,
)
from taumesh.domains.agriculture.records import calendar_day, dump, next_id, record
from taumesh.domains.agriculture.schema import number, params, text, whole

TEAMS = ["compliance", "agronomist", "water_office", "other"]
_FIELD = text("The field's id, such as 'fld-w1-011'.")
_JOB = text("The spray job's id, such as 'job-w1-023'.")


class ScheduleSpray(Tool):
    name = "schedule_spray"
    writes = True
    description = "Book the spray contractor to apply a product to a field on a date, at the product's label rate."
    parameters = params(
        field_id=_FIELD, product_id=text("The product's id, such as 'tebuconazole-430'."), date=text("YYYY-MM-DD.")
    )

    @staticmethod
    def invoke(data: Data, field_id: str, product_id: str, date: str) -> str:
        record(data, "fields", field_id, "field")
        product = record(data, "products", product_id, "product")
        if calendar_day(date) <= TODAY:
            raise Refusal("a spray job is booked for a later day than today")
        job_id = next_id(data, "spray_jobs", "job")
        job = {
            "job_id": job_id,
            "field_id": field_id,
            "product_id": product_id,
            "date": date,
            "rate_l_ha": product["label_rate_l_ha"],
            "status": "scheduled",
            "cancellation_fee": None,
            "applied_rate_l_ha": None,
            "completed_at": None,
            "log_reference": None,
        }
        data["spray_jobs"][job_id] = job
        return dump(job)


class CancelSprayJob(Tool):
    name = "cancel_spray_job"
    writes = True
    description = "Cancel a scheduled spray job; the late-notice fee, if the job is that close, is charged on it."
    parameters = params(job_id=_JOB)

    @staticmethod
    def invoke(data: Data, job_id: str) -> str:
        job = record(data, "spray_jobs", job_id, "spray job")
        if job["status"] != "scheduled":
            raise Refusal(f"the job is {job['status']}, not scheduled")
        area = data["fields"][job["field_id"]]["area_ha"]
        job.update(status="cancelled", cancellation_fee=late_notice_fee(job["date"], area))
        return dump(job)


class RecordSprayCompletion(Tool):
    name = "record_spray_completion"
    writes = True
    description = (
        "Log a spray job as done, with the rate applied, the finish time and the reference of the log the grower"
        " confirmed in their field app; the field's re-entry time follows from the finish time and the product's"
        " re-entry interval."
    )
    parameters = params(
        job_id=_JOB,
        applied_rate_l_ha=number("The rate the log shows, litres per hectare."),
        finished_at=text("When the log says the spray finished, YYYY-MM-DDTHH:MM."),
        log_reference=text("The reference the grower's app shows, such as 'SL-1A2B3C4D'."),
    )

    @staticmethod
    def invoke(data: Data, job_id: str, applied_rate_l_ha: float, finished_at: str, log_reference: str) -> str:
        job = record(data, "spray_jobs", job_id, "spray job")
        if job["status"] != "awaiting_log":
            raise Refusal(f"the job is {job['status']}: only a job done and awaiting its log can be logged")
        if log_reference.strip().upper() != clock.log_reference(job_id):
            raise Refusal("no confirmed spray log has that reference for this job")
        try:
            finished = stamp(moment(finished_at.strip()))
        except ValueError:
            raise Refusal(f"{finished_at!r} is not a time (YYYY-MM-DDTHH:MM)") from None
        job.update(
            status="completed",
            applied_rate_l_ha=float(applied_rate_l_ha),
            completed_at=finished,
            log_reference=log_reference.strip().upper(),
        )
        field = data["fields"][job["field_id"]]
        opens = reentry_from(finished, data["products"][job["product_id"]]["rei_hours"])
        field["reentry_from"] = max(opens, field["reentry_from"] or opens)
        return dump({"job": job, "field_reentry_from": field["reentry_from"]})


class ScheduleIrrigation(Tool):
    name = "schedule_irrigation"
    writes = True
    description = (
        "Book an irrigation of a field on a date to a depth in millimetres; its volume counts against the allocation."
    )
    parameters = params(field_id=_FIELD, date=text("YYYY-MM-DD."), depth_mm=whole("Millimetres of water."))

    @staticmethod
    def invoke(data: Data, field_id: str, date: str, depth_mm: int) -> str:
        field = record(data, "fields", field_id, "field")
        if calendar_day(date) < TODAY:
            raise Refusal("an irrigation cannot be booked in the past")
        if depth_mm < 1:
            raise Refusal("the depth is at least one millimetre")
        volume = water_volume(depth_mm, field["area_ha"])
        event_id = next_id(data, "irrigation_events", "irr")
        event = {"event_id": event_id, "field_id": field_id, "date": date, "depth_mm": depth_mm, "volume_m3": volume}
        data["irrigation_events"][event_id] = event
        field["used_m3"] = round(field["used_m3"] + volume, 1)
        return dump({**event, "allocation_left_m3": round(field["allocation_m3"] - field["used_m3"], 1)})


class IssueEntryPermit(Tool):
    name = "issue_entry_permit"
    writes = True
    description = "Issue a permit for a crew to work in a field on a day (crews start at 07:00)."
    parameters = params(field_id=_FIELD, date=text("YYYY-MM-DD."), crew_size=whole("People in the crew."))

    @staticmethod
    def invoke(data: Data, field_id: str, date: str, crew_size: int) -> str:
        record(data, "fields", field_id, "field")
        if calendar_day(date) < TODAY:
            raise Refusal("a permit cannot be issued for a past day")
        if crew_size < 1:
            raise Refusal("a crew has at least one person")
        permit_id = next_id(data, "entry_permits", "permit")
        permit = {"permit_id": permit_id, "field_id": field_id, "date": date, "crew_size": crew_size}
        data["entry_permits"][permit_id] = permit
        return dump(permit)


class CorrectYieldRecord(Tool):
    name = "correct_yield_record"
    writes = True
    description = "Correct the tonnes harvested on a yield record; the old figure is kept among its revisions."
    parameters = params(
        record_id=text("The yield record's id, such as 'yld-w1-011-2024'."),
        harvested_tonnes=number("The corrected tonnes harvested."),
    )

    @staticmethod
    def invoke(data: Data, record_id: str, harvested_tonnes: float) -> str:
        found = record(data, "yield_records", record_id, "yield record")
        if harvested_tonnes <= 0:
            raise Refusal("a harvest is more than zero tonnes")
        found["revisions"].append(found["harvested_tonnes"])
        found["harvested_tonnes"] = float(harvested_tonnes)
        found["yield_t_ha"] = yield_per_hectare(harvested_tonnes, found["area_ha"])
        return dump(found)


class RegisterPlanting(Tool):
    name = "register_planting"
    writes = True
    description = "Register the crop a field will be sown with next season, and its planned sowing date."
    parameters = params(
        field_id=_FIELD, crop=text("The crop.", sorted(CROP_FAMILY)), planned_sowing=text("YYYY-MM-DD.")
    )

    @staticmethod
    def invoke(data: Data, field_id: str, crop: str, planned_sowing: str) -> str:
        field = record(data, "fields", field_id, "field")
        if crop not in CROP_FAMILY:
            raise Refusal(f"crop must be one of {sorted(CROP_FAMILY)}")
        if calendar_day(planned_sowing) <= TODAY:
            raise Refusal("a planting is registered for a later day than today")
        season = field["crop_history"][-1]["season"] + 1
        planting_id = next_id(data, "plantings", "plant")
        planting = {
            "planting_id": planting_id,
            "field_id": field_id,
            "season": season,
            "crop": crop,
            "planned_sowing": planned_sowing,
        }
        data["plantings"][planting_id] = planting
        return dump(planting)


class TransferAllocation(Tool):
    name = "transfer_allocation"
    writes = True
    description = "Move part of one field's seasonal water allocation to another field, in cubic metres."
    parameters = params(
        from_field_id=text("The field giving water."),
        to_field_id=text("The field receiving it."),
        volume_m3=whole("Cubic metres."),
    )

    @staticmethod
    def invoke(data: Data, from_field_id: str, to_field_id: str, volume_m3: int) -> str:
        giver = record(data, "fields", from_field_id, "field")
        taker = record(data, "fields", to_field_id, "field")
        if from_field_id == to_field_id or volume_m3 < 1:
            raise Refusal("a transfer moves a positive volume between two fields")
        if giver["allocation_m3"] - giver["used_m3"] < volume_m3:
            raise Refusal("the giving field has less allocation left than that")
        giver["allocation_m3"] = round(giver["allocation_m3"] - volume_m3, 1)
        taker["allocation_m3"] = round(taker["allocation_m3"] + volume_m3, 1)
        transfer_id = next_id(data, "allocation_transfers", "wtr")
        transfer = {
            "transfer_id": transfer_id,
            "from_field_id": from_field_id,
            "to_field_id": to_field_id,
            "volume_m3": float(volume_m3),
        }
        data["allocation_transfers"][transfer_id] = transfer
        return dump({**transfer, "receiving_allocation_m3": taker["allocation_m3"]})


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the grower to a specialist team (compliance, agronomist, water office, other); ends the call."
    parameters = params(grower_id=text("The grower's id."), team=text("The team.", TEAMS))

    @staticmethod
    def invoke(data: Data, grower_id: str, team: str) -> str:
        record(data, "growers", grower_id, "grower")
        if team not in TEAMS:
            raise Refusal(f"team must be one of {TEAMS}")
        handoff_id = next_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "grower_id": grower_id, "team": team}
        return "Transfer successful"


OPERATION_TOOLS: tuple[type[Tool], ...] = (
    ScheduleSpray,
    CancelSprayJob,
    RecordSprayCompletion,
    ScheduleIrrigation,
    IssueEntryPermit,
    CorrectYieldRecord,
    RegisterPlanting,
    TransferAllocation,
    TransferToHumanAgents,
)
