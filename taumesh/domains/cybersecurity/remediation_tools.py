"""The desk's tools for accounts, vulnerabilities and audits.

They re-bind an authenticator, schedule a fix, accept a risk, and file the patch-compliance report a business unit
is audited on.

The audit report is a record the tool computes itself from the vulnerabilities on the fixed clock, so any agent
that asks for the same unit's report lands in the same state and reads the same figures.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.cybersecurity import clock
from taumesh.domains.cybersecurity.clock import (
    SEVERITIES,
    TODAY,
    compliance_percent,
    day,
    remediation_due,
    severity_of,
)
from taumesh.domains.cybersecurity.records import dump, fetch, new_id, params, text

_VULNERABILITY = text("The vulnerability's id, such as 'vu-w1-031'.")


class BindAuthenticator(Tool):
    name = "bind_authenticator"
    writes = True
    description = "Bind an employee's new phone as their MFA authenticator, on the enrolment code the phone shows."
    parameters = params(
        employee_id=text("The employee's id."),
        device_serial=text("The new phone's serial, such as 'PH-48213'."),
        enrolment_code=text("The enrolment code the new phone shows, such as 'EN-1A2B3C'."),
    )

    @staticmethod
    def invoke(data: Data, employee_id: str, device_serial: str, enrolment_code: str) -> str:
        employee = fetch(data, "employees", employee_id, "employee")
        serial = device_serial.strip().upper()
        if enrolment_code.strip().upper() != clock.enrolment_code(employee_id, serial):
            raise Refusal("that enrolment code was not shown for this employee and phone")
        if employee["mfa_device"] == serial:
            raise Refusal("that phone is already the employee's authenticator")
        employee["mfa_device"] = serial
        employee["mfa_changes"] += 1
        return dump({"employee_id": employee_id, "mfa_device": serial})


def _plannable(data: Data, vulnerability_id: str) -> dict[str, Any]:
    vulnerability = fetch(data, "vulnerabilities", vulnerability_id, "vulnerability")
    if vulnerability["status"] not in ("open", "scheduled"):
        raise Refusal(f"the vulnerability is {vulnerability['status']}")
    return vulnerability  # type: ignore[no-any-return]


class ScheduleRemediation(Tool):
    name = "schedule_remediation"
    writes = True
    description = "Schedule a vulnerability's fix into a change window of its asset's business unit."
    parameters = params(
        vulnerability_id=_VULNERABILITY, window_id=text("The change window's id, such as 'cw-w1-2-05'.")
    )

    @staticmethod
    def invoke(data: Data, vulnerability_id: str, window_id: str) -> str:
        vulnerability = _plannable(data, vulnerability_id)
        window = fetch(data, "change_windows", window_id, "change window")
        asset = data["assets"][vulnerability["asset_id"]]
        if window["business_unit_id"] != asset["business_unit_id"]:
            raise Refusal("the window belongs to another business unit")
        if day(window["date"]) <= TODAY:
            raise Refusal("the window is not after today")
        vulnerability.update(status="scheduled", window_id=window_id, accepted_until=None)
        vulnerability["changes"] += 1
        return dump(vulnerability)


class AcceptRisk(Tool):
    name = "accept_risk"
    writes = True
    description = "Record the owner's acceptance of a vulnerability's risk until a date, instead of fixing it."
    parameters = params(vulnerability_id=_VULNERABILITY, accepted_until=text("The acceptance's expiry, YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, vulnerability_id: str, accepted_until: str) -> str:
        vulnerability = _plannable(data, vulnerability_id)
        try:
            until = day(accepted_until.strip())
        except ValueError:
            raise Refusal("accepted_until must be a date, YYYY-MM-DD") from None
        if until <= TODAY:
            raise Refusal("an acceptance must run past today")
        vulnerability.update(status="accepted", accepted_until=until.isoformat(), window_id=None)
        vulnerability["changes"] += 1
        return dump(vulnerability)


def audit_figures(data: Data, business_unit_id: str) -> dict[str, Any]:
    """A unit's patch-compliance figures today (policy 9.2): what is open, what is due, what was fixed on time."""
    assets = {key for key, a in data["assets"].items() if a["business_unit_id"] == business_unit_id}
    found = [v for v in data["vulnerabilities"].values() if v["asset_id"] in assets]
    open_by = {severity: 0 for severity in SEVERITIES}
    due = overdue = on_time = 0
    for v in found:
        deadline = remediation_due(v["discovered_on"], v["cvss"])
        if v["status"] in ("open", "scheduled"):
            open_by[severity_of(v["cvss"])] += 1
        if v["status"] == "accepted" or day(deadline) > TODAY:
            continue
        due += 1
        if v["status"] == "remediated":
            on_time += v["remediated_on"] <= deadline
        else:
            overdue += 1
    return {
        "open_by_severity": open_by,
        "overdue": overdue,
        "due": due,
        "fixed_on_time": on_time,
        "compliance_percent": compliance_percent(on_time, due),
    }


class GenerateAuditReport(Tool):
    name = "generate_audit_report"
    writes = True
    description = "Compute and file a business unit's patch-compliance audit report as of today, for the requester."
    parameters = params(
        business_unit_id=text("The business unit's id, such as 'bu-w1-2'."),
        requested_by=text("The requesting employee's id."),
    )

    @staticmethod
    def invoke(data: Data, business_unit_id: str, requested_by: str) -> str:
        fetch(data, "business_units", business_unit_id, "business unit")
        fetch(data, "employees", requested_by, "employee")
        report_id = new_id(data, "audit_reports", "ar")
        report = {
            "report_id": report_id,
            "business_unit_id": business_unit_id,
            "requested_by": requested_by,
            "as_of": TODAY.isoformat(),
            **audit_figures(data, business_unit_id),
        }
        data["audit_reports"][report_id] = report
        return dump(report)


REMEDIATION_TOOLS: tuple[type[Tool], ...] = (BindAuthenticator, ScheduleRemediation, AcceptRisk, GenerateAuditReport)
