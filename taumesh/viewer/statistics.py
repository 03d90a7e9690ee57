"""A run's figures with their uncertainty, and paired comparisons of runs, for the viewer, the report and commands.

The statistics themselves are :mod:`taumesh.stats`; this module turns a :class:`Run` into its inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taumesh.orchestrator.results.manifest import manifest_for, read_manifest
from taumesh.simulators import UNRECORDED
from taumesh.stats import (
    Interval,
    PairedComparison,
    RunIdentity,
    TaskRecord,
    TrialOutcome,
    TrialTable,
    average_reward_interval,
    compare_paired,
    differences,
    pass_hat_k_intervals,
)
from taumesh.stats.compat import simulator_note, trial_note
from taumesh.viewer.runs import Run

VIEW_RESAMPLES = 1999
"""Bootstrap resamples for pages and reports: intervals steady to about 0.002 and quick on large runs."""


class RunUncertainty(BaseModel):
    """A run's pass^k and average reward with their intervals, and its tasks whose verdict flips between trials."""

    pass_hat_k: dict[int, Interval]
    average_reward: Interval
    flipping: list[str]
    """Tasks some of whose trials succeeded and some failed."""
    tasks: list[TaskRecord]


def run_table(run: Run) -> TrialTable | None:
    """The run's scored trials by task (None when nothing is scored)."""
    outcomes = [
        TrialOutcome(e.task_id, e.trial, e.reward) for e in run.episodes if e.reward is not None and not e.error
    ]
    return TrialTable(outcomes) if outcomes else None


def uncertainty(run: Run, n_resamples: int = VIEW_RESAMPLES) -> RunUncertainty | None:
    """Intervals of ``run``'s figures (None when nothing is scored)."""
    table = run_table(run)
    if table is None:
        return None
    return RunUncertainty(
        pass_hat_k=pass_hat_k_intervals(table, n_resamples=n_resamples),
        average_reward=average_reward_interval(table, n_resamples=n_resamples),
        flipping=table.flipping(),
        tasks=table.records(),
    )


def run_identity(run: Run, label: str | None = None) -> RunIdentity:
    """What decides whether ``run`` can be compared with another: tasks, domain, user simulator, data release."""
    config = run.config
    user: dict[str, Any] = config["user"] if isinstance(config.get("user"), dict) else {}
    user_info: dict[str, Any] = config["user_info"] if isinstance(config.get("user_info"), dict) else {}
    release = ""
    manifest = manifest_for(Path(run.path))
    if manifest is not None:
        try:
            release = read_manifest(manifest).data_release_id
        except ValueError:
            release = ""
    return RunIdentity(
        label=label or run.name,
        tasks=sorted({e.task_id for e in run.episodes if e.reward is not None and not e.error}),
        trials=sorted({e.trial for e in run.episodes if e.reward is not None and not e.error}),
        env=str(config.get("env") or run.domain),
        task_split=str(config.get("task_split") or ""),
        user_model=str(user.get("model") or user_info.get("llm") or ""),
        user_strategy=str(user.get("strategy") or user_info.get("implementation") or ""),
        data_release=release,
        user_sim_version=", ".join(v for v in run.user_sim_versions if v != UNRECORDED),  # unrecorded: unknown
    )


class PairedReport(BaseModel):
    """Run B against run A: the comparison, its verdict, and what makes the runs differ beyond their agents."""

    run_a: str
    run_b: str
    comparison: PairedComparison | None
    verdict: str
    differences: list[str]
    """Ways the runs differ that make their scores incomparable (empty: comparable)."""
    notes: list[str]
    graders: tuple[str, str] = ("faithful", "faithful")
    """The grader each run's results record (faithful when they record none)."""


def run_grader(run: Run) -> str:
    """The grader ``run`` was graded by: its ``info.validity`` (or fingerprint) says; faithful when neither does."""
    return str(run.validity.get("grader") or run.config.get("grader") or "faithful")


def paired_report(
    a: Run,
    b: Run,
    *,
    labels: tuple[str, str] = ("A", "B"),
    force: bool = False,
    allow_grader_change: bool = False,
    n_resamples: int = VIEW_RESAMPLES,
) -> PairedReport:
    """Compare ``b`` with ``a``, or refuse to when they measure different things.

    Runs that differ in task set, domain, user simulator or data release are refused (``comparison`` None, the
    verdict names what differs) unless ``force``; runs graded by different graders (faithful, strict) unless
    ``allow_grader_change``, and then a note says so.
    """
    ida, idb = run_identity(a, labels[0]), run_identity(b, labels[1])
    found = differences(ida, idb)
    notes = [note for note in (trial_note(ida, idb), simulator_note(ida, idb)) if note]
    graders = (run_grader(a), run_grader(b))
    if graders[0] != graders[1]:
        said = f"{labels[0]} was graded by the {graders[0]} grader, {labels[1]} by the {graders[1]} grader"
        if not allow_grader_change:
            verdict = f"not compared: {said} (--allow-grader-change pairs them)"
            return PairedReport(
                run_a=a.id, run_b=b.id, comparison=None, verdict=verdict, differences=[*found, said], notes=notes,
                graders=graders,
            )  # fmt: skip
        notes.append(f"graders differ: {said}; the difference mixes the agents' and the graders'")
    table_a, table_b = run_table(a), run_table(b)
    if table_a is None or table_b is None:
        return PairedReport(
            run_a=a.id, run_b=b.id, comparison=None, verdict="nothing to compare: a run has no scored episode",
            differences=found, notes=notes, graders=graders,
        )  # fmt: skip
    if found and not force:
        verdict = "not compared: " + "; ".join(found)  # each already says what differs
        return PairedReport(
            run_a=a.id, run_b=b.id, comparison=None, verdict=verdict, differences=found, notes=notes, graders=graders
        )
    result = compare_paired(table_a, table_b, name_a=labels[0], name_b=labels[1], n_resamples=n_resamples)
    return PairedReport(
        run_a=a.id,
        run_b=b.id,
        comparison=result,
        verdict=result.verdict(),
        differences=found,
        notes=notes,
        graders=graders,
    )


def run_label(index: int) -> str:
    """Runs are called A, B, C, … in the order given."""
    return chr(ord("A") + index)


def paired_reports(
    runs: Sequence[Run], *, force: bool = False, allow_grader_change: bool = False, n_resamples: int = VIEW_RESAMPLES
) -> list[PairedReport]:
    """Each run after the first (B, C, …) against the first (A)."""
    return [
        paired_report(
            runs[0],
            other,
            labels=("A", run_label(i)),
            force=force,
            allow_grader_change=allow_grader_change,
            n_resamples=n_resamples,
        )
        for i, other in enumerate(runs[1:], start=1)
    ]
