"""``taumesh domain``: check a domain's gold actions, audit its tasks' validity, scaffold a new domain."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from taumesh.audit import AuditReport, SheetFormatError, sheet_renderer, tasks_digest, write_audit
from taumesh.commands._common import DataDir
from taumesh.domains import DOMAIN_PATH_ENV, Catalog, CheckReport, DataError, check_domain
from taumesh.domains._registry import domain_path
from taumesh.domains._scaffold import ScaffoldError, write_skeleton

domain_app = typer.Typer(help="Check or audit a domain, or write the skeleton of a new one.", no_args_is_help=True)
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


STRICT_HELP = (
    "Also audit every split (as domain audit does, the domain's own flags included) and compare the domain with every "
    "other that loads (domain distinct), and fail on any flag or anything shared: exactly what the scorer and a "
    "certified run will see."
)


@domain_app.command("check")
def check(
    name: Annotated[str, typer.Argument(help="The domain to check.")],
    *,
    data_dir: DataDir,
    split: Annotated[list[str] | None, typer.Option("--split", help="Check only this split (repeatable).")] = None,
    strict: Annotated[bool, typer.Option("--strict", help=STRICT_HELP)] = False,
) -> None:
    """Replay every task's gold actions in a fresh session and report what is wrong.

    Reports actions that error, unknown tools, arguments that do not match the tool's schema, and
    tasks whose gold state equals the initial state (a warning). Exit status 1 on problems; with --strict, on any
    problem or audit flag too.
    """
    if strict:
        print_strict(name, data_dir, split or None)
        return
    print_check(lambda: check_domain(Catalog(data_dir).describe(name), split or None))  # runnable here or not


def print_strict(name: str, data_dir: Path, splits: list[str] | None) -> None:
    """``domain check --strict``: every problem of the check and flag of the audit, one row each; exit 1 on any."""
    from taumesh.commands.domain_strict import strict_findings
    from taumesh.orchestrator.audit import AuditError

    try:
        found = strict_findings(name, data_dir, splits)
    except (KeyError, DataError, AuditError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc.args[0]) if exc.args else str(exc))}")
        raise typer.Exit(2) from None
    if not found:
        out.print(f"{name}: strict check passed: every gold replays cleanly and the audit flags no task")
        return
    for finding in found:  # one line each, whole: a reviewer greps them
        out.print(f"{finding.split} {finding.task_id} {finding.kind}: {finding.detail}", soft_wrap=True, markup=False)
    tasks = len({(f.split, f.task_id) for f in found})
    out.print(f"{name}: strict check failed: {len(found)} findings on {tasks} tasks")
    raise typer.Exit(1)


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


@domain_app.command("audit")
def audit(
    name: Annotated[str, typer.Argument(help="The domain to audit.")],
    *,
    data_dir: DataDir,
    task_split: Annotated[
        str | None, typer.Option("--task-split", "--task_split", help="The split to audit (default: the first).")
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the audit as JSON (docs/validity.md says its fields).")
    ] = None,
    sheet_path: Annotated[
        Path | None,
        typer.Option(
            "--sheet",
            help="Also write a review sheet for people, Markdown (.md) or HTML (.html) by suffix: per task its "
            "instruction, gold, outputs, flags and the policy clauses it tests.",
        ),
    ] = None,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Store the verdicts in the taumesh cache, keyed by domain, split, data release and audit version: "
            "`taumesh run --tasks certified` runs the unflagged tasks, and scores show their validity.",
        ),
    ] = False,
) -> None:
    """Play trajectories built from each task through the env and scorer, and flag what lets an agent pass unearned.

    Per task: gold actions that error, tasks a refusal passes, guessable outputs, a reward basis with nothing to
    check, gold outcomes that change under a reordering the domain declares equal, duplicate instructions. Per floor
    (null, read_only, identity_then_refuse, outputs_spam, gold_without_outputs): the tasks it passes. Exit status 2
    when it cannot run.
    """
    import asyncio

    from taumesh.orchestrator.audit import AuditError, audit_domain

    for flag, path in (("--json", json_path), ("--sheet", sheet_path)):
        if path is not None and path.is_dir():
            err.print(f"[red]error:[/red] {flag} {escape(str(path))} is a folder; give a file to write")
            raise typer.Exit(2)
    try:
        render_sheet = sheet_renderer(sheet_path) if sheet_path is not None else None
    except SheetFormatError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    try:
        report = asyncio.run(audit_domain(name, task_split, data_dir))
    except (AuditError, DataError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc.args[0]) if exc.args else str(exc))}")
        raise typer.Exit(2) from None
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    domain = Catalog(data_dir).describe(name)
    tasks = domain.tasks(report.split) if sheet_path or write else []
    if sheet_path is not None and render_sheet is not None:
        clauses = {str(task.id): domain.plugin.policy_clauses(domain.root, task) for task in tasks}
        sheet_path.parent.mkdir(parents=True, exist_ok=True)
        sheet_path.write_text(render_sheet(report, tasks, clauses), encoding="utf-8")
    stored = None
    if write:  # the digest as the env lists the tasks (ListTasks), so a run can tell this audit is of its data
        stored = write_audit(report, tasks_digest((t.id, t.instruction, len(t.actions), len(t.outputs)) for t in tasks))
    print_audit(report)
    for path in (json_path, sheet_path, stored):
        if path is not None:
            out.print(f"wrote {escape(str(path))}")


@domain_app.command("distinct")
def distinct(
    names: Annotated[
        list[str] | None, typer.Argument(help="The domains to compare (default: every domain whose files are here).")
    ] = None,
    *,
    data_dir: DataDir,
) -> None:
    """Compare domains with each other: no task instruction, run of policy sentences, tool set or table two share.

    A domain copied from another under a new name passes every check of its own; this finds it. Exit status 1 when
    any two domains share something, 2 when a named domain cannot be read.
    """
    from taumesh.audit import overlaps
    from taumesh.commands.domain_distinct import loadable_surfaces

    surfaces, skipped = loadable_surfaces(Catalog(data_dir), names or None)
    if names and skipped:
        err.print(f"[red]error:[/red] {escape('; '.join(skipped))}")
        raise typer.Exit(2)
    for reason in skipped:
        err.print(f"[yellow]left out:[/yellow] {escape(reason)}")
    found = overlaps(surfaces)
    for overlap in found:
        line = f"{overlap.domain} {overlap.kind} {overlap.subject} ({overlap.other}): {overlap.detail}"
        out.print(line, soft_wrap=True, markup=False)
    compared = ", ".join(surface.name for surface in surfaces)
    if found:
        out.print(f"{len(found)} findings over {len(surfaces)} domains ({compared})")
        raise typer.Exit(1)
    out.print(f"{len(surfaces)} domains share no task, policy, tool set or table ({compared})")


SHOWN_TASKS = 40
"""Flagged tasks the summary lists; the JSON has them all."""


def print_audit(report: AuditReport) -> None:
    """The audit as tables: floors, flag counts, and the first flagged tasks with their flags."""
    title = (
        f"{report.domain} {report.split} ({report.data_release or 'no recorded release'}): {len(report.tasks)} tasks"
    )
    floors = Table(title=f"audit of {escape(title)}, floors")
    for column in ("floor", "passes", "share", "note"):
        floors.add_column(column)
    for floor, result in report.floors.items():
        share = f"{len(result.passed) / result.of:.1%}" if result.of else "-"
        note = result.note or (f"{len(result.unscored)} need a judge model" if result.unscored else "")
        floors.add_row(floor, f"{len(result.passed)}/{result.of}", share, escape(note))
    out.print(floors)
    counts = Table(title="flags (tasks with each kind)")
    counts.add_column("kind")
    counts.add_column("tasks")
    for kind, count in report.flag_counts().items():
        counts.add_row(kind, str(count))
    out.print(counts)
    flagged = report.flagged()
    tasks = Table(title=f"flagged tasks: {len(flagged)} of {len(report.tasks)}")
    for column in ("task", "kind", "detail"):
        tasks.add_column(column)
    for task in flagged[:SHOWN_TASKS]:
        for flag in task.flags:
            tasks.add_row(str(task.task_id), flag.kind, escape(flag.detail))
    if flagged:
        out.print(tasks)
    if len(flagged) > SHOWN_TASKS:
        out.print(f"... and {len(flagged) - SHOWN_TASKS} more flagged tasks (--json PATH writes them all)")


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
    out.print(f"next: taumesh domain check {name} --strict   and   pytest {escape(str(directory / name))}")


if __name__ == "__main__":
    domain_app()
