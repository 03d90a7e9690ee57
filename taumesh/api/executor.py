"""Plays stored runs through the orchestrator, one lease-holding worker per run.

The executor claims a run's lease in the one work store (:mod:`taumesh.orchestrator.scale.work_store`, its tables in the
API's database), writes the run's missing episodes there and plays them with an
:class:`~taumesh.orchestrator.scale.worker.EpisodeWorker`, as ``taumesh run --workers``'s workers do: each episode
leased, renewed while it plays, recorded once. It moves each recorded result into ``results`` with a progress
event, and renews the run's lease while it works.

Each uvicorn worker has one executor. Runs left unfinished by a stopped or crashed worker are taken over once
their lease expires (at once after a graceful stop, which releases it): the results already recorded are kept and
the unique (run, task, trial) key makes a duplicate impossible.

Runs are traced as ``taumesh run`` traces them, on the telemetry service the executor is given (the API's
``orchestrator``): a ``taumesh run`` span (a child of the HTTP request's span when the request waits for the run),
and one trace per episode linked to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import grpc

from taumesh.api.schemas import CostBreakdown, Metrics, ScoreInterval
from taumesh.api.settings import ApiSettings
from taumesh.api.store import Store
from taumesh.api.tables import ResultRow
from taumesh.api.telemetry import API_RUN_ID, ORCHESTRATOR_SERVICE
from taumesh.api.viewer_link import write_results
from taumesh.env.v1 import env_pb2
from taumesh.llm.limiter import ProviderLimiters
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import ConfigError, served_domain, served_release
from taumesh.orchestrator.provider_limits import shared_limiters
from taumesh.orchestrator.results.layout_statistics import LayoutStatistics, layout_statistics
from taumesh.orchestrator.results.records import RunResult, results_task_id, run_fingerprint
from taumesh.orchestrator.results.validity import run_validity
from taumesh.orchestrator.run.runner import (
    compute_pass_hat_k,
    describe_agent,
    gradable_tasks,
    plan_episodes,
    resolve_tasks,
    run_record,
    run_tasks,
)
from taumesh.orchestrator.run.stack import service_stack
from taumesh.orchestrator.scale.worker import EpisodeWorker
from taumesh.orchestrator.tracing import run_ended, run_span
from taumesh.stats import is_success
from taumesh.telemetry import ServiceTelemetry, activate, current

log = logging.getLogger(__name__)
RECORD_POLL_S = 0.25
"""How often a run's recorded results are moved from the work store into ``results`` (and its events)."""
SERVER_CEILING = 1000
"""A provider's window where the operator set no cap (it narrows on 429s): more than a server plays at once."""


def as_run_result(row: ResultRow) -> RunResult:
    """A stored row as the orchestrator's result record."""
    return RunResult(task_id=row.task_id, reward=row.reward, info=row.info, traj=row.traj, trial=row.trial)


def statistics_fields(statistics: LayoutStatistics) -> dict[str, Any]:
    """The metrics' intervals, flipping tasks and full cost (taumesh's additive fields)."""
    cost = statistics.cost
    fields: dict[str, Any] = {
        "cost": CostBreakdown(
            agent_usd=cost.agent,
            user_usd=cost.user,
            judge_usd=cost.judge,
            total_usd=cost.total,
            interrupted_usd=cost.interrupted,
            scored_episodes=cost.episodes,
            solved_episodes=cost.solved,
            per_task_usd=cost.per_task,
            per_solved_task_usd=cost.per_solved_task,
        )
    }
    uncertainty = statistics.uncertainty
    if uncertainty is not None:
        fields["pass_hat_k_intervals"] = {
            k: ScoreInterval.model_validate(i.model_dump()) for k, i in uncertainty.pass_hat_k.items()
        }
        fields["average_reward_interval"] = ScoreInterval.model_validate(uncertainty.average_reward.model_dump())
        fields["flipping_tasks"] = uncertainty.flipping_tasks
    return fields


