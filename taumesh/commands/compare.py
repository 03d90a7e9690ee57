"""``taumesh compare A.json B.json [...]``: each run against the first, paired on tasks and trials."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from taumesh.simulators import UNRECORDED, recorded_version

console = Console(stderr=True)
out = Console(soft_wrap=True, highlight=False)


def compare(
    paths: Annotated[list[Path], typer.Argument(help="Two or more results files: B, C, … are compared with A.")],
    force: Annotated[
        bool,
        typer.Option("--force", help="Compare runs that differ in task set, domain, user simulator or data release."),
    ] = False,
    allow_grader_change: Annotated[
        bool,
        typer.Option("--allow-grader-change", help="Pair runs graded by different graders (faithful, strict)."),
    ] = False,
    allow_simulator_change: Annotated[
        bool,
        typer.Option(
            "--allow-simulator-change",
            help="Pair runs played against different user simulators (info.user_sim_version).",
        ),
    ] = False,
    resamples: Annotated[int, typer.Option("--resamples", min=99, help="Bootstrap and permutation resamples.")] = 9999,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparisons as JSON.")] = False,
) -> None:
    """Is B better than A? Runs paired on their tasks and trials, with a verdict in words.

    The difference in pass^1 and average reward with its 95 % interval (paired bootstrap over tasks), a paired
    permutation test's p-value, and the tasks that drive the difference.

    Runs that differ in task set, domain, user simulator or data release are refused, naming what differs
    (exit 1), unless --force; runs graded by different graders unless --allow-grader-change; runs played against
    different user-simulator versions unless --allow-simulator-change (then also --force). Beside each run: its
    validity by the stored audit of its domain (docs/validity.md), or how to make one.
    """
    from taumesh.commands.view import load_run_files
    from taumesh.viewer.metrics import run_validity
    from taumesh.viewer.statistics import paired_reports, run_label

    if len(paths) < 2:
        console.print("[red]compare needs at least two results files[/red]")
        raise typer.Exit(2)
    runs = load_run_files(paths)
    if len(runs) != len(paths):
        console.print(f"[red]expected {len(paths)} runs, read {len(runs)}: give results files, not folders[/red]")
        raise typer.Exit(2)
    simulators = [_user_simulators(path) for path in paths]
    if len({tuple(found) for found in simulators}) > 1:
        said = "; ".join(f"{chr(ord('A') + i)} played {', '.join(found)}" for i, found in enumerate(simulators))
        if not allow_simulator_change:
            console.print(f"not compared: user simulators differ: {escape(said)} (--allow-simulator-change pairs them)")
            raise typer.Exit(1)
        console.print(f"note: user simulators differ: {escape(said)}; the difference mixes agents' and simulators'")
    reports = paired_reports(runs, force=force, allow_grader_change=allow_grader_change, n_resamples=resamples)
    validity = [run_validity(run) for run in runs]
    if as_json:
        dumped = [report.model_dump(mode="json") for report in reports]
        for i, entry in enumerate(dumped, start=1):  # B, C, … against A: each entry with both runs' validity
            entry["validity_a"] = validity[0].model_dump(mode="json") if validity[0] is not None else None
            found = validity[i]
            entry["validity_b"] = found.model_dump(mode="json") if found is not None else None
        out.print(json.dumps(dumped, indent=1), markup=False)
    else:
        for i, (run, found) in enumerate(zip(runs, validity, strict=True)):
            out.print(f"{run_label(i)} = {run.path}", markup=False)
            if found is not None:
                out.print(f"  {found.line()}", markup=False)
        for report in reports:
            _print(report)
    if any(report.comparison is None for report in reports):
        raise typer.Exit(1)


def _user_simulators(path: Path) -> list[str]:
    """The user-simulator versions a results file's entries record (``info.user_sim_version``), sorted."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [UNRECORDED]
    found = {
        recorded_version(entry.get("info") or {})
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, dict)
    }
    return sorted(found) or [UNRECORDED]


def _print(report: object) -> None:
    from taumesh.viewer.statistics import PairedReport

    assert isinstance(report, PairedReport)
    c = report.comparison
    if c is not None:
        table = Table(title=f"{c.name_b} against {c.name_a}: {c.tasks} tasks × {c.trials} trials", show_edge=False)
        for column in ("figure", c.name_a, c.name_b, "difference (95 % CI)"):
            table.add_column(column, justify="right")
        d, r = c.pass1_difference, c.reward_difference
        table.add_row("pass^1", f"{c.pass1_a:.4f}", f"{c.pass1_b:.4f}", _points(d.estimate, d.low, d.high))
        table.add_row("average reward", "", "", _points(r.estimate, r.low, r.high))
        out.print(table)
        out.print(f"test: {c.test}: p = {c.p_value:.3g}", markup=False)
        out.print(f"interval: {d.method}", markup=False)
        if c.driving:
            rows = ", ".join(f"{t.task_id} ({t.rate_a:.2f}→{t.rate_b:.2f})" for t in c.driving)
            out.print(
                f"driving tasks ({len(c.better)} better in {c.name_b}, {len(c.worse)} worse): {rows}", markup=False
            )
    for difference in report.differences:
        out.print(f"[yellow]{escape(difference)}[/yellow]")  # each says what differs ("task set differs: …")
    for note in report.notes:
        out.print(f"note: {note}", markup=False)
    out.print(report.verdict, markup=False)


def _points(estimate: float, low: float, high: float) -> str:
    return f"{estimate * 100:+.1f} points ({low * 100:+.1f} to {high * 100:+.1f})"
