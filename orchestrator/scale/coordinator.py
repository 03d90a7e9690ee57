"""``taumesh run --workers N``: one run played by N orchestrator processes, so that its CPU is not one core's.

This process is the coordinator. It resolves the tasks and the plan as a single-process run does (``--resume`` and
``--retry-errors`` included), writes the plan into a work store (:mod:`taumesh.orchestrator.scale.work_store`): a SQLite
file beside the results file (``X.work.sqlite``), or the database ``--work-store URL`` names, where workers on other
machines join the run (``taumesh worker --work-store URL``). It starts N workers
(:mod:`taumesh.orchestrator.scale.worker`;
none with ``--workers 0``) that dial the services given by address and each serve the embedded ones themselves,
in-process on loopback (so N workers use N cores, not one process's services; services in child processes,
``--embedded-processes``, stay this process's and all dial them). Workers joining by the store's URL dial what the
spec names. Each worker leases episodes from the store and records their results there; the coordinator reads
them back in the order they come, feeds the progress display and the results file, and at the end writes the run's
outputs and pass^k exactly as the single-process path does, then deletes the run from the store.

``--provider-limit`` caps are written into the store as call slots that the live workers share
(:mod:`taumesh.orchestrator.scale.permit_shares`), the same for the workers this process starts and for those that join;
the coordinator sums the workers' model-call figures (calls in flight, 429s) for its display.

A worker that dies loses nothing: the coordinator frees its leases at once (a hung one's run out after
:data:`~taumesh.orchestrator.scale.worker.LEASE_SECONDS`) and starts another in its place, up to
:data:`RESTARTS_PER_WORKER` times per worker on average. When every worker is gone and no restart is left the run
fails with :class:`WorkersFailed`, its finished episodes kept for ``--resume``. Ctrl-C and SIGTERM (then
:class:`RunInterrupted`) stop the workers, keep what finished and flush the results file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from opentelemetry import propagate
from rich.console import Console

from taumesh.llm.access import OperatorGrants, current_grants
from taumesh.llm.limiter import ProviderStats
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.outputs import write_outputs
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.results_file import ResultsFile
from taumesh.orchestrator.results.tau2_layout import fetch_tau2_tasks
from taumesh.orchestrator.run.interrupt import RunInterrupted
from taumesh.orchestrator.run.progress import RunProgress
from taumesh.orchestrator.run.runner import (
    PreparedRun,
    RunSummary,
    WorkersFailed,
    compute_pass_hat_k,
    prepare_run,
)
from taumesh.orchestrator.run.stack import ServiceTargets, serving_targets
from taumesh.orchestrator.scale.permit_shares import run_stats
from taumesh.orchestrator.scale.work_store import WorkStore, remove_files, sqlite_url
from taumesh.orchestrator.scale.worker import StoredRun, WorkOrder

log = logging.getLogger(__name__)

POLL_S = 0.25
"""How often the coordinator reads new results and looks after its workers."""
RESTARTS_PER_WORKER = 2
"""Replacement workers a run may start, per worker asked for, before a dead worker is let be."""
STOP_GRACE_S = 10.0
"""How long a stopped worker has to release its leases and exit before it is killed."""
WORK_STORE_SUFFIX = ".work.sqlite"
RUN_ID_ROOM = 71
"""Characters of the results file's name a run id in a shared store keeps: with its 9 unique ones, the 80 the
store's column holds (PostgreSQL refuses longer ones; a tool-calling run's name with its models is longer)."""


def work_store_path(results_path: Path) -> Path:
    """The work store of the run writing ``results_path`` (``X.json`` → ``X.work.sqlite``), deleted at its end."""
    return results_path.with_name(results_path.name.removesuffix(".json") + WORK_STORE_SUFFIX)


def worker_slots(workers: int, max_concurrency: int) -> list[int]:
    """How many episodes each worker plays at once: ``max_concurrency`` shared as evenly as it goes.

    Never more workers than episodes allowed at once.
    """
    count = min(workers, max_concurrency)
    if count == 0:
        return []
    share, extra = divmod(max_concurrency, count)
    return [share + (slot < extra) for slot in range(count)]


async def run_with_workers(
    config: RunConfig, resume: Path | None, only_errors: bool, existing: list[RunResult], console: Console
) -> RunSummary:
    """:func:`~taumesh.orchestrator.benchmark.run_benchmark` with ``config.workers`` worker processes."""
    async with serving_targets(config.addresses, config.data_dir) as targets:
        clients = targets.connect()
        try:
            run = await prepare_run(clients, config, resume, only_errors, existing)
            results = run.results_file()
            async with run.progress(console) as progress:
                try:
                    if run.plan:
                        await _until_sigterm(_coordinate(run, targets, results, progress), run.path)
                finally:
                    results.flush()  # also when interrupted: what finished is kept for --resume
            pass_k, average = await compute_pass_hat_k(clients, run.config, results.results)
            served = await fetch_tau2_tasks(clients, run.config, results.results)
        finally:
            await clients.close()
    path = write_outputs(run.config, run.path, results.results, served)
    return RunSummary(
        results_path=path, results=results.results, pass_hat_k=pass_k, average_reward=average, excluded=run.excluded
    )


async def _until_sigterm(play: Coroutine[Any, Any, None], results_path: Path) -> None:
    """Await ``play``; SIGTERM cancels it (stopping the workers) and raises :class:`RunInterrupted` instead."""
    playing = asyncio.ensure_future(play)
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, playing.cancel)
    except (ValueError, RuntimeError, NotImplementedError):  # not the main thread: leave SIGTERM alone
        await playing
        return
    try:
        await playing
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise  # Ctrl-C, or whoever runs us, cancelled the run itself
        raise RunInterrupted(
            f"stopped by SIGTERM; the finished episodes are in {results_path} (--resume continues it)"
        ) from None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def run_store(config: RunConfig, results_path: Path) -> tuple[str, str, Path | None]:
    """(store URL, run id, SQLite file to delete at the end) of the run writing ``results_path``."""
    run_id = results_path.name.removesuffix(".json")
    if config.work_store is None:
        path = work_store_path(results_path)
        remove_files(path)  # one a killed run left
        return sqlite_url(path), run_id, path
    return config.work_store, f"{run_id[:RUN_ID_ROOM]}-{uuid.uuid4().hex[:8]}", None


async def _coordinate(run: PreparedRun, targets: ServiceTargets, results: ResultsFile, progress: RunProgress) -> None:
    """Play ``run.plan`` with the workers, moving each result from the store to ``results`` as it comes in."""
    url, run_id, path = run_store(run.config, run.path)
    trace_context: dict[str, str] = {}
    propagate.inject(trace_context)  # the run span
    config = run.config.model_copy(update={"workers": 1, "show_progress": False, "verbose": False})
    spec = StoredRun(config=config, targets=targets, recorded=run.recorded, trace_context=trace_context)
    store = WorkStore(url)
    await asyncio.to_thread(store.create_tables)
    plan = [(run.tasks[index].task_id, trial) for index, trial in run.plan]
    await asyncio.to_thread(store.add_run, run_id, plan, spec.model_dump_json(), config.provider_limits)
    if run.config.work_store is not None:
        log.warning("run %s is in the work store: workers join it with taumesh worker --work-store URL", run_id)
    feed = _ResultFeed(store, run_id, results, progress, config.provider_limits)
    progress.state.providers = feed.provider_stats  # the workers' figures, not this process's (unused) limiters
    pool = _WorkerPool(run, url, run_id, serve=targets.embedded - run.config.addresses.processes)
    try:
        await pool.start()
        while True:
            await feed.read()
            remaining, leased = await asyncio.to_thread(store.counts, run_id)
            progress.state.in_flight = leased
            if not remaining:
                return
            await pool.look_after(store)
            await asyncio.sleep(POLL_S)
    finally:
        await pool.stop()
        await feed.read(ended=True)  # what the workers recorded while they stopped
        await asyncio.to_thread(store.delete_run, run_id)  # workers still on it find nothing left and exit
        store.close()
        if path is not None:
            remove_files(path)


@dataclass
class _ResultFeed:
    """Moves results from the store into the results file and the progress display, each once."""

    store: WorkStore
    run_id: str
    results: ResultsFile
    progress: RunProgress
    caps: dict[str, int]
    cursor: int = 0
    providers: list[ProviderStats] = field(default_factory=list)

    async def read(self, ended: bool = False) -> None:
        """Take the results recorded since the last read, and the workers' model-call figures."""
        for finished in await asyncio.to_thread(self.store.finished_after, self.run_id, self.cursor):
            self.cursor = finished.finished
            result = RunResult.model_validate_json(finished.result)
            self.results.add(result)
            self.progress.episode_finished(result)
        self.providers = run_stats(await asyncio.to_thread(self.store.worker_stats, self.run_id), self.caps, ended)

    def provider_stats(self) -> list[ProviderStats]:
        """The run's figures per provider as last read (the Live display calls this from its own thread)."""
        return self.providers