def run_metrics(
    outcomes: Iterable[tuple[str, float | None, float]],
    pass_hat_k: dict[int, float],
    average: float | None,
    statistics: LayoutStatistics | None = None,
) -> Metrics:
    """The REST fork's metrics over a run's (task id, reward, cost) episodes, with pass^k and spend.

    As the fork documents them, the counts are of tasks: a task succeeds when every one of its trials scored 1.0.
    The episodes' counts are beside them, and ``statistics`` adds the intervals and the full cost.
    """
    triples = list(outcomes)
    passed: dict[str, bool] = {}
    for task_id, reward, _ in triples:
        passed[task_id] = passed.get(task_id, True) and reward is not None and is_success(reward)
    successes = sum(passed.values())
    return Metrics(
        total_tasks=len(passed),
        successful_tasks=successes,
        failed_tasks=len(passed) - successes,
        success_rate=successes / len(passed) if passed else 0.0,
        total_episodes=len(triples),
        successful_episodes=sum(1 for _, reward, _ in triples if reward is not None and is_success(reward)),
        average_reward=average,
        pass_hat_k={str(k): v for k, v in pass_hat_k.items()},
        cost_usd=round(sum(cost for _, _, cost in triples), 6),
        **(statistics_fields(statistics) if statistics is not None else {}),
    )


