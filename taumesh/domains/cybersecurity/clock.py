"""The security operations desk's fixed clock and the arithmetic of its rules, shared by tools, worlds and solvers.

Nothing here reads the real time or draws a random number, so a tool answers the same on every replay and a task's
expected figures (a remediation due date, a risk acceptance's expiry, a business unit's patch compliance) are the
ones the tools compute. The codes an employee's own apps show are digests of what they vouch for, so a replay finds
the same code again.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2026, 6, 10)
"""The desk's clock: Wednesday 10 June 2026. Every due date, window and expiry is read against it."""
SEVERITIES = ("low", "medium", "high", "critical")
"""Severities in rising order (vulnerabilities and incidents alike)."""
REMEDIATION_DAYS = {"critical": 12, "high": 33, "medium": 75, "low": 150}
"""Days from a vulnerability's discovery by which its fix must be applied (policy 5.1)."""
ACCEPTANCE_DAYS = {
    ("medium", "standard"): 45,
    ("medium", "critical"): 21,
    ("low", "standard"): 135,
    ("low", "critical"): 63,
}
"""How long a risk acceptance lasts, by the vulnerability's severity and the asset's criticality (policy 6.3)."""
CONTAINMENT_SEVERITIES = ("high", "critical")
"""Incident severities whose assets the desk may isolate (policy 7.2)."""
PHISHING_SEVERITY = {"reported": "low", "clicked": "medium", "credentials": "high"}
"""A phishing report's severity by what the employee did with the message (policy 4.2)."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def severity_of(cvss: float) -> str:
    """A vulnerability's severity from its CVSS base score (policy 5.1's bands)."""
    if cvss >= 9.0:
        return "critical"
    if cvss >= 7.0:
        return "high"
    return "medium" if cvss >= 4.0 else "low"


def remediation_due(discovered_on: str, cvss: float) -> str:
    """The date a vulnerability's fix is due: its discovery plus its severity's days."""
    return days_after(discovered_on, REMEDIATION_DAYS[severity_of(cvss)])


def acceptance_expiry(cvss: float, criticality: str) -> str | None:
    """The expiry of a risk acceptance granted today, or None when the severity may not be accepted (policy 6.1)."""
    days = ACCEPTANCE_DAYS.get((severity_of(cvss), criticality))
    return None if days is None else days_after(TODAY, days)


def compliance_percent(compliant: int, considered: int) -> float:
    """Patch compliance: the share of due vulnerabilities fixed on time, in percent to the hundredth."""
    return round(100 * compliant / considered + 1e-9, 2) if considered else 100.0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:6].upper()


def enrolment_code(employee_id: str, device_serial: str) -> str:
    """The code an employee's new phone shows when its authenticator app is ready to be bound to them."""
    return "EN-" + _digest(f"{employee_id}:{device_serial}:enrol")


def check_code(asset_id: str, health: str) -> str:
    """The code an endpoint check on ``asset_id`` shows; it vouches for the health it found."""
    return "HC-" + _digest(f"{asset_id}:{health}:endpoint")