@dataclass
class _Worker:
    slot: int
    owner: str
    process: asyncio.subprocess.Process


@dataclass
class _WorkerPool:
    """The worker processes: started, watched, replaced when they die, stopped at the end."""

    run: PreparedRun
    store_url: str
    run_id: str
    serve: frozenset[str]
    """The embedded services each worker starts for itself."""
    workers: list[_Worker] = field(default_factory=list)
    restarts_left: int = 0

    def __post_init__(self) -> None:
        self.slots = worker_slots(self.run.config.workers, self.run.config.max_concurrency)
        self.restarts_left = RESTARTS_PER_WORKER * len(self.slots)

    async def start(self) -> None:
        for slot in range(len(self.slots)):
            self.workers.append(await self._spawn(slot))

    async def _spawn(self, slot: int) -> _Worker:
        owner = f"worker-{slot}-{uuid.uuid4().hex[:8]}"
        order = WorkOrder(
            store=self.store_url,
            run_id=self.run_id,
            owner=owner,
            concurrency=self.slots[slot],
            watch_parent=True,
            otlp_endpoint=self.run.config.otlp_endpoint,
            serve=self.serve,
            # the run's own endpoints, for the services the worker serves (never the terminal's human user)
            grants=current_grants().model_copy(update={"human_user": False}) if self.serve else OperatorGrants(),
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "taumesh.orchestrator.scale.worker",
            stdin=asyncio.subprocess.PIPE,
            start_new_session=True,  # Ctrl-C reaches the coordinator, which stops the workers in order
        )
        assert process.stdin is not None
        process.stdin.write(order.model_dump_json().encode())
        await process.stdin.drain()
        process.stdin.close()
        return _Worker(slot, owner, process)

    async def look_after(self, store: WorkStore) -> None:
        """Free the episodes of workers that died and start others in their place while restarts are left.

        Raises :class:`WorkersFailed` when no worker is left and episodes are.
        """
        if not self.slots:
            return  # coordinating only: the workers joined by the store's URL, and an expired lease frees work
        for worker in [w for w in self.workers if w.process.returncode is not None]:
            self.workers.remove(worker)
            released = await asyncio.to_thread(store.release, worker.owner)
            code = worker.process.returncode
            if code == 0:
                continue  # it found nothing left to play
            how = f"signal {-code}" if code is not None and code < 0 else f"status {code}"
            log.warning(
                "worker %d (pid %d) died (%s); %d episode(s) it was playing go to the other workers",
                worker.slot,
                worker.process.pid,
                how,
                released,
            )
            if self.restarts_left:
                self.restarts_left -= 1
                self.workers.append(await self._spawn(worker.slot))
        if not self.workers:
            remaining, _ = await asyncio.to_thread(store.counts, self.run_id)
            if remaining:
                raise WorkersFailed(
                    f"every worker process died and no restart is left; {remaining} episode(s) were not played "
                    "(the finished ones are in the results file: --resume continues it)"
                )

    async def stop(self) -> None:
        """SIGTERM every worker still running, then kill those that do not exit within the grace period."""
        running = [w.process for w in self.workers if w.process.returncode is None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        for process in running:
            try:
                await asyncio.wait_for(process.wait(), STOP_GRACE_S)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
