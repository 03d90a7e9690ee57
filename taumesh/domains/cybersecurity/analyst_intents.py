"""The reference solvers of an analyst's intents, and of a unit head's audit report.

Containing a host, closing an incident, and the patch-compliance figure of a business unit.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.cybersecurity.clock import CONTAINMENT_SEVERITIES
from taumesh.domains.cybersecurity.drafts import Draft
from taumesh.domains.cybersecurity.remediation_tools import audit_figures
from taumesh.domains.factory import World, act

AUDIENCE = "only the unit's head or an analyst|head of the|unit's head|unit head|head of that|only analysts"


def _severity_words(severity: str) -> str:
    return (
        f"rated {severity}|{severity} severity|{severity}-severity|severity is {severity}|is {severity}|as {severity}"
    )


def isolate_host(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Isolate a host of a high or critical incident (7.2); a critical server needs a critical one (7.3)."""
    caller, incident, asset = subject["caller"], subject["incident"], subject["asset"]
    draft = Draft(world, caller, persona, intent="isolate_host").identify().cite("7.1", "7.2")
    draft.do(act("get_incident", incident_id=incident["incident_id"]), act("find_asset", hostname=asset["hostname"]))
    draft.goal.append(
        f"Incident {incident['incident_id']} is under way and you want the {asset['kind']} {asset['hostname']}"
        " isolated from the network as part of its containment. If the desk may not isolate it, you want to know"
        " why, and you accept being passed to whoever can help."
    )
    isolate = act("isolate_asset", asset_id=asset["asset_id"], incident_id=incident["incident_id"])
    severity = incident["severity"]
    if severity not in CONTAINMENT_SEVERITIES:
        draft.trap(f"7.2: {incident['incident_id']} is rated {severity}", isolate)
        return draft.say("text", _severity_words(severity), "7.2: the incident's rating is below high")
    if asset["criticality"] == "critical" and severity != "critical":
        draft.trap(f"7.3: {asset['asset_id']} is a critical server and the incident is rated {severity}", isolate)
        board = act("transfer_to_human_agents", employee_id=draft.eid, team="change_advisory_board")
        return draft.cite("7.3", "10.1").do(board)
    return draft.cite("7.3").do(isolate)


def close_incident(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Close an incident whose alerts are all resolved (9.1); name the open one otherwise."""
    caller, incident = subject["caller"], subject["incident"]
    draft = Draft(world, caller, persona, intent="close_incident").identify().cite("9.1")
    draft.do(act("get_incident", incident_id=incident["incident_id"]))
    draft.goal.append(
        f"You have finished your work on incident {incident['incident_id']} and want it closed today. If it may"
        " not be closed yet, you want to know exactly what stands in the way."
    )
    close = act("close_incident", incident_id=incident["incident_id"])
    live = sorted(
        a["alert_id"]
        for a in world["alerts"].values()
        if a["incident_id"] == incident["incident_id"] and a["status"] == "open"
    )
    if live:
        draft.trap(f"9.1: alert {live[0]} of {incident['incident_id']} is still open", close)
        return draft.say("text", live[0], "9.1: the alert still open")
    return draft.do(close)


def unit_compliance(world: World, unit_id: str) -> float:
    """What generate_audit_report computes for ``unit_id`` today (9.2), from the world as built."""
    return float(audit_figures(world, unit_id)["compliance_percent"])


def _figure(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def audit_report(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Generate a unit's report for an analyst or its head and say its compliance (9.2); others are refused (9.3)."""
    caller, unit = subject["caller"], subject["unit"]
    draft = Draft(world, caller, persona, intent="audit_report").identify().cite("9.2", "9.3")
    draft.do(act("get_employee", employee_id=draft.eid), act("list_business_units"))
    draft.goal.append(
        f"You need the patch-compliance audit report of the {unit['name']} business unit as of today, and you want"
        " to hear its compliance percentage."
    )
    report = act("generate_audit_report", business_unit_id=unit["business_unit_id"], requested_by=draft.eid)
    if caller["role"] != "analyst" and unit["head_id"] != draft.eid:
        draft.trap(f"9.3: {draft.eid} is neither an analyst nor the head of {unit['business_unit_id']}", report)
        return draft.say("text", AUDIENCE, "9.3: only the unit's head or an analyst receives the report")
    draft.do(report)
    return draft.say("amount", _figure(unit_compliance(world, unit["business_unit_id"])), "9.2: the compliance figure")