class RunExecutor:
    """Plays the runs this worker holds the lease of; looks for claimable runs every ``poll_seconds``.

    ``telemetry`` records the runs' spans and metrics (default: the process's ``orchestrator`` service).
    """

    def __init__(
        self, store: Store, settings: ApiSettings, clients: ServiceClients, telemetry: ServiceTelemetry | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.clients = clients
        self.telemetry = telemetry or current().service(ORCHESTRATOR_SERVICE)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.running: dict[str, asyncio.Task[None]] = {}
        self.wakeup = asyncio.Event()
        self.limiters = ProviderLimiters(settings.provider_limit, SERVER_CEILING)
        """The operator's caps per provider, shared by every run this process plays."""

    async def poll_forever(self) -> None:
        """Claim and start every run whose lease is free or expired, until cancelled."""
        while True:
            try:
                for run_id in self.store.claimable(self.owner):
                    if run_id not in self.running and self.store.claim(run_id, self.owner, self.settings.lease_seconds):
                        self.start(run_id)
            except Exception:  # a database hiccup must not end the loop
                log.exception("looking for runs to play failed")
            self.wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wakeup.wait(), self.settings.poll_seconds)

    def start(self, run_id: str) -> asyncio.Task[None]:
        """Play a run this worker has claimed (idempotent: the task already playing it, if any)."""
        if run_id not in self.running:
            task = asyncio.create_task(self._execute(run_id), name=f"run {run_id}")
            self.running[run_id] = task
            task.add_done_callback(lambda _: self.running.pop(run_id, None))
        return self.running[run_id]

    async def stop(self) -> None:
        """Stop playing and release every lease, so that the next start resumes at once."""
        tasks = list(self.running.items())
        for _, task in tasks:
            task.cancel()
        for run_id, task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            self.store.release(run_id, self.owner)

    async def _keep_lease(self, run_id: str, work: asyncio.Task[Any]) -> None:
        """Renew the lease every third of its length; cancel ``work`` once it is lost (cancelled, taken over)."""
        while True:
            await asyncio.sleep(self.settings.lease_seconds / 3)
            if not self.store.renew(run_id, self.owner, self.settings.lease_seconds):
                log.info("run %s: lease lost or run cancelled; stopping", run_id)
                work.cancel()
                return

    async def _execute(self, run_id: str) -> None:
        work = asyncio.current_task()
        assert work is not None
        keeper = asyncio.create_task(self._keep_lease(run_id, work))
        try:
            with activate(self.telemetry):
                await self._play_run(run_id)
        except asyncio.CancelledError:
            raise
        except (ConfigError, grpc.aio.AioRpcError) as exc:
            message = str(exc) if isinstance(exc, ConfigError) else f"{exc.code().name}: {exc.details()}"
            self._end(run_id, "failed", error=message)
        except Exception:
            log.exception("run %s failed", run_id)
            self._end(run_id, "failed", error="internal error; the server log has the details")
        finally:
            keeper.cancel()

    def _end(self, run_id: str, status: str, metrics: Metrics | None = None, error: str | None = None) -> None:
        dumped = metrics.model_dump() if metrics else None
        if self.store.finish(run_id, self.owner, status, dumped, error):
            self.store.add_event(run_id, f"run_{status}", {"status": status, "metrics": dumped, "error": error})

    @asynccontextmanager
    async def _clients_for(self, config: RunConfig) -> AsyncIterator[ServiceClients]:
        """The worker's shared services, or a stack of its own for a run with an external agent."""
        if config.addresses.agent is None or config.addresses.agent == self.settings.agent_addr:
            yield self.clients
            return
        async with service_stack(config.addresses, config.data_dir, self.telemetry) as clients:
            yield clients

    async def _play_run(self, run_id: str) -> None:
        row = self.store.get_run(run_id)
        assert row is not None
        config = RunConfig.model_validate(row.config)
        with run_span(config) as span:
            span.set_attribute(API_RUN_ID, run_id)
            results, metrics = await self._play_episodes(run_id, config)
            errors = sum(1 for result in results if result.reward is None)
            run_ended(span, len(results) - errors, errors, metrics.average_reward)
            try:  # before the run reads as completed, so that its viewer link works at once
                await asyncio.to_thread(write_results, self.settings, run_id, results)
            except OSError:  # the results stay in the database: the run is not lost for want of a file
                log.exception("run %s: writing its results file failed", run_id)
        self._end(run_id, "completed", metrics)

    async def _play_episodes(self, run_id: str, config: RunConfig) -> tuple[list[RunResult], Metrics]:
        """Play the run's missing episodes; every stored result and the run's metrics."""
        async with self._clients_for(config) as clients:
            config, tasks = await resolve_tasks(clients, config)
            release = served_release(await served_domain(clients, config))
            indices = run_tasks(config, tasks, release)
            indices, excluded = await gradable_tasks(clients, config, tasks, indices)
            plan = plan_episodes(config, indices)
            self.store.set_total(run_id, len(plan))
            agent = await describe_agent(clients, config)
            recorded = run_record(config, agent, run_fingerprint(config, agent, release), excluded)
            await self._plan(run_id, tasks, plan)
            worker = EpisodeWorker(
                self.store.work,
                run_id,
                f"{self.owner}:{run_id}",  # its own lease owner per run: one run's end releases none of another's
                clients,
                tasks,
                config,
                recorded,
                config.max_concurrency,
                self.settings.lease_seconds,
            )
            with shared_limiters(self.limiters):
                await self._record_while(worker, run_id, len(plan))
            results = [as_run_result(r) for r in self.store.results(run_id)]
            pass_k, average = await compute_pass_hat_k(clients, config, results)
        statistics = await asyncio.to_thread(layout_statistics, results)  # resampling: off the event loop
        metrics = run_metrics(self.store.outcomes(run_id), pass_k, average, statistics)
        metrics.validity = run_validity(results)  # beside the score: the stored audit's view of the tasks run
        return results, metrics

    async def _plan(self, run_id: str, tasks: list[env_pb2.TaskSummary], plan: list[tuple[int, int]]) -> None:
        """Write the run's episodes into the work store, those already in ``results`` left out (a resumed run)."""
        work = self.store.work
        if await asyncio.to_thread(work.has_plan, run_id):
            return  # a predecessor wrote it: its recorded episodes stay recorded, its leased ones run out
        stored = {(r.task_id, r.trial) for r in self.store.results(run_id)}
        missing = [(tasks[i].task_id, t) for i, t in plan if (str(results_task_id(tasks[i].task_id)), t) not in stored]
        if stored:
            log.info("run %s: resuming, %d of %d episodes stored", run_id, len(stored), len(plan))
        await asyncio.to_thread(work.add_run, run_id, missing)

    async def _record_while(self, worker: EpisodeWorker, run_id: str, total: int) -> None:
        """Play the run's episodes with ``worker``, moving each recorded result into ``results`` as it comes."""
        playing = asyncio.create_task(worker.run())
        cursor = 0
        try:
            while not playing.done():
                cursor = await self._record(run_id, cursor, total)
                await asyncio.wait({playing}, timeout=RECORD_POLL_S)
            playing.result()
            await self._record(run_id, cursor, total)
        finally:
            if not playing.done():
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)

    async def _record(self, run_id: str, cursor: int, total: int) -> int:
        """Store the results recorded after the ``cursor``-th, each once; the new cursor."""
        for finished in await asyncio.to_thread(self.store.work.finished_after, run_id, cursor):
            cursor = finished.finished
            result = RunResult.model_validate_json(finished.result)
            if self.store.add_result(run_id, result):
                self._progress(run_id, result, total)
        return cursor

    def _progress(self, run_id: str, result: RunResult, total: int) -> None:
        pairs = self.store.rewards_and_costs(run_id)
        scored = [reward for reward, _ in pairs if reward is not None]
        self.store.add_event(
            run_id,
            "episode_done",
            {
                "task_id": str(result.task_id),
                "trial": result.trial,
                "reward": result.reward,
                "done": len(pairs),
                "total": total,
                "pass_rate": sum(1 for r in scored if is_success(r)) / len(scored) if scored else None,
                "cost_usd": round(sum(cost for _, cost in pairs), 6),
            },
        )
