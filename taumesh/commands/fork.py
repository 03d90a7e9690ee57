"""``taumesh domain import-fork`` and ``taumesh domain forks``, beside ``domain check`` (which knows fork domains).

The ``domain`` group is :mod:`taumesh.commands.domain`'s; this module adds the fork commands to it and checks
fork domains with the copied-task check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from taumesh.commands._common import DataDir
from taumesh.commands.domain import STRICT_HELP, domain_app, err, out, print_check
from taumesh.commands.domain import check as _check_native
from taumesh.domains import Catalog, DataError

__all__ = ["domain_app"]


@domain_app.command("import-fork")
def import_fork(
    path: Annotated[
        Path, typer.Argument(help="A τ-bench fork checkout (holding tau_bench/envs/ or tau/tau_bench/envs/).")
    ],
    name: Annotated[
        str | None, typer.Option("--name", help="The fork's name in domain names (default: the folder's).")
    ] = None,
) -> None:
    """Register each environment of a τ-bench v1 fork as the domain fork:<fork>/<env>. RUNS THE FORK'S CODE.

    Loading an environment imports the fork's Python (in a worker process), as τ-bench itself would; import only
    forks you trust. Environments that do not load are listed with why; the others are registered in the cache.
    """
    from taumesh.forks._import import import_fork as run_import

    try:
        record = run_import(path, name)
    except DataError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None
    table = Table(title=f"fork {record.name}: {len(record.envs)} of {len(record.envs) + len(record.failed)} loaded")
    for column in ("domain", "splits (tasks)", "tools", "terminate tools"):
        table.add_column(column)
    for env, found in record.envs.items():
        splits = ", ".join(f"{split} ({count})" for split, count in found.splits.items())
        table.add_row(record.domain(env), splits, str(len(found.tools_info)), ", ".join(found.terminate_tools))
    out.print(table)
    for env, why in record.failed.items():
        out.print(f"[yellow]not loaded:[/yellow] {escape(env)}: {escape(why)}")
    for difference in record.differences:
        out.print(f"[yellow]differs from τ-bench:[/yellow] {escape(difference)}")
    total = sum(sum(found.splits.values()) for found in record.envs.values())
    out.print(
        f"registered {len(record.envs)} domains ({total} tasks); run one: taumesh run --env {record.domain('<env>')}"
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
    tasks whose gold state equals the initial state (a warning); for a fork's environment, also tasks
    copied from another environment (naming tools it lacks). Exit status 1 on problems; with --strict, on any
    problem or audit flag too.
    """
    if strict or not name.startswith("fork:"):  # strict: the check and the audit, a fork's through its worker
        _check_native(name, data_dir=data_dir, split=split, strict=strict)
        return
    from taumesh.forks._check import check_fork

    # runnable, unlike a native domain's check (describe): the replay calls the fork's own code in its worker, which
    # is what a fork's run_problem would be about; a native domain's is what its agent needs beyond the gold (a model)
    print_check(lambda: check_fork(Catalog(data_dir).get(name), split or None))
