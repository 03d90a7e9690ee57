"""``taumesh worker``: join a run by its work store's URL and play its episodes (on any machine)."""

from __future__ import annotations

import asyncio
import signal
from typing import Annotated

import typer
from rich.console import Console

from taumesh.commands import OtlpEndpoint

console = Console(stderr=True)


def worker(
    work_store: Annotated[
        str,
        typer.Option(
            "--work-store",
            envvar="TAUMESH_WORK_STORE",
            help="The work store's SQLAlchemy URL, as the coordinator's `taumesh run --work-store` names it.",
        ),
    ],
    run_id: Annotated[
        str | None,
        typer.Option("--run-id", envvar="TAUMESH_WORK_RUN_ID", help="Play only this run (default: each open run)."),
    ] = None,
    max_concurrency: Annotated[
        int | None,
        typer.Option(
            "--max-concurrency",
            min=1,
            envvar="TAUMESH_WORKER_MAX_CONCURRENCY",
            help="Episodes this worker plays at once (default: the run's --max-concurrency).",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            min=0.1,
            envvar="TAUMESH_WORKER_LEASE_SECONDS",
            help="How long this worker's leases last unless renewed (a third of it apart): what its death costs.",
        ),
    ] = 60.0,
    wait_seconds: Annotated[
        float,
        typer.Option(
            "--wait-seconds",
            min=0,
            envvar="TAUMESH_WORKER_WAIT_SECONDS",
            help="How long to wait for a run to appear in the store before exiting with nothing played.",
        ),
    ] = 600.0,
    otlp_endpoint: OtlpEndpoint = None,
) -> None:
    """Join a run by its work store's URL and play its episodes: lease, play, record, until none is left.

    Start as many as you like, on any machine that reaches the store and the run's services; the run's coordinator
    (`taumesh run --work-store URL`) writes the results. Exits 0 when no episode is left, 143 on SIGTERM (its
    episodes go back to the others).
    """
    from sqlalchemy.exc import ArgumentError, DBAPIError

    from taumesh.orchestrator.scale.worker import WorkOrder, work
    from taumesh.rpc.loop import run as run_loop
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    order = WorkOrder(
        store=work_store,
        run_id=run_id,
        concurrency=max_concurrency,
        lease_seconds=lease_seconds,
        wait_seconds=wait_seconds,
        otlp_endpoint=otlp_endpoint,
    )
    setup_telemetry("orchestrator", otlp_endpoint)
    try:
        played = run_loop(work(order))
    except asyncio.CancelledError:
        console.print("stopped by a signal; this worker's unfinished episodes went back to the store")
        raise typer.Exit(128 + signal.SIGTERM) from None
    except ArgumentError as exc:
        console.print(f"[red]error:[/red] --work-store {work_store!r} is not a database URL: {exc}", soft_wrap=True)
        raise typer.Exit(2) from exc
    except DBAPIError as exc:
        console.print(f"[red]error:[/red] the work store cannot be used: {exc.orig}", soft_wrap=True)
        raise typer.Exit(1) from exc
    finally:
        shutdown_telemetry()
    console.print(f"worker {order.owner}: {played} episode(s) recorded")
