"""Audits through the real env and scorer services (started in-process on loopback), one per domain and module."""

from __future__ import annotations

import asyncio
from pathlib import Path

from taumesh.audit import AuditReport
from taumesh.orchestrator.audit import audit_domain


def audited(name: str, split: str | None, data_dir: Path) -> AuditReport:
    """``taumesh domain audit``'s report, its services started here and stopped on return."""
    return asyncio.run(audit_domain(name, split, data_dir))


def flagged(report: AuditReport, kind: str) -> set[int | str]:
    """The ids of the tasks carrying a flag of ``kind``."""
    return {task.task_id for task in report.tasks if any(flag.kind == kind for flag in task.flags)}
