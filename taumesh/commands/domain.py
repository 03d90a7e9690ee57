"""``taumesh domain``: check a domain's gold actions, scaffold a new domain."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from taumesh.commands._common import DataDir
from taumesh.domains import DOMAIN_PATH_ENV, Catalog, CheckReport, DataError, check_domain
from taumesh.domains._registry import domain_path
from taumesh.domains._scaffold import ScaffoldError, write_skeleton
from taumesh.orchestrator.config import CACHE_DATA_DIR

domain_app = typer.Typer(help="Check a domain, or write the skeleton of a new one.", no_args_is_help=True)
out = Console()
err = Console(stderr=True)


def _report_table(report: CheckReport) -> Table:
    table = Table(title=f"domain {report.domain}: tasks with problems or warnings")
    for column in ("split", "task", "actions", "status", "details"):
        table.add_column(column)
    for task in report.tasks:
        if task.ok and not task.unchanged:
            continue
        details = task.problems or ["gold state equals the initial state"]
        status = "[red]problem[/red]" if not task.ok else "[yellow]warning[/yellow]"
        table.add_row(task.split, task.task_id, str(task.action_count), status, escape("\n".join(details)))
    return table


@domain_app.command("check")
def check(
    name: Annotated[str, typer.Argument(help="The domain to check.")],
    data_dir: DataDir = CACHE_DATA_DIR,
    split: Annotated[list[str] | None, typer.Option("--split", help="Check only this split (repeatable).")] = None,
) -> None:
    """Replay every task's gold actions in a fresh session and report what is wrong.

    Reports actions that error, unknown tools, arguments that do not match the tool's schema, and
    tasks whose gold state equals the initial state (a warning). Exit status 1 on problems.
    """
    print_check(lambda: check_domain(Catalog(data_dir).describe(name), split or None))  # runnable here or not


def print_check(run_check: Callable[[], CheckReport]) -> None:
    """Run a domain check and print its report: exit status 2 when it cannot run, 1 on problems."""
    try:
        report = run_check()
    except (KeyError, DataError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc.args[0]) if exc.args else str(exc))}")
        raise typer.Exit(2) from None
    if report.failed or report.unchanged:
        out.print(_report_table(report))
    ok = len(report.tasks) - len(report.failed)
    out.print(
        f"{report.domain} ({', '.join(report.splits)}): {len(report.tasks)} tasks, {ok} replay cleanly, "
        f"{len(report.failed)} with problems, {len(report.unchanged)} leave the state unchanged (warning)"
    )
    if not report.ok:
        raise typer.Exit(1)


@domain_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The new domain's name (a lowercase Python identifier).")],
    directory: Annotated[Path, typer.Option("--dir", help="Where to write the package.")] = Path("domains"),
) -> None:
    """Write a working skeleton: a package with one tool, one task, a policy, its data, and a test."""
    try:
        files = write_skeleton(name, directory)
    except ScaffoldError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    for path in files:
        out.print(f"wrote {escape(str(path))}")
    searched = {path.resolve() for path in domain_path()}
    if directory.resolve() not in searched:
        out.print(f"{directory} is not on the domain path; to use it run:")
        out.print(f"  export {DOMAIN_PATH_ENV}={escape(str(directory.resolve()))}{os.pathsep}${DOMAIN_PATH_ENV}")
    out.print(f"next: taumesh domain check {name}   and   pytest {escape(str(directory / name))}")


if __name__ == "__main__":
    domain_app()
