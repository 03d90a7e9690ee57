"""The agent's read tools and identity check: growers, fields, probes, forecasts, products, jobs, records.

Reads never change anything; verifying a grower records that they were verified, which the policy requires before
any other tool is used for them.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.agriculture.records import dump, record
from taumesh.domains.agriculture.schema import params, text

_GROWER = text("The grower's id, such as 'gro-w1-004'.")
_FIELD = text("The field's id, such as 'fld-w1-011'.")


class FindGrower(Tool):
    name = "find_grower"
    description = "Find a grower's id by their first and last name and the name of their farm."
    parameters = params(first_name=text("First name."), last_name=text("Last name."), farm_name=text("Farm name."))

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, farm_name: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), farm_name.strip().lower())
        for grower in data["growers"].values():
            if (grower["first_name"].lower(), grower["last_name"].lower(), grower["farm_name"].lower()) == wanted:
                return str(grower["grower_id"])
        raise Refusal("no grower with that name runs that farm")


class VerifyGrower(Tool):
    name = "verify_grower"
    writes = True
    description = "Verify the caller is the grower by their co-op member number and their farm's postal code."
    parameters = params(
        grower_id=_GROWER, member_number=text("Such as 'CM-482913'."), postal_code=text("Four-digit postal code.")
    )

    @staticmethod
    def invoke(data: Data, grower_id: str, member_number: str, postal_code: str) -> str:
        grower = record(data, "growers", grower_id, "grower")
        if (grower["member_number"], grower["postal_code"]) != (member_number.strip().upper(), postal_code.strip()):
            raise Refusal("the member number and postal code do not match this grower")
        data["verifications"][grower_id] = {"grower_id": grower_id, "verified": True}
        return "Grower verified."


class GetGrower(Tool):
    name = "get_grower"
    description = "The grower's record: name, farm, member number, phone."
    parameters = params(grower_id=_GROWER)

    @staticmethod
    def invoke(data: Data, grower_id: str) -> str:
        return dump(record(data, "growers", grower_id, "grower"))


class ListFields(Tool):
    name = "list_fields"
    description = "The grower's fields: id, name, district, area in hectares, soil and the crop in the ground."
    parameters = params(grower_id=_GROWER)

    @staticmethod
    def invoke(data: Data, grower_id: str) -> str:
        record(data, "growers", grower_id, "grower")
        found = [
            {
                "field_id": f["field_id"],
                "name": f["name"],
                "district_id": f["district_id"],
                "area_ha": f["area_ha"],
                "soil": f["soil"],
                "crop": f["crop_history"][-1]["crop"],
            }
            for f in data["fields"].values()
            if f["grower_id"] == grower_id
        ]
        return dump(sorted(found, key=lambda f: f["field_id"]))


class GetField(Tool):
    name = "get_field"
    description = (
        "Everything about one field: crop history by season, expected harvest, refill point, the season's water"
        " allocation and use, the time it may be re-entered after its last logged spray, and its soil probes."
    )
    parameters = params(field_id=_FIELD)

    @staticmethod
    def invoke(data: Data, field_id: str) -> str:
        found = record(data, "fields", field_id, "field")
        probes = sorted(s["sensor_id"] for s in data["sensors"].values() if s["field_id"] == field_id)
        return dump({**found, "probes": probes})


class GetProbeReadings(Tool):
    name = "get_probe_readings"
    description = "A soil probe's readings the desk has received (newest last) and when it last synced."
    parameters = params(sensor_id=text("The probe's id, such as 'probe-w1-011'."))

    @staticmethod
    def invoke(data: Data, sensor_id: str) -> str:
        probe = record(data, "sensors", sensor_id, "probe")
        found = sorted(
            (r for r in data["readings"].values() if r["sensor_id"] == sensor_id), key=lambda r: r["taken_at"]
        )
        return dump({"probe": probe, "readings": found})


class GetForecast(Tool):
    name = "get_forecast"
    description = "A district's ten-day weather forecast: each day's maximum wind (km/h) and rain (mm)."
    parameters = params(district_id=text("The district's id, such as 'dist-w1-2'."))

    @staticmethod
    def invoke(data: Data, district_id: str) -> str:
        district = record(data, "districts", district_id, "district")
        days = sorted(
            (f for f in data["forecasts"].values() if f["district_id"] == district_id), key=lambda f: f["date"]
        )
        return dump({"district": district["name"], "days": days})


class ListProducts(Tool):
    name = "list_products"
    description = (
        "The registered spray products: label rate (L/ha), re-entry interval (hours), pre-harvest interval (days)"
        " and the highest wind they may be sprayed in (km/h)."
    )
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["products"].values()))


class ListSprayJobs(Tool):
    name = "list_spray_jobs"
    description = "A field's spray jobs, every status, by date."
    parameters = params(field_id=_FIELD)

    @staticmethod
    def invoke(data: Data, field_id: str) -> str:
        record(data, "fields", field_id, "field")
        found = [j for j in data["spray_jobs"].values() if j["field_id"] == field_id]
        return dump(sorted(found, key=lambda j: (j["date"], j["job_id"])))


class ListIrrigationEvents(Tool):
    name = "list_irrigation_events"
    description = "A field's irrigations this season, by date."
    parameters = params(field_id=_FIELD)

    @staticmethod
    def invoke(data: Data, field_id: str) -> str:
        record(data, "fields", field_id, "field")
        found = [e for e in data["irrigation_events"].values() if e["field_id"] == field_id]
        return dump(sorted(found, key=lambda e: (e["date"], e["event_id"])))


class ListYieldRecords(Tool):
    name = "list_yield_records"
    description = "A field's yield records by season: crop, tonnes harvested, tonnes per hectare, status, revisions."
    parameters = params(field_id=_FIELD)

    @staticmethod
    def invoke(data: Data, field_id: str) -> str:
        record(data, "fields", field_id, "field")
        found = [y for y in data["yield_records"].values() if y["field_id"] == field_id]
        return dump(sorted(found, key=lambda y: y["season"]))


class ListPlantings(Tool):
    name = "list_plantings"
    description = "The plantings registered on a field for coming seasons."
    parameters = params(field_id=_FIELD)

    @staticmethod
    def invoke(data: Data, field_id: str) -> str:
        record(data, "fields", field_id, "field")
        return dump([p for p in data["plantings"].values() if p["field_id"] == field_id])


class Calculate(Tool):
    name = "calculate"
    description = "Work out an arithmetic expression: numbers, + - * / and parentheses."
    parameters = params(expression=text("Such as '25 * 41.3 * 10'."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in "0123456789+-*/(). " for char in expression):
            raise Refusal("only numbers, + - * / and parentheses")
        check_powers(expression)
        try:
            return str(round(float(eval(expression, {"__builtins__": None}, {})), 4))  # noqa: S307 - characters checked
        except (SyntaxError, ZeroDivisionError, TypeError) as error:
            raise Refusal(f"cannot work that out: {error}") from None


IDENTITY_TOOLS = frozenset({"find_grower", "verify_grower"})
"""Finding the grower by name and farm, then verifying them by member number and postal code."""

LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindGrower,
    VerifyGrower,
    GetGrower,
    ListFields,
    GetField,
    GetProbeReadings,
    GetForecast,
    ListProducts,
    ListSprayJobs,
    ListIrrigationEvents,
    ListYieldRecords,
    ListPlantings,
    Calculate,
)
