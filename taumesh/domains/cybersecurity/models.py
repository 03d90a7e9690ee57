"""The security operations desk's database: one pydantic model per record, one field per table.

``phones`` is the employee's side: the work phone whose authenticator and endpoint apps they open themselves. The
desk's tools never read it; what it shows reaches the desk only when the employee reads a code out (dual control).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["low", "medium", "high", "critical"]


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class BusinessUnit(Record):
    business_unit_id: str
    name: str
    head_id: str
    """The employee who heads the unit, to whom its audit report may be released."""


class Employee(Record):
    employee_id: str
    first_name: str
    last_name: str
    email: str
    role: Literal["staff", "analyst"]
    business_unit_id: str
    desk_pin: str
    """The four-digit PIN the desk verifies a caller by."""
    account_status: Literal["active", "suspended"]
    suspended_for: str | None
    """The incident whose investigation suspended the account."""
    mfa_device: str
    mfa_changes: int
    """How many times the authenticator was re-bound: each change leaves a trace."""


class Asset(Record):
    asset_id: str
    hostname: str
    kind: Literal["laptop", "server"]
    owner_id: str
    business_unit_id: str
    criticality: Literal["standard", "critical"]
    health: Literal["clean", "malware_detected"]
    network_state: Literal["connected", "isolated"]
    network_history: list[str]
    """Every isolation and release, in order (``isolated:<incident>``, ``released:<check code>``)."""


class Vulnerability(Record):
    vulnerability_id: str
    asset_id: str
    cve: str
    title: str
    cvss: float
    discovered_on: str
    status: Literal["open", "scheduled", "remediated", "accepted"]
    remediated_on: str | None
    window_id: str | None
    accepted_until: str | None
    changes: int
    """How many times the desk changed the record's plan: each change leaves a trace."""


class ChangeWindow(Record):
    window_id: str
    business_unit_id: str
    date: str
    starts: str


class Playbook(Record):
    playbook_id: str
    category: str
    steps: list[str]


class Incident(Record):
    incident_id: str
    category: str
    severity: Severity
    reporter_id: str
    asset_ids: list[str]
    status: Literal["open", "closed"]
    opened_on: str
    closed_on: str | None
    contained_assets: list[str]
    device_checks: list[str]


class Alert(Record):
    alert_id: str
    asset_id: str
    incident_id: str | None
    rule: str
    raised_on: str
    status: Literal["open", "resolved"]


class AuditReport(Record):
    report_id: str
    business_unit_id: str
    requested_by: str
    as_of: str
    open_by_severity: dict[str, int]
    overdue: int
    due: int
    fixed_on_time: int
    compliance_percent: float


class Verification(Record):
    employee_id: str
    verified: bool


class Handoff(Record):
    handoff_id: str
    employee_id: str
    team: str


class Phone(Record):
    """An employee's work phone: its apps' PIN, the new phone waiting to be enrolled, and what the screen showed."""

    employee_id: str
    email: str
    app_pin: str
    new_device_serial: str
    shown: list[str]


class SecurityDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    business_units: dict[str, BusinessUnit]
    employees: dict[str, Employee]
    assets: dict[str, Asset]
    vulnerabilities: dict[str, Vulnerability]
    change_windows: dict[str, ChangeWindow]
    playbooks: dict[str, Playbook]
    incidents: dict[str, Incident]
    alerts: dict[str, Alert]
    audit_reports: dict[str, AuditReport]
    verifications: dict[str, Verification]
    handoffs: dict[str, Handoff]
    phones: dict[str, Phone]
