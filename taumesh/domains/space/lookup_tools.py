"""The desk's identity and read tools: who is calling, and what the fleet's records say.

Reads never change anything; identity writes one record (the caller is verified), which the reward sees, so an
agent that acts without verifying ends in another state.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.space.records import dump, fetch, latest_readings, params, text

_CALLER = text("The caller's id, such as 'cl-w1-04'.")
_CRAFT = text("The spacecraft's id, such as 'sc-w1-03'.")


class FindCaller(Tool):
    name = "find_caller"
    description = "Find a caller's id by full name and their operator number (operators) or account number (customers)."
    parameters = params(
        first_name=text("First name."), last_name=text("Last name."), reference=text("Operator or account number.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, reference: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), reference.strip().upper())
        for caller in data["callers"].values():
            if (caller["first_name"].lower(), caller["last_name"].lower(), caller["reference"]) == wanted:
                return str(caller["caller_id"])
        raise Refusal("no caller with that name and reference")


class VerifyCaller(Tool):
    name = "verify_caller"
    writes = True
    description = "Verify the caller by the passphrase on their desk record."
    parameters = params(caller_id=_CALLER, passphrase=text("Two words joined by a hyphen."))

    @staticmethod
    def invoke(data: Data, caller_id: str, passphrase: str) -> str:
        caller = fetch(data, "callers", caller_id, "caller")
        if caller["passphrase"] != passphrase.strip().lower():
            raise Refusal("the passphrase does not match")
        data["verifications"][caller_id] = {"caller_id": caller_id, "verified": True}
        return dump({"caller_id": caller_id, "verified": True, "role": caller["role"]})


class GetCaller(Tool):
    name = "get_caller"
    description = "A caller's record: role, and the customer they speak for (customers' contacts)."
    parameters = params(caller_id=_CALLER)

    @staticmethod
    def invoke(data: Data, caller_id: str) -> str:
        caller = dict(fetch(data, "callers", caller_id, "caller"))
        caller.pop("passphrase")
        return dump(caller)


class GetCustomerAccount(Tool):
    name = "get_customer_account"
    description = "A customer's contract: the monthly imaging quota, the area used so far and the overage rate."
    parameters = params(customer_id=text("The customer's id, such as 'cu-w1-2'."))

    @staticmethod
    def invoke(data: Data, customer_id: str) -> str:
        return dump(fetch(data, "customers", customer_id, "customer"))


class ListFleet(Tool):
    name = "list_fleet"
    description = "The spacecraft a customer owns, with their mode."
    parameters = params(customer_id=text("The customer's id."))

    @staticmethod
    def invoke(data: Data, customer_id: str) -> str:
        fetch(data, "customers", customer_id, "customer")
        return dump([s for s in data["spacecraft"].values() if s["customer_id"] == customer_id])


class GetSpacecraft(Tool):
    name = "get_spacecraft"
    description = "One spacecraft: owner, mode, propellant and reserve."
    parameters = params(spacecraft_id=_CRAFT)

    @staticmethod
    def invoke(data: Data, spacecraft_id: str) -> str:
        return dump(fetch(data, "spacecraft", spacecraft_id, "spacecraft"))


class GetTelemetry(Tool):
    name = "get_telemetry"
    description = "A spacecraft's telemetry channels: each one's limits, latest reading and whether it is within them."
    parameters = params(spacecraft_id=_CRAFT)

    @staticmethod
    def invoke(data: Data, spacecraft_id: str) -> str:
        fetch(data, "spacecraft", spacecraft_id, "spacecraft")
        return dump(latest_readings(data, spacecraft_id))


class ListGroundStations(Tool):
    name = "list_ground_stations"
    description = "The ground stations the desk books, with their rate per minute of contact."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["ground_stations"].values()))


class ListPasses(Tool):
    name = "list_passes"
    description = "A spacecraft's passes over every station, in time order: elevation, length, status and costs."
    parameters = params(spacecraft_id=_CRAFT)

    @staticmethod
    def invoke(data: Data, spacecraft_id: str) -> str:
        fetch(data, "spacecraft", spacecraft_id, "spacecraft")
        found = [p for p in data["passes"].values() if p["spacecraft_id"] == spacecraft_id]
        return dump(sorted(found, key=lambda p: (p["date"], p["start_utc"], p["pass_id"])))


class ListAlarms(Tool):
    name = "list_alarms"
    description = "A spacecraft's telemetry alarms, active and acknowledged, with the channel each was raised on."
    parameters = params(spacecraft_id=_CRAFT)

    @staticmethod
    def invoke(data: Data, spacecraft_id: str) -> str:
        fetch(data, "spacecraft", spacecraft_id, "spacecraft")
        channels = {k: c for k, c in data["channels"].items() if c["spacecraft_id"] == spacecraft_id}
        return dump(
            [
                {**a, "channel": channels[a["channel_id"]]}
                for a in data["alarms"].values()
                if a["channel_id"] in channels
            ]
        )


class ListConjunctions(Tool):
    name = "list_conjunctions"
    description = "The conjunction warnings of a spacecraft: other object, closest-approach date, miss distance, odds."
    parameters = params(spacecraft_id=_CRAFT)

    @staticmethod
    def invoke(data: Data, spacecraft_id: str) -> str:
        fetch(data, "spacecraft", spacecraft_id, "spacecraft")
        return dump([c for c in data["conjunctions"].values() if c["spacecraft_id"] == spacecraft_id])


class GetManeuver(Tool):
    name = "get_maneuver"
    description = "One avoidance manoeuvre: its burn, the propellant it uses, its conjunction and its spacecraft."
    parameters = params(maneuver_id=text("The manoeuvre's id, such as 'mv-w1-05'."))

    @staticmethod
    def invoke(data: Data, maneuver_id: str) -> str:
        maneuver = fetch(data, "maneuvers", maneuver_id, "manoeuvre")
        conjunction = data["conjunctions"][maneuver["conjunction_id"]]
        return dump(
            {**maneuver, "conjunction": conjunction, "spacecraft": data["spacecraft"][maneuver["spacecraft_id"]]}
        )


class Calculate(Tool):
    name = "calculate"
    description = "Calculate an arithmetic expression (numbers, + - * / and parentheses)."
    parameters = params(expression=text("Such as '12 * 8.5'."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in "0123456789+-*/(). e" for char in expression):
            raise Refusal("invalid characters in expression")
        check_powers(expression)
        try:
            return str(round(float(eval(expression, {"__builtins__": None}, {})), 6))  # noqa: S307 - characters checked
        except (SyntaxError, ZeroDivisionError, TypeError, NameError) as error:
            raise Refusal(f"cannot calculate: {error}") from None


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindCaller,
    VerifyCaller,
    GetCaller,
    GetCustomerAccount,
    ListFleet,
    GetSpacecraft,
    GetTelemetry,
    ListGroundStations,
    ListPasses,
    ListAlarms,
    ListConjunctions,
    GetManeuver,
    Calculate,
)
IDENTITY_TOOLS = frozenset({"find_caller", "verify_caller"})
"""Finding the caller by name and reference, then verifying them by their passphrase."""
