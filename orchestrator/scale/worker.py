"""A worker of a run: leases the run's episodes from its work store and plays them.

:class:`EpisodeWorker` plays one run's episodes in this process (the REST API's executor plays its runs with one).
A worker process, ``python -m taumesh.orchestrator.scale.worker`` (started by ``taumesh run --workers N``'s coordinator,
:mod:`taumesh.orchestrator.scale.coordinator`, with its :class:`WorkOrder` as JSON on stdin) or ``taumesh worker
--work-store URL`` (on any machine that reaches the store and the services), reads the run's :class:`StoredRun` from
the store, dials the services it names and plays up to ``concurrency`` episodes at a time with
:func:`~taumesh.orchestrator.run.runner.play`. It takes new episodes in batches as slots free up, renews its leases
while it works (the heartbeat), and records each result only while the episode is still its own
(:meth:`WorkStore.complete`). The workers ``taumesh run --workers N`` starts for a run with embedded services each serve
those services themselves, in-process on loopback (:attr:`WorkOrder.serve`): every worker is a whole stack on a core of
its own, rather than N orchestrators waiting on one process's services. Its model calls per provider stay within the
call slots of ``--provider-limit`` it holds in the store
(:mod:`taumesh.orchestrator.scale.permit_shares`: its fair share of
each cap among the live workers). It exits 0 once no episode is left, and stops (its leases released) on SIGTERM or
SIGINT, or when the coordinator that started it is gone.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import logging
import os
import signal
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import propagate
from pydantic import BaseModel, Field

from taumesh.env.v1 import env_pb2
from taumesh.llm.access import OperatorGrants, granted
from taumesh.orchestrator.clients import ServiceClients, list_tasks
from taumesh.orchestrator.config import SERVICE_NAMES, RunConfig, ServiceAddresses
from taumesh.orchestrator.provider_limits import provider_limits, shared_limiters
from taumesh.orchestrator.run.runner import play
from taumesh.orchestrator.run.stack import ServiceTargets, serving_targets
from taumesh.orchestrator.scale.permit_shares import PermitShares, SlotLimiters
from taumesh.orchestrator.scale.work_store import Claimed, WorkStore
from taumesh.rpc.loop import run as run_loop

log = logging.getLogger(__name__)

LEASE_SECONDS = 60.0
"""How long a lease lasts unless renewed (every third of it): what a hung worker costs before its episodes move."""
IDLE_POLL_S = 0.5
"""How often a worker with free slots looks for episodes again (another worker's lease may have run out)."""


class StoredRun(BaseModel):
    """What a worker needs of a run, written into the store by its coordinator."""

    config: RunConfig
    """The run's configuration, its split resolved."""
    targets: ServiceTargets
    """The services the workers dial (across machines: addresses every worker reaches)."""
    recorded: dict[str, Any]
    """Added to each result's ``info`` (the run's fingerprint, the external agent)."""
    trace_context: dict[str, str] = Field(default_factory=dict)
    """The run span's W3C trace context, which the episodes' traces link to as a single process's do."""


class WorkOrder(BaseModel):
    """What a worker process is told: the store, which run, who it is and how many episodes it may play."""

    store: str = Field(min_length=1)
    """The work store's SQLAlchemy URL."""
    run_id: str | None = None
    """The run to play; None: every run the store holds that workers may join, one after another."""
    owner: str = Field(default_factory=lambda: f"{os.uname().nodename}:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    """This worker's lease owner id, unique across the run's workers."""
    concurrency: int | None = Field(default=None, ge=1)
    """Episodes played at once; None: the run's ``max_concurrency``."""
    lease_seconds: float = Field(default=LEASE_SECONDS, gt=0)
    wait_seconds: float = Field(default=0.0, ge=0)
    """How long to wait for a run to join before exiting with nothing played."""
    watch_parent: bool = False
    """Stop when the process that started this one is gone (the coordinator's own workers)."""
    otlp_endpoint: str | None = None
    serve: frozenset[str] = frozenset()
    """Services this worker starts itself, in-process on loopback, instead of dialing the spec's targets (the
    embedded ones of ``taumesh run --workers N``; never the services given by address)."""
    grants: OperatorGrants = OperatorGrants()
    """What the coordinator's ``taumesh run`` granted its own services (its ``--api-base`` flags, its few-shot
    files): the services this worker serves allow them too, as the coordinator's own would."""


@asynccontextmanager
async def worker_targets(spec: StoredRun, order: WorkOrder) -> AsyncIterator[ServiceTargets]:
    """The targets this worker dials: the spec's, with the services of ``order.serve`` started here on loopback."""
    if not order.serve:
        yield spec.targets
        return
    given = {name: getattr(spec.targets, name) for name in SERVICE_NAMES if name not in order.serve}
    with granted(order.grants):
        async with serving_targets(ServiceAddresses(**given), spec.config.data_dir) as own:
            # the spec's other embedded services (child processes of the coordinator) are dialed in plaintext still
            yield own.model_copy(update={"embedded": own.embedded | (spec.targets.embedded - order.serve)})


class EpisodeWorker:
    """Plays the episodes of run ``run_id`` it leases until none is left."""

    def __init__(
        self,
        store: WorkStore,
        run_id: str,
        owner: str,
        clients: ServiceClients,
        tasks: list[env_pb2.TaskSummary],
        config: RunConfig,
        recorded: dict[str, Any],
        concurrency: int,
        lease_seconds: float = LEASE_SECONDS,
        keep_going: Callable[[], bool] = lambda: True,
        share_permits: bool = False,
    ) -> None:
        """Play run ``run_id``'s episodes as ``owner``.

        ``share_permits``: hold this worker's share of the run's caps in the store (a worker process); else the
        run's limiters are this process's own (or the API server's, within ``shared_limiters``).
        """
        self.store, self.run_id, self.owner, self.clients = store, run_id, owner, clients
        self.config, self.recorded = config, recorded
        self.tasks = {task.task_id: task for task in tasks}
        self.concurrency, self.lease_seconds, self.keep_going = concurrency, lease_seconds, keep_going
        self.batch = max(1, concurrency // 8)  # claim in batches, not one store write per free slot
        self.played = 0
        self.share_permits = share_permits
        self.shares: PermitShares | None = None

    async def run(self) -> None:
        """Play leased episodes until the store has none left; whatever ends it, release what is unfinished."""
        renewing = asyncio.create_task(self._renew())
        beating: asyncio.Task[None] | None = None
        in_flight: set[asyncio.Task[None]] = set()
        try:
            with contextlib.ExitStack() as stack:
                if self.share_permits:
                    stack.enter_context(shared_limiters(SlotLimiters(self.config.provider_limits, self.concurrency)))
                limits = stack.enter_context(provider_limits(self.config, self.concurrency))
                if self.share_permits:
                    self.shares = PermitShares(self.store, self.run_id, self.owner, limits, self.lease_seconds)
                    await self.shares.beat()
                    beating = asyncio.create_task(self.shares.keep_beating())
                await self._play_all(in_flight)
        finally:
            renewing.cancel()
            if beating is not None:
                beating.cancel()
            for task in in_flight:
                task.cancel()
            stopping = [renewing, *in_flight, *([beating] if beating is not None else [])]
            await asyncio.gather(*stopping, return_exceptions=True)
            stats = self.shares.stats() if self.shares is not None else None
            released = await asyncio.to_thread(self.store.release, self.owner, stats)
            if released:
                log.warning("worker %s stopped; %d unfinished episode(s) released", self.owner, released)

    async def _play_all(self, in_flight: set[asyncio.Task[None]]) -> None:
        while True:
            if not self.keep_going():
                log.warning("worker %s: told to stop", self.owner)
                return
            ready = self.shares is None or self.shares.ready
            # without a slot of a capped provider: one episode, so that it counts among the workers sharing the cap
            free = self.concurrency - len(in_flight) if ready else int(not in_flight)
            if free >= self.batch or not in_flight:
                claimed = await asyncio.to_thread(self.store.claim, self.run_id, self.owner, free, self.lease_seconds)
                in_flight.update(asyncio.create_task(self._play(episode)) for episode in claimed)
                if claimed and not ready and self.shares is not None:
                    await self.shares.beat()  # its share now, not at the next beat
            if not in_flight:
                remaining, _ = await asyncio.to_thread(self.store.counts, self.run_id)
                if remaining == 0:
                    return
                await asyncio.sleep(IDLE_POLL_S)  # the rest is leased to others; one of their leases may run out
                continue
            done, _ = await asyncio.wait(in_flight, timeout=IDLE_POLL_S, return_when=asyncio.FIRST_COMPLETED)
            in_flight.difference_update(done)
            for task in done:
                task.result()  # a store that cannot be written ends the worker: another takes its episodes

    async def _play(self, episode: Claimed) -> None:
        result = await play(self.clients, self.config, self.tasks[episode.task_id], episode.trial, self.recorded)
        text = result.model_dump_json()
        stats = self.shares.stats() if self.shares is not None else None
        if await asyncio.to_thread(self.store.complete, self.run_id, self.owner, episode.seq, text, stats):
            self.played += 1
        else:
            log.warning(
                "task %s trial %d: another worker took the episode over; this worker's result is dropped",
                episode.task_id,
                episode.trial,
            )

    async def _renew(self) -> None:
        ttl = self.lease_seconds
        while True:
            await asyncio.sleep(ttl / 3)
            await asyncio.to_thread(self.store.renew, self.owner, ttl)


async def _next_run(store: WorkStore, order: WorkOrder, done: set[str], deadline: float) -> tuple[str, str] | None:
    """(run id, spec) of the next run to play; None once there is none (after ``deadline`` when none was played)."""
    while True:
        if order.run_id is not None:
            spec = None if order.run_id in done else await asyncio.to_thread(store.spec, order.run_id)
            runs = [(order.run_id, spec)] if spec is not None else []
        else:
            runs = [run for run in await asyncio.to_thread(store.open_runs) if run[0] not in done]
        if runs:
            return runs[0]
        if done or time.monotonic() >= deadline:
            return None
        await asyncio.sleep(IDLE_POLL_S)


async def _play_run(store: WorkStore, order: WorkOrder, run_id: str, spec: StoredRun) -> int:
    """Play run ``run_id``'s episodes with the services its spec names; how many this worker recorded."""
    async with worker_targets(spec, order) as targets:
        return await _play_with(store, order, run_id, spec, targets.connect())


async def _play_with(store: WorkStore, order: WorkOrder, run_id: str, spec: StoredRun, clients: ServiceClients) -> int:
    parent = os.getppid()
    token = otel_context.attach(propagate.extract(spec.trace_context))
    try:
        config = spec.config
        assert config.task_split is not None, "the coordinator resolves the split"
        tasks = await list_tasks(clients, config.env, config.task_split, config.rpc_timeout)
        worker = EpisodeWorker(
            store,
            run_id,
            order.owner,
            clients,
            tasks,
            config,
            spec.recorded,
            order.concurrency or config.max_concurrency,
            order.lease_seconds,
            keep_going=(lambda: os.getppid() == parent) if order.watch_parent else (lambda: True),
            share_permits=True,
        )
        await worker.run()
        return worker.played
    finally:
        otel_context.detach(token)
        await clients.close()


async def work(order: WorkOrder) -> int:
    """Join the order's run (or each open run in turn) and play until none is left or a signal says stop.

    Returns how many episodes this worker recorded.
    """
    current = asyncio.current_task()
    assert current is not None
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop, current.cancel)
    store = WorkStore(order.store)
    played = 0
    try:
        await asyncio.to_thread(store.create_tables)
        deadline = time.monotonic() + order.wait_seconds
        done: set[str] = set()
        while (found := await _next_run(store, order, done, deadline)) is not None:
            run_id, text = found
            log.info("worker %s joins run %s", order.owner, run_id)
            played += await _play_run(store, order, run_id, StoredRun.model_validate_json(text))
            done.add(run_id)
    finally:
        store.close()
    return played


def main() -> None:
    """Read the work order from stdin and work; exit 0 when done, 143 when stopped by a signal."""
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    atexit.register(gc.freeze)  # no final full collection over litellm's and the domain's heap (2 s at exit here)
    order = WorkOrder.model_validate_json(sys.stdin.buffer.read())
    setup_telemetry("orchestrator", order.otlp_endpoint)
    try:
        run_loop(work(order))
    except asyncio.CancelledError:
        sys.exit(128 + signal.SIGTERM)
    finally:
        with contextlib.suppress(Exception):
            shutdown_telemetry()


if __name__ == "__main__":
    main()
