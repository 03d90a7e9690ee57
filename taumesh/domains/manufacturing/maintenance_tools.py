"""The desk's maintenance tools: preventive windows, repairs under lock-out, and hand-offs to a plant team."""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.manufacturing.clock import TODAY
from taumesh.domains.manufacturing.clock import lockout_tag as issued_tag
from taumesh.domains.manufacturing.records import checked_date, choice, dump, fetch, new_id
from taumesh.domains.manufacturing.schema import params, text

TEAMS = ["maintenance_supervisor", "quality_engineering", "plant_manager", "customer_service"]
_MACHINE = text("The machine's id, such as 'mc-w1-07'.")


class ScheduleMaintenance(Tool):
    name = "schedule_maintenance"
    writes = True
    description = "Book a preventive maintenance window on a machine for a future date."
    parameters = params(machine_id=_MACHINE, date=text("YYYY-MM-DD, after today."))

    @staticmethod
    def invoke(data: Data, machine_id: str, date: str) -> str:
        fetch(data, "machines", machine_id, "machine")
        when = checked_date(date)
        if when <= TODAY.isoformat():
            raise Refusal("a preventive window is booked for a date after today")
        window_id = new_id(data, "maintenance_windows", "win")
        window = {
            "window_id": window_id,
            "machine_id": machine_id,
            "kind": "preventive",
            "date": when,
            "lockout_tag": None,
            "status": "scheduled",
        }
        data["maintenance_windows"][window_id] = window
        return dump(window)


class OpenRepair(Tool):
    name = "open_repair"
    writes = True
    description = (
        "Take a machine down for repair today under the lock-out tag the operator's handheld gave when they"
        " confirmed the lock-out."
    )
    parameters = params(machine_id=_MACHINE, lockout_tag=text("Such as 'LT-4D5E6F'."))

    @staticmethod
    def invoke(data: Data, machine_id: str, lockout_tag: str) -> str:
        machine = fetch(data, "machines", machine_id, "machine")
        tag = lockout_tag.strip().upper()
        if tag != issued_tag(machine_id):
            raise Refusal("that lock-out tag was not issued for this machine")
        machine["status"] = "down"
        window_id = new_id(data, "maintenance_windows", "win")
        window = {
            "window_id": window_id,
            "machine_id": machine_id,
            "kind": "repair",
            "date": TODAY.isoformat(),
            "lockout_tag": tag,
            "status": "in_progress",
        }
        data["maintenance_windows"][window_id] = window
        return dump(window)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the caller to a plant team (maintenance supervisor, quality engineering, ...); ends the call."
    parameters = params(contact_id=text("The caller's contact id."), team=text("The team.", TEAMS))

    @staticmethod
    def invoke(data: Data, contact_id: str, team: str) -> str:
        fetch(data, "contacts", contact_id, "contact")
        choice(team, TEAMS, "team")
        handoff_id = new_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "contact_id": contact_id, "team": team}
        return "Transferred; a plant team member takes the call from here."


MAINTENANCE_TOOLS: tuple[type[Tool], ...] = (ScheduleMaintenance, OpenRepair, TransferToHumanAgents)
