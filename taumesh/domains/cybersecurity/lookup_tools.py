"""The desk's identity and read tools: who is calling, and what the security records say.

Reads never change anything; verifying writes one record (the caller is verified), which the reward sees, so an
agent that acts for an unverified caller ends in another state.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.cybersecurity.clock import remediation_due, severity_of
from taumesh.domains.cybersecurity.records import dump, fetch, params, text

_EMPLOYEE = text("The employee's id, such as 'em-w1-07'.")
_ASSET = text("The asset's id, such as 'as-w1-12'.")


class FindEmployee(Tool):
    name = "find_employee"
    description = "Find an employee's id by their work email address."
    parameters = params(email=text("The work email, such as 'ada.lovelace@ashgrove.example'."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        wanted = email.strip().lower()
        for employee in data["employees"].values():
            if employee["email"] == wanted:
                return str(employee["employee_id"])
        raise Refusal("no employee with that email")


class VerifyEmployee(Tool):
    name = "verify_employee"
    writes = True
    description = "Verify a caller by the four-digit desk PIN on their employee record."
    parameters = params(employee_id=_EMPLOYEE, desk_pin=text("The caller's desk PIN."))

    @staticmethod
    def invoke(data: Data, employee_id: str, desk_pin: str) -> str:
        employee = fetch(data, "employees", employee_id, "employee")
        if employee["desk_pin"] != desk_pin.strip():
            raise Refusal("the desk PIN does not match")
        data["verifications"][employee_id] = {"employee_id": employee_id, "verified": True}
        return dump({"employee_id": employee_id, "verified": True})


class GetEmployee(Tool):
    name = "get_employee"
    description = "An employee's record: role, business unit, account status (and the incident behind a suspension)."
    parameters = params(employee_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, employee_id: str) -> str:
        employee = dict(fetch(data, "employees", employee_id, "employee"))
        employee.pop("desk_pin")
        return dump(employee)


class ListBusinessUnits(Tool):
    name = "list_business_units"
    description = "Every business unit: its id, name and head."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(list(data["business_units"].values()))


class FindAsset(Tool):
    name = "find_asset"
    description = "An asset by its hostname: kind, owner, business unit, criticality, health and network state."
    parameters = params(hostname=text("The hostname, such as 'lt-w1-amber-04'."))

    @staticmethod
    def invoke(data: Data, hostname: str) -> str:
        wanted = hostname.strip().lower()
        for asset in data["assets"].values():
            if asset["hostname"] == wanted:
                return dump(asset)
        raise Refusal("no asset with that hostname")


class ListAssets(Tool):
    name = "list_assets"
    description = "The assets an employee owns."
    parameters = params(owner_id=_EMPLOYEE)

    @staticmethod
    def invoke(data: Data, owner_id: str) -> str:
        fetch(data, "employees", owner_id, "employee")
        return dump([a for a in data["assets"].values() if a["owner_id"] == owner_id])


def _with_terms(vulnerability: dict[str, Any]) -> dict[str, Any]:
    """A vulnerability with its severity band and remediation due date, as policy 5.1 computes them."""
    severity = severity_of(vulnerability["cvss"])
    due = remediation_due(vulnerability["discovered_on"], vulnerability["cvss"])
    return {**vulnerability, "severity": severity, "remediation_due": due}


class ListVulnerabilities(Tool):
    name = "list_vulnerabilities"
    description = "An asset's vulnerabilities: CVE, CVSS score, severity, discovery, remediation due date and status."
    parameters = params(asset_id=_ASSET)

    @staticmethod
    def invoke(data: Data, asset_id: str) -> str:
        fetch(data, "assets", asset_id, "asset")
        found = [v for v in data["vulnerabilities"].values() if v["asset_id"] == asset_id]
        return dump([_with_terms(v) for v in sorted(found, key=lambda v: v["vulnerability_id"])])


class ListChangeWindows(Tool):
    name = "list_change_windows"
    description = "A business unit's maintenance change windows, in date order."
    parameters = params(business_unit_id=text("The business unit's id, such as 'bu-w1-2'."))

    @staticmethod
    def invoke(data: Data, business_unit_id: str) -> str:
        fetch(data, "business_units", business_unit_id, "business unit")
        found = [w for w in data["change_windows"].values() if w["business_unit_id"] == business_unit_id]
        return dump(sorted(found, key=lambda w: w["date"]))


class GetIncident(Tool):
    name = "get_incident"
    description = "One incident: category, severity, status, assets, contained assets, device checks and its alerts."
    parameters = params(incident_id=text("The incident's id, such as 'inc-w1-03'."))

    @staticmethod
    def invoke(data: Data, incident_id: str) -> str:
        incident = fetch(data, "incidents", incident_id, "incident")
        alerts = [a for a in data["alerts"].values() if a["incident_id"] == incident_id]
        return dump({**incident, "alerts": sorted(alerts, key=lambda a: a["alert_id"])})


class GetPlaybook(Tool):
    name = "get_playbook"
    description = "The containment playbook of an incident category: its steps in order."
    parameters = params(
        category=text("The category.", ["phishing", "malware", "unauthorised_access", "data_exfiltration"])
    )

    @staticmethod
    def invoke(data: Data, category: str) -> str:
        for playbook in data["playbooks"].values():
            if playbook["category"] == category:
                return dump(playbook)
        raise Refusal("no playbook for that category")


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindEmployee,
    VerifyEmployee,
    GetEmployee,
    ListBusinessUnits,
    FindAsset,
    ListAssets,
    ListVulnerabilities,
    ListChangeWindows,
    GetIncident,
    GetPlaybook,
)
IDENTITY_TOOLS = frozenset({"find_employee", "verify_employee"})
"""Finding the caller by their work email, then verifying them by their desk PIN."""
