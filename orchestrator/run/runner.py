"""Runs tasks × trials with bounded concurrency, retries infrastructure faults, writes results."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import grpc
from pydantic import BaseModel
from rich.console import Console
from tenacity import wait_exponential_jitter

from taumesh.agent.v1 import agent_pb2
from taumesh.audit import NoStoredAudit
from taumesh.env.v1 import env_pb2
from taumesh.models import TaskRef, Usage
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import (
    ServiceClients,
    is_infrastructure_fault,
    list_tasks,
    with_retries,
)
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import (
    ConfigError,
    DomainNotRunnable,
    resolve_domain,
    served_domain,
    served_release,
)
from taumesh.orchestrator.episode.grading import strict_exclusions
from taumesh.orchestrator.episode.open_sessions import OpenSessions, tracking
from taumesh.orchestrator.episode.turn_loop import EpisodeInterrupted, EpisodeOutcome, run_episode
from taumesh.orchestrator.results.names import results_filename
from taumesh.orchestrator.results.outputs import write_outputs
from taumesh.orchestrator.results.records import (
    ATTEMPTS,
    DATA_RELEASE,
    AgentIdentity,
    EpisodeError,
    EpisodeKey,
    ErrorKind,
    RunResult,
    fingerprint_differences,
    results_task_id,
    run_fingerprint,
    validity_record,
)
from taumesh.orchestrator.results.results_file import ResultsFile, claim_results_path, load_results
from taumesh.orchestrator.results.tau2_layout import fetch_tau2_tasks
from taumesh.orchestrator.run.certified import NothingCertified, certified_indices
from taumesh.orchestrator.run.data_check import REFUSALS, DataUnreadable, check_domain_data
from taumesh.orchestrator.run.interrupt import until_stopped
from taumesh.orchestrator.run.progress import RunProgress
from taumesh.orchestrator.run.stack import service_stack
from taumesh.rpc.errors import DOMAIN_NOT_RUNNABLE_REASON, clip, error_reason
from taumesh.scorer.v1 import scorer_pb2
from taumesh.simulators import simulator_version
from taumesh.telemetry import scrub

log = logging.getLogger(__name__)


def trial_seeds(seed: int, num_trials: int) -> list[int]:
    """τ²'s per-trial seeds (its run.py): ``random.seed(seed)``, then one ``randint(0, 1000000)`` per trial."""
    rng = random.Random(seed)
    return [rng.randint(0, 1_000_000) for _ in range(num_trials)]


