"""``taumesh view``: browse results files in a local web app; ``taumesh report``: a leaderboard across runs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from taumesh.commands._host_policy import AllowedHosts, AllowedOrigins, host_policy
from taumesh.telemetry.attributes import ENV_JAEGER_URL

if TYPE_CHECKING:
    from taumesh.viewer.runs import Run

console = Console(stderr=True)


def _runs(paths: list[Path]) -> list[Run]:
    """The runs in ``paths``, or exit 2 naming what is missing or unreadable."""
    from taumesh.viewer.runs import load_runs

    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        console.print(f"[red]not found: {', '.join(missing)}[/red]")
        raise typer.Exit(2)
    try:
        runs = load_runs(_results_only(paths))
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    if not runs:
        console.print(f"[red]no results files in {', '.join(map(str, paths))}[/red]")
        raise typer.Exit(2)
    return runs


def _results_only(paths: list[Path]) -> list[Path]:
    """``paths`` less the side files a glob such as ``DIR/*.json`` also names, each skipped with a note.

    Errors files and fault reports are read with their results file; a τ² copy named beside its list is that run.
    """
    from taumesh.viewer.runs import is_results_file, list_beside

    given = {path.resolve() for path in paths}
    kept = []
    for path in paths:
        if path.is_file() and not is_results_file(path):
            console.print(f"[yellow]skipped {path}: read with its results file[/yellow]", soft_wrap=True)
        elif path.is_file() and path.name.endswith(".tau2.json") and list_beside(path).resolve() in given:
            console.print(f"[yellow]skipped {path}: the τ² copy of {list_beside(path)}[/yellow]", soft_wrap=True)
        else:
            kept.append(path)
    return kept


def load_run_files(paths: list[Path]) -> list[Run]:
    """The runs in ``paths``, or exit 2 naming what is missing or unreadable (for other commands)."""
    return _runs(paths)


def view(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Results files (taumesh's, τ-bench's or τ²'s) or folders of them (default: results/)."),
    ] = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (loopback: only this machine).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8765,
    jaeger_url: Annotated[
        str | None,
        typer.Option("--jaeger-url", envvar=ENV_JAEGER_URL, help="Jaeger UI base URL for the trace links."),
    ] = None,
    allowed_hosts: AllowedHosts = None,
    allowed_origins: AllowedOrigins = None,
) -> None:
    """Serve a local web viewer of runs, tasks, trajectories and comparisons (offline; no CDN).

    The paths are followed while it serves: results files written, changed or removed show on the next page load.
    Only the names localhost, 127.0.0.1 and [::1] are answered unless --allowed-host names more (a DNS-rebinding
    guard): serving on 0.0.0.0 for other machines, name the host they reach it by.
    """
    import uvicorn

    from taumesh.viewer import RunLibrary
    from taumesh.viewer.app import create_app

    policy = host_policy(allowed_hosts, allowed_origins)
    if jaeger_url:
        os.environ[ENV_JAEGER_URL] = jaeger_url
    roots = paths or [Path("results")]
    problems = [_not_found(path) for path in roots if not path.exists()]
    if paths and len(problems) == len(paths):
        # nothing typed is there: a typo far more often than runs yet to come, and an empty viewer would not say so
        for problem in problems:
            console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)
    for problem in problems:  # beside folders that are there (a deployment's results yet to be written): followed
        console.print(f"[yellow]{escape(problem)}: followed, its runs show once written[/yellow]", soft_wrap=True)
    library = RunLibrary(roots)
    library.refresh()
    for unreadable in library.unreadable():
        console.print(f"[yellow]{unreadable.path}: not read yet ({unreadable.reason})[/yellow]")
    following = ", ".join(map(str, roots))
    console.print(f"taumesh view: {len(library.runs())} run(s) in {following} at http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(create_app(library, policy), host=host, port=port, log_level="warning")


def _not_found(path: Path) -> str:
    """Why ``path`` cannot be viewed, with the closest names beside it when one looks like a typo."""
    import difflib

    parent = path.parent if path.parent.is_dir() else None
    siblings = [child.name for child in parent.iterdir()] if parent is not None else []
    close = difflib.get_close_matches(path.name, siblings, n=3)
    hint = f" (did you mean {', '.join(str(path.with_name(name)) for name in close)}?)" if close else ""
    return f"{path}: no such file or folder{hint}"


def report(
    paths: Annotated[list[Path], typer.Argument(help="Results files or folders of them.")],
    out: Annotated[Path, typer.Option("--out", help="report.md or report.html; the plots are written beside it.")],
    plot_format: Annotated[str, typer.Option("--plot-format", help="png or svg.")] = "png",
) -> None:
    """Write a leaderboard across runs (pass^1..k, average reward, cost per task and per solved task) with plots.

    Each run's user simulator is a column; runs played against different simulators are written and said to be
    incomparable, under the table and here.
    """
    from taumesh.viewer.report import write_report

    if plot_format not in ("png", "svg"):
        console.print("[red]--plot-format is png or svg[/red]")
        raise typer.Exit(2)
    try:
        written = write_report(_runs(paths), out, plot_format)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    if written.simulators_warning:
        console.print(f"[yellow]{escape(written.simulators_warning)}[/yellow]", soft_wrap=True)
    console.print("wrote " + ", ".join(str(path) for path in written.files))
