"""Validity beside a run's score: the stored audit of the data its results were played on (docs/validity.md).

Read from the results alone (``info.run``: domain, split, data release; ``info.validity``: the audit version the run
knew), so the CLI summary, ``report``, ``compare``, the viewer and the REST API say the same thing of one run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from taumesh.audit import AUDIT_VERSION, NoStoredAudit, Validity, missing_line, read_audit, validity
from taumesh.orchestrator.results.records import DATA_RELEASE, RunResult


class RunValidity(BaseModel):
    """A run's validity by its stored audit, or the one line saying no audit is stored (and how to make one)."""

    domain: str
    split: str
    grader: str = "faithful"
    """The grader the run's results record (faithful when they record none: every run before graders existed)."""
    tasks: str = "all"
    """The task set the run played: all, or certified."""
    validity: Validity | None = None
    missing: str | None = None

    def line(self) -> str:
        """The validity line (or the missing audit's), with the grader and task set when not the defaults."""
        said = self.validity.line() if self.validity is not None else str(self.missing)
        extras = [f"grader {self.grader}"] if self.grader != "faithful" else []
        extras += ["certified tasks only"] if self.tasks == "certified" else []
        return f"{said} [{', '.join(extras)}]" if extras else said


def recorded_run(results: Sequence[RunResult]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The first result's ``info.run`` and ``info.validity`` (empty when absent); None without a fingerprint."""
    for result in results:
        run = result.info.get("run")
        if isinstance(run, dict) and run.get("env") and run.get("task_split"):
            recorded = result.info.get("validity")
            return run, recorded if isinstance(recorded, dict) else {}
    return None


def run_validity(results: Sequence[RunResult]) -> RunValidity | None:
    """The validity of ``results`` by the stored audit of their domain, split, release and audit version.

    None when the results record no run (τ-bench's own files name no domain).
    """
    found = recorded_run(results)
    if found is None:
        return None
    scored = [(str(r.task_id), float(r.reward)) for r in results if not r.is_error and r.reward is not None]
    return validity_of(*found, scored)


def validity_of(
    run: Mapping[str, Any], recorded: Mapping[str, Any], scored: Sequence[tuple[str, float]]
) -> RunValidity | None:
    """The validity of scored episodes ``(task id, reward)`` of one run.

    ``run`` is its fingerprint (``info.run``), ``recorded`` its ``info.validity``; None when the fingerprint names no
    domain and split.
    """
    if not run.get("env") or not run.get("task_split"):
        return None
    domain, split = str(run["env"]), str(run["task_split"])
    release = str(run.get(DATA_RELEASE) or "") or None
    version = str(recorded.get("audit_version") or AUDIT_VERSION)
    known = RunValidity(
        domain=domain,
        split=split,
        grader=str(recorded.get("grader") or run.get("grader") or "faithful"),
        tasks=str(recorded.get("tasks") or run.get("tasks") or "all"),
    )
    try:
        stored = read_audit(domain, split, release, version=version)
    except NoStoredAudit:
        return known.model_copy(update={"missing": missing_line(domain, split, release, version)})
    return known.model_copy(update={"validity": validity(stored, scored)})