def seed_for(run_seed: int, task_id: str, trial: int) -> int:
    """An episode's seed under ``episode_seeds="sha256"``: its run's seed, task id and trial, hashed.

    The first 8 bytes of ``sha256(f"{run_seed}:{task_id}:{trial}")``, big-endian, modulo 2**31. Each episode's
    seed is independent of which other tasks and trials the run plays, so a run's seed reproduces every episode's.
    """
    digest = hashlib.sha256(f"{run_seed}:{task_id}:{trial}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2**31


def episode_seed(config: RunConfig, task_id: str, trial: int) -> int:
    """The seed an episode plays with: :func:`seed_for`'s under ``episode_seeds="sha256"``, else its benchmark's.

    The benchmark's: τ²'s per-trial seeds where the domain derives them, the run's seed otherwise.
    """
    limits = config.limits
    if config.episode_seeds == "sha256":
        return seed_for(limits.seed, task_id, trial)
    return trial_seeds(limits.seed, trial + 1)[trial] if limits.per_trial_seeds else limits.seed


EpisodeListener = Callable[[RunResult], Awaitable[None]]
"""Awaited with each episode's result as it ends (:func:`handing_over`)."""
_episode_listener: ContextVar[EpisodeListener | None] = ContextVar("taumesh_episode_listener", default=None)


@contextlib.contextmanager
def handing_over(listener: EpisodeListener) -> Iterator[None]:
    """Within it, a run this process plays (:func:`run_here`) awaits ``listener`` with each episode's result.

    It is awaited as the episode ends, before the episode's slot of ``max_concurrency`` is freed: a listener that
    waits holds the run back. The Python rollout API's streaming (:mod:`taumesh.rollout`); ``taumesh run`` sets
    none. Runs played by worker processes (``workers`` other than 1) do not call it.
    """
    token = _episode_listener.set(listener)
    try:
        yield
    finally:
        _episode_listener.reset(token)


def with_seed(config: RunConfig, seed: int) -> RunConfig:
    """``config`` whose agent and user models get ``seed`` (τ² passes each trial's seed to both LLMs).

    A rollout's seeds (``episode_seeds="sha256"``) go with every model request whatever the domain's benchmark does:
    a trainer reproduces a group's sampling with them.
    """
    seeded: dict[str, object] = {"seed": seed}
    if config.episode_seeds == "sha256":
        seeded["send_seed"] = True
    agent = config.agent.model_copy(update={"model": config.agent.model.model_copy(update=seeded)})
    user = config.user.model_copy(update={"model": config.user.model.model_copy(update=seeded)})
    return config.model_copy(update={"agent": agent, "user": user})


class WorkersFailed(Exception):
    """Every worker process of a ``--workers N`` run died and no restart was left: the run cannot go on."""


class RunSummary(BaseModel):
    """What a run produced."""

    results_path: Path
    results: list[RunResult]
    pass_hat_k: dict[int, float]
    average_reward: float | None
    excluded: dict[str, str] = {}
    """Under ``--grader strict``: the selected tasks left unplayed because their gold errors, with why."""

    @property
    def errors(self) -> list[RunResult]:
        return [r for r in self.results if r.is_error]

    @property
    def scored(self) -> list[RunResult]:
        return [r for r in self.results if not r.is_error]


def select_tasks(config: RunConfig, split_ids: Sequence[str]) -> list[int]:
    """The task indices to run, as τ-bench v1's run.py picks them (``--task-ids`` wins over the range).

    ``split_ids`` are the split's task ids, in order. A given integer is an index in the split (τ-bench v1's
    ``--task-ids``, the REST API's); a given text is a task id of the split (τ²'s ``--task-ids task_001``), or,
    when no task has that id and it is a whole number, the index it spells (so ``--task-ids 3`` keeps meaning the
    fourth task where ids are not numbers).
    """
    task_count = len(split_ids)
    if config.task_ids:
        indices = _task_indices(config, split_ids)
        repeated = sorted(i for i, n in Counter(indices).items() if n > 1)
        if repeated:  # a run plays each task once per trial: more trials are --num-trials
            named = [split_ids[i] if split_ids[i] != str(i) else i for i in repeated]
            raise ConfigError(f"task ids {named} are given more than once; use --num-trials for more trials")
        return indices
    end = task_count if config.end_index == -1 else min(config.end_index, task_count)
    if not 0 <= config.start_index < max(end, 1):
        raise ConfigError(f"start index {config.start_index} is outside 0..{end - 1}")
    if end <= config.start_index:
        raise ConfigError(f"--start-index {config.start_index} and --end-index {config.end_index} select no task")
    return list(range(config.start_index, end))


def run_tasks(config: RunConfig, tasks: Sequence[env_pb2.TaskSummary], release: str) -> list[int]:
    """The indices of the tasks the run plays: :func:`select_tasks`'s, certified ones only with ``--tasks certified``.

    Certified: the stored audit of the data (``release``: the env's ``DomainInfo.data_release``) flags nothing on it.

    ConfigError when no audit of this data is stored (it names ``taumesh domain audit … --write``) or it flags every
    selected task.
    """
    indices = select_tasks(config, [task.task_id for task in tasks])
    if config.tasks != "certified":
        return indices
    try:
        return certified_indices(config, tasks, indices, release)
    except (NoStoredAudit, NothingCertified) as exc:
        raise ConfigError(str(exc)) from exc


async def gradable_tasks(
    clients: ServiceClients, config: RunConfig, tasks: Sequence[env_pb2.TaskSummary], indices: Sequence[int]
) -> tuple[list[int], dict[str, str]]:
    """``indices`` without the tasks the strict grader leaves out (their gold errors), and those with why.

    ConfigError when it leaves out every selected task: the run would play nothing.
    """
    excluded = await strict_exclusions(clients, config, tasks, indices)
    kept = [index for index in indices if tasks[index].task_id not in excluded]
    if indices and not kept:
        raise ConfigError(
            f"the strict grader leaves out all {len(indices)} selected tasks of {config.env} {config.task_split}, "
            f"their gold errors in replay ({'; '.join(list(excluded.values())[:3])})"
        )
    return kept, excluded


SHOWN_IDS = 5
"""Known task ids an unknown one's error names."""


def _task_indices(config: RunConfig, split_ids: Sequence[str]) -> list[int]:
    """The indices ``config.task_ids`` name in the split (see :func:`select_tasks`); ConfigError for one it lacks."""
    position = {task_id: i for i, task_id in enumerate(split_ids)}
    indices: list[int] = []
    outside: list[int] = []
    unknown: list[str] = []
    for given in config.task_ids or ():
        if isinstance(given, str) and given in position:
            indices.append(position[given])
            continue
        index = given if isinstance(given, int) else _whole_number(given)
        if index is None:
            unknown.append(str(given))
        elif 0 <= index < len(split_ids):
            indices.append(index)
        else:
            outside.append(index)
    if unknown:
        shown = ", ".join(split_ids[:SHOWN_IDS]) + (", …" if len(split_ids) > SHOWN_IDS else "")
        raise ConfigError(
            f"task ids {unknown} name no task of {config.env} {config.task_split} "
            f"(its {len(split_ids)} task ids: {shown}; or an index 0..{len(split_ids) - 1})"
        )
    if outside:
        raise ConfigError(f"task ids {outside} are outside 0..{len(split_ids) - 1}")
    return indices


def _whole_number(text: str) -> int | None:
    """``text`` as an integer when it spells one (``-1`` too, so it is refused as outside the split)."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def plan_episodes(config: RunConfig, indices: list[int]) -> list[tuple[int, int]]:
    """(task index, trial) pairs, trial by trial, in τ-bench v1's order.

    As τ-bench's run.py does with ``random.seed(seed)`` once: with ``--shuffle`` each trial shuffles its task
    list; a range gives each trial a fresh list, while ``--task-ids`` is one list shuffled in place again and
    again, so each trial starts from the previous trial's order.
    """
    rng = random.Random(config.limits.seed)
    plan: list[tuple[int, int]] = []
    task_ids = list(indices)
    for trial in range(config.num_trials):
        order = task_ids if config.task_ids else list(indices)
        if config.shuffle:
            rng.shuffle(order)
        plan += [(index, trial) for index in order]
    return plan


EPISODE_RETRY_WAIT = wait_exponential_jitter(multiplier=5.0, max=60.0, jitter=1.0)
"""Wait before replaying an episode the infrastructure failed: 5-6 s, then 10-11 s, … at most 61 s (τ-bench's
retried tasks wait 5 s, then 10 s, …). So a service that restarts within seconds, and the few seconds a gRPC
channel takes to reconnect to it, cost a replay, not an error entry."""


async def play(
    clients: ServiceClients,
    config: RunConfig,
    summary: env_pb2.TaskSummary,
    trial: int,
    recorded: dict[str, Any] | None = None,
) -> RunResult:
    """One episode, attempted up to ``max_episode_attempts`` times (with backoff) while the infrastructure fails it.

    Whatever goes wrong stays in this episode: a fault the retries do not cure, a refused request, or an
    unexpected exception becomes the episode's error entry. ``recorded`` is added to the result's ``info``.
    All attempts share one trace; the result records its id (``info.trace_id``) when tracing is on.
    """
    seed = episode_seed(config, summary.task_id, trial)
    if config.limits.per_trial_seeds or config.episode_seeds != "benchmark":
        config = with_seed(config, seed)
    assert config.task_split is not None, "the run resolves its split before playing"
    task = TaskRef(domain=config.env, split=config.task_split, task_id=summary.task_id)
    task_id = results_task_id(summary.task_id)
    attempt = 0
    lost_agent, lost_user = Usage(), Usage()  # spent by attempts the infrastructure cut short
    with tracing.episode_span(config, task, trial) as episode:

        async def attempt_episode() -> EpisodeOutcome:
            nonlocal attempt, lost_agent, lost_user
            attempt += 1
            try:
                return await run_episode(clients, config, task, trial)
            except EpisodeInterrupted as interrupted:
                lost_agent += interrupted.agent_usage
                lost_user += interrupted.user_usage
                log.warning("task %s trial %d attempt %d: %s", task_id, trial, attempt, _cause(interrupted))
                final = not _replayable(interrupted) or attempt >= config.max_episode_attempts
                episode.attempt_failed(interrupted.error, attempt, final=final)
                raise

        try:
            outcome = await with_retries(
                attempt_episode, config.max_episode_attempts, retry=_replayable, wait=EPISODE_RETRY_WAIT
            )
            result = RunResult.from_outcome(outcome, summary.instruction, summary.user_id)
            episode.scored(
                reward=outcome.reward,
                termination=outcome.termination,
                steps=outcome.steps,
                episode_id=outcome.episode_id,
                attempts=attempt,
                agent_usage=outcome.agent_usage,
                user_usage=outcome.user_usage,
            )
        except EpisodeInterrupted as interrupted:
            kind: ErrorKind = "infrastructure" if _replayable(interrupted) else "refused_request"
            result = RunResult.from_error(
                task_id, trial, EpisodeError(kind=kind, cause=_cause(interrupted), attempts=attempt)
            )
        except Exception as exc:  # a bug of ours must cost one episode, never the run
            log.exception("task %s trial %d: unexpected error", task_id, trial)
            cause = scrub(clip(f"{type(exc).__name__}: {exc}", 1000))
            result = RunResult.from_error(task_id, trial, EpisodeError(kind="internal", cause=cause, attempts=attempt))
        result.info.update(recorded or {})
        result.info["seed"] = seed
        if config.episode_seeds != "benchmark":  # only then: taumesh run's results stay as they were
            result.info["episode_seeds"] = config.episode_seeds
        result.info["user_sim_version"] = simulator_version(config.user)
        if config.gateway and "episode_id" in result.info:  # its agent calls' traces, at the gateway (docs/gateway.md)
            result.info["rollout_id"] = result.info["episode_id"]
        if attempt > 1 and not result.is_error:  # replayed whole after a fault: on record (an error has its own)
            result.info[ATTEMPTS] = attempt
        if lost_agent.calls or lost_user.calls:
            result.info["interrupted_attempts_usage"] = {
                "agent": lost_agent.model_dump(),
                "user": lost_user.model_dump(),
            }
        if episode.trace_id:
            result.info["trace_id"] = episode.trace_id
    return result


def _replayable(exc: BaseException) -> bool:
    """An attempt the infrastructure cut short (a lost env session included): replaying the episode may succeed.

    A request the services refused will be refused again.
    """
    if not isinstance(exc, EpisodeInterrupted):
        return False
    return is_infrastructure_fault(exc.error) or error_reason(exc.error) == "SESSION_NOT_FOUND"


def _cause(interrupted: EpisodeInterrupted) -> str:
    return scrub(f"{interrupted.error.code().name}: {interrupted.error.details()}")


async def describe_agent(clients: ServiceClients, config: RunConfig) -> AgentIdentity | None:
    """The external agent (``--agent-addr``) as it describes itself; None for the built-in agent.

    An agent without Describe (UNIMPLEMENTED) or that cannot answer it is known by its address only.
    """
    address = config.addresses.agent
    if address is None:
        return None
    try:
        described: agent_pb2.DescribeResponse = await with_retries(
            lambda: clients.agent.Describe(agent_pb2.DescribeRequest(), timeout=config.rpc_timeout)
        )
    except grpc.aio.AioRpcError as exc:
        if exc.code() != grpc.StatusCode.UNIMPLEMENTED:
            log.warning("the agent at %s did not describe itself: %s", address, exc.code().name)
        return AgentIdentity(address=address)
    return AgentIdentity(
        address=address,
        name=clip(described.name, 64),
        version=clip(described.version, 200),
        description=clip(described.description, 1000),
    )


def check_fingerprint(
    path: Path, existing: list[RunResult], fingerprint: dict[str, Any], allow_release_change: bool = False
) -> None:
    """Refuse to continue a results file that another run wrote, or one played on another release of the data.

    Another env, split, agent, model or user is refused; another release of the domain's data too, unless
    ``allow_release_change``.

    Entries without a fingerprint (τ-bench's own files, or older ones) are taken as they are.
    """
    for result in existing:
        recorded = result.info.get("run")
        if not isinstance(recorded, dict):
            continue
        if allow_release_change:
            recorded = {k: v for k, v in recorded.items() if k != DATA_RELEASE}
            fingerprint = {k: v for k, v in fingerprint.items() if k != DATA_RELEASE}
        differences = fingerprint_differences(recorded, fingerprint)
        if differences:
            releases = any(d.startswith(DATA_RELEASE) for d in differences)
            hint = " (--allow-release-change mixes them)" if releases else ""
            raise ConfigError(f"{path} was written by a different run; " + "; ".join(differences) + hint)


def existing_results(path: Path) -> list[RunResult]:
    """The results file to continue, or a ConfigError saying why it cannot be read."""
    try:
        return load_results(path)
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such results file") from exc
    except IsADirectoryError as exc:
        raise ConfigError(f"{path} is a directory, not a results file") from exc
    except OSError as exc:
        raise ConfigError(f"{path} cannot be read: {exc.strerror or exc}") from exc
    except ValueError as exc:  # also JSON and validation errors
        raise ConfigError(f"{path} is not a results file: {exc}") from exc


async def compute_pass_hat_k(
    clients: ServiceClients, config: RunConfig, results: Iterable[RunResult]
) -> tuple[dict[int, float], float | None]:
    """pass^k over the scored results, by the scorer service."""
    outcomes = [
        scorer_pb2.TrialOutcome(task_id=str(r.task_id), trial=r.trial, reward=r.reward)
        for r in results
        if r.reward is not None and not r.is_error
    ]
    if not outcomes:
        return {}, None
    response: scorer_pb2.ComputePassHatKResponse = await with_retries(
        lambda: clients.scorer.ComputePassHatK(
            scorer_pb2.ComputePassHatKRequest(outcomes=outcomes), timeout=config.rpc_timeout
        )
    )
    return {v.k: v.value for v in response.values}, response.average_reward


async def resolve_tasks(clients: ServiceClients, config: RunConfig) -> tuple[RunConfig, list[env_pb2.TaskSummary]]:
    """The run resolved against its domain (:func:`resolve_domain`) and its split's tasks, in order.

    An unknown domain or split is the run's configuration's fault: :class:`ConfigError`; a domain the env cannot
    run where it is, :class:`DomainNotRunnable`.
    """
    try:
        config, _ = await resolve_domain(clients, config)
        assert config.task_split is not None, "resolve_domain sets the split"
        return config, await list_tasks(clients, config.env, config.task_split, config.rpc_timeout)
    except grpc.aio.AioRpcError as exc:
        if error_reason(exc) == DOMAIN_NOT_RUNNABLE_REASON:
            raise DomainNotRunnable(exc.details() or exc.code().name) from exc
        if exc.code() in REFUSALS:  # an unknown domain or split, or a task file the env cannot read
            raise ConfigError(exc.details() or exc.code().name) from exc
        raise


def run_record(
    config: RunConfig, agent: AgentIdentity | None, fingerprint: dict[str, Any], excluded: Mapping[str, str]
) -> dict[str, Any]:
    """What every result of a resolved run adds to its ``info``.

    The run's fingerprint (``run``), how far to trust its score (``validity``), its domain's own run defaults
    (``run_defaults``, whatever the run overrode) and the external agent's identity (``agent``), when there is one.
    """
    assert config.run_defaults is not None, "the run has taken its domain's run defaults (resolve_domain)"
    recorded: dict[str, Any] = {
        "run": fingerprint,
        "validity": validity_record(config, excluded),
        "run_defaults": config.run_defaults.model_dump(mode="json"),
    }
    if agent is not None:
        recorded["agent"] = agent.model_dump()
    return recorded


@dataclass
class PreparedRun:
    """A run ready to play: its resolved config, its split's tasks, what is left to play, where results go."""

    config: RunConfig
    """With the split resolved."""
    tasks: list[env_pb2.TaskSummary]
    plan: list[tuple[int, int]]
    """(index in ``tasks``, trial) of each episode to play, in the order they start."""
    order: list[EpisodeKey]
    """Every episode of the run in the results file's order (those already done included)."""
    recorded: dict[str, Any]
    """Added to each result's ``info``: the run's fingerprint and the external agent's identity."""
    path: Path
    existing: list[RunResult]
    excluded: dict[str, str]
    """Selected tasks the strict grader leaves out (their gold errors), with why; empty under the faithful one."""

    def results_file(self) -> ResultsFile:
        return ResultsFile(self.path, self.existing, order=self.order)

    def progress(self, console: Console) -> RunProgress:
        config = self.config
        title = f"{config.env} {config.task_split}"
        return RunProgress(console, title, len(self.plan), enabled=config.show_progress, verbose=config.verbose)


async def prepare_run(
    clients: ServiceClients, config: RunConfig, resume: Path | None, only_errors: bool, existing: list[RunResult]
) -> PreparedRun:
    """Resolve the split and tasks, check a resumed file's fingerprint, plan what is left, claim the results file.

    ``existing`` is what ``resume`` holds (empty without it).
    """
    config, tasks = await resolve_tasks(clients, config)
    release = served_release(await served_domain(clients, config))
    indices = run_tasks(config, tasks, release)
    indices, excluded = await gradable_tasks(clients, config, tasks, indices)
    agent = await describe_agent(clients, config)
    fingerprint = run_fingerprint(config, agent, release)
    if resume:
        check_fingerprint(resume, existing, fingerprint, config.allow_release_change)
    recorded = run_record(config, agent, fingerprint, excluded)

    if indices:  # the domain's data is read now, not by the first episode: a corrupt file fails before any output
        first = TaskRef(domain=config.env, split=config.task_split or "", task_id=tasks[indices[0]].task_id)
        try:
            await check_domain_data(clients, first, config.rpc_timeout)
        except DataUnreadable as exc:
            raise ConfigError(str(exc)) from exc
    order = [(results_task_id(tasks[i].task_id), t) for i, t in plan_episodes(config, indices)]
    position = {results_task_id(t.task_id): i for i, t in enumerate(tasks)}
    done = {(r.task_id, r.trial) for r in existing if not r.is_error}
    if only_errors:
        errors = {(r.task_id, r.trial) for r in existing if r.is_error and r.task_id in position}
        plan = [(position[task_id], t) for task_id, t in order if (task_id, t) in errors]
        plan += sorted((position[task_id], t) for task_id, t in errors - set(order))
    else:
        plan = [(position[task_id], t) for task_id, t in order if (task_id, t) not in done]
    if resume is None:
        time_str = datetime.now().strftime("%Y%m%d%H%M%S")
        path = claim_results_path(config.log_dir, results_filename(config, agent, time_str))
    else:
        path = resume
    return PreparedRun(config, tasks, plan, order, recorded, path, existing, excluded)


def agent_tools_server(config: RunConfig, clients: ServiceClients) -> contextlib.AbstractAsyncContextManager[Any]:
    """With ``--agent-tools mcp``, the run's MCP gateway (:mod:`.episode.mcp_agent`); else nothing."""
    if config.agent_tools != "mcp":
        return contextlib.nullcontext()
    from taumesh.orchestrator.episode.mcp_agent import serving_mcp

    return serving_mcp(clients.env, config.rpc_timeout)


async def run_here(
    config: RunConfig,
    resume: Path | None,
    only_errors: bool,
    existing: list[RunResult],
    console: Console,
    handle_signals: bool,
) -> RunSummary:
    """The run played by this process alone (:func:`taumesh.orchestrator.benchmark.run_benchmark` chooses it).

    ``existing`` is what ``resume`` holds (empty without it).
    """
    async with service_stack(config.addresses, config.data_dir) as clients:
        run = await prepare_run(clients, config, resume, only_errors, existing)
        config, tasks, recorded = run.config, run.tasks, run.recorded
        results = run.results_file()
        semaphore = asyncio.Semaphore(config.max_concurrency)
        progress = run.progress(console)
        listener = _episode_listener.get()

        async def one(index: int, trial: int) -> None:
            async with semaphore:
                progress.episode_started()
                result = await play(clients, config, tasks[index], trial, recorded)
                if listener is not None:
                    await listener(result)
            results.add(result)
            progress.episode_finished(result)

        async with progress, agent_tools_server(config, clients):
            try:
                with tracking(OpenSessions()) as sessions:  # SIGINT/SIGTERM: closed before the run exits
                    episodes = asyncio.gather(*(one(index, trial) for index, trial in run.plan))
                    await until_stopped(episodes, sessions, clients.env, run.path, handle_signals)
            finally:
                results.flush()  # also when interrupted: what finished is kept for --resume

        pass_k, average = await compute_pass_hat_k(clients, config, results.results)
        served = await fetch_tau2_tasks(clients, config, results.results)
    path = write_outputs(config, run.path, results.results, served)
    return RunSummary(
        results_path=path, results=results.results, pass_hat_k=pass_k, average_reward=average, excluded=run.excluded
    )
