"""``run_benchmark``: one run, played by this process (``run/``) or by worker processes (``scale/``).

The one entry of every front door that plays a whole run (``taumesh run``, the A2A green agent, the benches). It sits
above both ways of playing it, so neither imports the other to choose.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from taumesh.orchestrator import tracing
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.provider_limits import provider_limits
from taumesh.orchestrator.run.runner import RunSummary, existing_results, run_here
from taumesh.telemetry import attributes as A


async def run_benchmark(
    config: RunConfig,
    resume: Path | None = None,
    only_errors: bool = False,
    console: Console | None = None,
    handle_signals: bool = False,
) -> RunSummary:
    """Run the benchmark that ``config`` describes; ``resume`` continues an earlier results file.

    Resuming skips every (task, trial) that file already scored and reruns the rest, errors included;
    with ``only_errors`` it reruns just the episodes the file records as infrastructure errors. With
    ``handle_signals`` (``taumesh run``'s own process) SIGINT and SIGTERM stop the run, close its env sessions and
    raise :class:`~taumesh.orchestrator.run.interrupt.RunInterrupted`; a cancelled run closes them too. A run with
    ``config.workers`` other than 1, or a work store, is played by worker processes.
    """
    console = console or Console(stderr=True)
    with tracing.run_span(config) as span, provider_limits(config):
        existing = existing_results(resume) if resume else []
        if config.workers != 1 or config.work_store is not None:
            # here only: the work store's sqlalchemy (~0.15 s to import) is no cost of a run in this process
            from taumesh.orchestrator.scale.coordinator import run_with_workers

            summary = await run_with_workers(config, resume, only_errors, existing, console)
        else:
            summary = await run_here(config, resume, only_errors, existing, console, handle_signals)
        tracing.run_ended(span, len(summary.results), len(summary.errors), summary.average_reward)
        if span.is_recording():
            span.set_attribute(A.TAUMESH_RUN_RESULTS, str(summary.results_path))
    return summary
