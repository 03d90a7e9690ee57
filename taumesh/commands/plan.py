"""``taumesh plan``: how many trials per task a run needs, from an expected pass rate or a pilot run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

console = Console(stderr=True)
out = Console(soft_wrap=True, highlight=False)


def plan(
    tasks: Annotated[
        int | None, typer.Option("--tasks", min=1, help="Tasks in the run (default: the pilot's).")
    ] = None,
    expected_pass: Annotated[
        float | None, typer.Option("--expected-pass", help="Expected pass^1, 0-1 (the binomial model).")
    ] = None,
    detect: Annotated[
        float | None, typer.Option("--detect", help="Difference between two runs to detect, 0-1 (0.05 = 5 points).")
    ] = None,
    width: Annotated[
        float | None, typer.Option("--width", help="Full width of the pass^1 interval to reach, 0-1.")
    ] = None,
    pilot: Annotated[
        Path | None, typer.Option("--pilot", help="A pilot run's results file: its per-task variance is used.")
    ] = None,
    level: Annotated[float, typer.Option("--level", help="Confidence level.")] = 0.95,
    power: Annotated[float, typer.Option("--power", help="Chance to detect the difference when it is real.")] = 0.8,
) -> None:
    """Trials per task for a target interval width (--width) or a detectable difference (--detect).

    From the binomial model (--tasks N --expected-pass P) or from a pilot run's observed per-task variance
    (--pilot FILE). The formulas are in docs/statistics.md.
    """
    from taumesh.stats import plan_from_pilot, plan_from_rate

    if (pilot is None) == (expected_pass is None):
        console.print("[red]give either --expected-pass (with --tasks) or --pilot RESULTS[/red]")
        raise typer.Exit(2)
    try:
        if pilot is not None:
            from taumesh.commands.view import load_run_files
            from taumesh.viewer.statistics import run_table

            runs = load_run_files([pilot])
            table = run_table(runs[0]) if len(runs) == 1 else None
            if table is None:
                console.print(f"[red]{pilot}: one results file with scored episodes, please[/red]")
                raise typer.Exit(2)
            result = plan_from_pilot(table, tasks=tasks, detect=detect, width=width, level=level, power=power)
            out.print(f"pilot: {pilot} ({table.tasks} tasks × {table.trials} trials)", markup=False)
        else:
            if tasks is None:
                console.print("[red]--expected-pass needs --tasks N[/red]")
                raise typer.Exit(2)
            assert expected_pass is not None
            result = plan_from_rate(tasks, expected_pass, detect=detect, width=width, level=level, power=power)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    for line in result.lines():
        out.print(line, markup=False)
