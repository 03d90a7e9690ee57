"""The validity audit's flags on a run's tasks, for ``taumesh analyze``: a failure on a flagged task is the task's.

Read as the validity line reads them (``orchestrator/results/validity.py``): the stored audit of the domain, split,
data release and audit version the results record. Results that record no run, or a run no audit is stored for, get
no flags, and the line says why (and how to make the audit).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from taumesh.audit import AUDIT_VERSION, Flag, NoStoredAudit, missing_line, read_audit
from taumesh.orchestrator.results.records import DATA_RELEASE, RunResult
from taumesh.orchestrator.results.validity import recorded_run


class TaskFlags(BaseModel):
    """The flags of each flagged task (ids as text), and one line saying which audit they come from."""

    by_task: dict[str, list[Flag]] = Field(default_factory=dict)
    source: str


def task_flags(results: Sequence[RunResult]) -> TaskFlags:
    """The stored audit's flags on the tasks of ``results`` (none when no audit applies; ``source`` says why)."""
    found = recorded_run(results)
    if found is None:
        return TaskFlags(source="no validity audit: the results record no domain and split")
    run, recorded = found
    domain, split = str(run["env"]), str(run["task_split"])
    release = str(run.get(DATA_RELEASE) or "") or None
    version = str(recorded.get("audit_version") or AUDIT_VERSION)
    try:
        stored = read_audit(domain, split, release, version=version)
    except NoStoredAudit:
        return TaskFlags(source=missing_line(domain, split, release, version))
    flagged = {str(task.task_id): list(task.flags) for task in stored.report.tasks if task.flags}
    return TaskFlags(
        by_task=flagged,
        source=f"validity audit v{stored.report.audit_version} of {domain} {split}: {len(flagged)} task(s) flagged",
    )
