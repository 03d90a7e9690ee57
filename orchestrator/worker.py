"""One worker process of ``taumesh run --workers N``: leases episodes from the run's work store and plays them.

Started by the coordinator (:mod:`taumesh.orchestrator.scale_out`) as ``python -m taumesh.orchestrator.worker``,
with its :class:`WorkOrder` as JSON on stdin (never on the command line, where any user of the machine could
read it). It plays up to ``concurrency`` episodes at a time with :func:`~taumesh.orchestrator.runner.play`,
takes new ones in batches as slots free up, renews its leases while it works, and records each result only while
the episode is still its own (:meth:`WorkStore.complete`). It exits 0 once no episode is left, and stops (its
leases released) on SIGTERM or SIGINT, or when the coordinator that started it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import propagate
from pydantic import BaseModel, Field

from taumesh.env.v1 import env_pb2
from taumesh.orchestrator.clients import ServiceClients, list_tasks
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.provider_limits import worker_limits
from taumesh.orchestrator.runner import play
from taumesh.orchestrator.stack import ServiceTargets
from taumesh.orchestrator.work_store import Claimed, WorkStore
from taumesh.rpc.loop import run as run_loop

log = logging.getLogger(__name__)

LEASE_SECONDS = 60.0
"""How long a lease lasts unless renewed (every third of it): what a hung worker costs before its episodes move."""
IDLE_POLL_S = 0.5
"""How often a worker with free slots looks for episodes again (another worker's lease may have run out)."""


class WorkOrder(BaseModel):
    """What a worker is told: the run, the services, the store, who it is and how many episodes it may play."""

    config: RunConfig
    """The run's configuration, its split resolved."""
    targets: ServiceTargets
    recorded: dict[str, Any]
    """Added to each result's ``info`` (the run's fingerprint, the external agent)."""
    store: Path
    owner: str = Field(min_length=1)
    """This worker's lease owner id, unique within the run."""
    concurrency: int = Field(ge=1)
    lease_seconds: float = Field(default=LEASE_SECONDS, gt=0)
    trace_context: dict[str, str] = Field(default_factory=dict)
    """The run span's W3C trace context, which the episodes' traces link to as a single process's do."""


class Worker:
    """Plays the episodes it leases until none is left."""

    def __init__(
        self, order: WorkOrder, clients: ServiceClients, tasks: list[env_pb2.TaskSummary], store: WorkStore
    ) -> None:
        self.order, self.clients, self.store = order, clients, store
        self.tasks = {task.task_id: task for task in tasks}
        self.parent = os.getppid()
        self.batch = max(1, order.concurrency // 8)  # claim in batches, not one store write per free slot

    async def run(self) -> None:
        """Play leased episodes until the store has none left; whatever ends it, release what is unfinished."""
        renewing = asyncio.create_task(self._renew())
        in_flight: set[asyncio.Task[None]] = set()
        try:
            with worker_limits(self.order.config, self.order.concurrency):  # its share of --provider-limit
                await self._play_all(in_flight)
        finally:
            renewing.cancel()
            for task in in_flight:
                task.cancel()
            await asyncio.gather(renewing, *in_flight, return_exceptions=True)
            released = self.store.release(self.order.owner)
            if released:
                log.warning("worker %s stopped; %d unfinished episode(s) released", self.order.owner, released)

    async def _play_all(self, in_flight: set[asyncio.Task[None]]) -> None:
        order = self.order
        while True:
            if os.getppid() != self.parent:
                log.warning("worker %s: the coordinator is gone; stopping", order.owner)
                return
            free = order.concurrency - len(in_flight)
            if free >= self.batch or not in_flight:
                claimed = await asyncio.to_thread(self.store.claim, order.owner, free, order.lease_seconds)
                in_flight.update(asyncio.create_task(self._play(episode)) for episode in claimed)
            if not in_flight:
                remaining, _ = await asyncio.to_thread(self.store.counts)
                if remaining == 0:
                    return
                await asyncio.sleep(IDLE_POLL_S)  # the rest is leased to others; one of their leases may run out
                continue
            done, _ = await asyncio.wait(in_flight, timeout=IDLE_POLL_S, return_when=asyncio.FIRST_COMPLETED)
            in_flight.difference_update(done)
            for task in done:
                task.result()  # a store that cannot be written ends the worker: the coordinator replaces it

    async def _play(self, episode: Claimed) -> None:
        order = self.order
        result = await play(self.clients, order.config, self.tasks[episode.task_id], episode.trial, order.recorded)
        text = result.model_dump_json()
        if not await asyncio.to_thread(self.store.complete, order.owner, episode.seq, text):
            log.warning(
                "task %s trial %d: another worker took the episode over; this worker's result is dropped",
                episode.task_id,
                episode.trial,
            )

    async def _renew(self) -> None:
        ttl = self.order.lease_seconds
        while True:
            await asyncio.sleep(ttl / 3)
            await asyncio.to_thread(self.store.renew, self.order.owner, ttl)


async def work(order: WorkOrder) -> None:
    """Connect to the services and the store, and play until no episode is left or a signal says stop."""
    current = asyncio.current_task()
    assert current is not None
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop, current.cancel)
    store = WorkStore(order.store)
    clients = order.targets.connect()
    otel_context.attach(propagate.extract(order.trace_context))
    try:
        config = order.config
        assert config.task_split is not None, "the coordinator resolves the split"
        tasks = await list_tasks(clients, config.env, config.task_split, config.rpc_timeout)
        await Worker(order, clients, tasks, store).run()
    finally:
        await clients.close()
        store.close()


def main() -> None:
    """Read the work order from stdin and work; exit 0 when done, 143 when stopped by a signal."""
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    order = WorkOrder.model_validate_json(sys.stdin.buffer.read())
    setup_telemetry("orchestrator", order.config.otlp_endpoint)
    try:
        run_loop(work(order))
    except asyncio.CancelledError:
        sys.exit(128 + signal.SIGTERM)
    finally:
        with contextlib.suppress(Exception):
            shutdown_telemetry()


if __name__ == "__main__":
    main()
