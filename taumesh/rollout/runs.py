"""Group rollouts: tasks × trials played by one run of the orchestrator, with an episode seed per (task, trial).

Every form plays one ordinary run (:func:`taumesh.orchestrator.benchmark.run_benchmark`, this process, the services
embedded on loopback unless given by address), built by ``RunOptions.run_config()`` like every front door's, with
``episode_seeds="sha256"`` and the progress display off. Nothing else about the run differs from ``taumesh run``'s.

- :func:`agroup_rollouts`: awaitable, every episode at once when the run ends.
- :func:`group_rollouts`: the same, blocking (for code without an event loop).
- :func:`stream_rollouts`: an async iterator of the episodes as they end, with back-pressure.

With ``policy=fn`` the training loop's own policy function is the agent: it is served as an AgentService on
loopback for the run (:mod:`taumesh.rollout.policy`) and reached by address, so the episodes take the ordinary path.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import tempfile
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from taumesh.llm.access import granted
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import ConfigError
from taumesh.orchestrator.options import RunOptions
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.run.grants import run_grants
from taumesh.orchestrator.run.preflight import run_problems
from taumesh.orchestrator.run.runner import RunSummary, handing_over
from taumesh.rollout.episodes import RolloutEpisode
from taumesh.rollout.policy import Policy, serving_policy
from taumesh.rollout.traces import with_trace, with_traces

NOT_FOR_ROLLOUTS = {
    "workers": "the episodes are handed over by this process's run",
    "work_store": "the episodes are handed over by this process's run",
    "resume": "each call plays its group afresh",
    "retry_errors": "each call plays its group afresh",
}
"""Run options a rollout call refuses, with why."""
NOT_WITH_POLICY = {
    "agent_strategy": "the policy function is the agent",
    "agent_addr": "the policy function is the agent, served here",
    "model": "the policy function is the agent; its model is its own business",
}
"""Settings a call with ``policy=`` refuses, with why."""
DEFAULT_AGENT_STRATEGY = "tool-calling"
"""The agent of a call that names neither a strategy nor a policy (as ``taumesh run``'s)."""
POLICY_AGENT_STRATEGY = "policy"
"""The strategy a policy call's run records: no built-in one is asked (the agent is reached by address)."""
P = ParamSpec("P")
T = TypeVar("T")


def rollout_config(
    *,
    env: str,
    task_ids: Sequence[str | int] | None,
    trials: int,
    agent_strategy: str | None,
    user_strategy: str,
    data_dir: Path | None,
    seed: int | None,
    task_split: str | None,
    model: str,
    max_concurrency: int,
    options: dict[str, Any],
    policy: Policy | None = None,
) -> RunConfig:
    """The run a rollout call plays: its settings through ``RunOptions`` (as every front door's), seeds by SHA-256.

    ``options`` are any other ``RunOptions`` fields (``user_model``, ``temperature``, ``agent_addr``…). With a
    ``policy`` the agent is the policy function (its address is filled in once it is served): a strategy, an agent
    address or a model beside it is refused here, before anything runs.
    """
    refused = sorted(set(options) & set(NOT_FOR_ROLLOUTS))
    if refused:
        raise ValueError("; ".join(f"{name}: {NOT_FOR_ROLLOUTS[name]}" for name in refused))
    if policy is not None:
        if not callable(policy):
            raise TypeError(f"policy must be a function, not {type(policy).__name__}")
        given_too = {"agent_strategy": agent_strategy is not None, "agent_addr": options.get("agent_addr") is not None,
                     "model": bool(model)}  # fmt: skip
        clashing = [name for name, clashes in given_too.items() if clashes]
        if clashing:
            raise ValueError("; ".join(f"policy= and {name}: {NOT_WITH_POLICY[name]}" for name in clashing))
        agent_strategy = POLICY_AGENT_STRATEGY
    given: dict[str, Any] = {
        "env": env,
        "task_ids": list(task_ids) if task_ids is not None else None,
        "num_trials": trials,
        "agent_strategy": agent_strategy or DEFAULT_AGENT_STRATEGY,
        "user_strategy": user_strategy,
        "seed": seed,
        "task_split": task_split,
        "model": model,
        "max_concurrency": max_concurrency,
        "quiet": True,
        **options,
    }
    if data_dir is not None:
        given["data_dir"] = data_dir
    return RunOptions(**given).run_config().model_copy(update={"episode_seeds": "sha256"})


@contextlib.contextmanager
def results_dir(log_dir: Path | None) -> Iterator[Path]:
    """Where the run writes its results file: ``log_dir`` when given (kept), else a folder removed afterwards."""
    if log_dir is not None:
        yield log_dir
        return
    with tempfile.TemporaryDirectory(prefix="taumesh-rollouts-") as folder:
        yield Path(folder)


@contextlib.asynccontextmanager
async def agent_for(config: RunConfig, policy: Policy | None) -> AsyncIterator[RunConfig]:
    """``config`` as it is, or, with a ``policy``, with the policy served on loopback as its agent until the exit."""
    if policy is None:
        yield config
        return
    async with serving_policy(policy, config.max_concurrency) as address:
        addresses = config.addresses.model_copy(update={"agent": address})
        yield config.model_copy(update={"addresses": addresses})


async def play(config: RunConfig, policy: Policy | None, folder: Path) -> RunSummary:
    """Play the group's run, as ``taumesh run`` plays one: after its pre-flight, its endpoints granted to its services.

    The pre-flight (:func:`~taumesh.orchestrator.run.preflight.run_problems`, every front door's) finds everything
    that would fail every episode (a strategy without a model, a domain without data, a service not answering) and
    raises :class:`ConfigError` with all of it before any episode plays. The run's own model endpoints are granted to
    the services it embeds for as long as it plays (:func:`~taumesh.orchestrator.run.grants.run_grants`).
    """
    async with agent_for(config, policy) as played:
        problems = await asyncio.to_thread(run_problems, played)  # it may dial services: off this loop
        if problems:
            raise ConfigError("; ".join(f"{problem.setting}: {problem.message}" for problem in problems))
        with granted(run_grants(played)):
            return await run_benchmark(played.model_copy(update={"log_dir": folder}))


def in_run_order(results: Sequence[RunResult]) -> list[RolloutEpisode]:
    """The episodes grouped by task (in the order the run took them), trial by trial within each task."""
    first_seen: dict[str, int] = {}
    episodes = [RolloutEpisode.from_result(result) for result in results]
    for episode in episodes:
        first_seen.setdefault(episode.task_id, len(first_seen))
    return sorted(episodes, key=lambda episode: (first_seen[episode.task_id], episode.trial))


async def agroup_rollouts(
    *,
    env: str,
    task_ids: Sequence[str | int] | None = None,
    trials: int = 1,
    agent_strategy: str | None = None,
    user_strategy: str = "llm",
    data_dir: Path | None = None,
    seed: int | None = None,
    task_split: str | None = None,
    model: str = "",
    max_concurrency: int = 8,
    log_dir: Path | None = None,
    policy: Policy | None = None,
    **options: Any,
) -> list[RolloutEpisode]:
    """Play ``trials`` rollouts of each task of ``task_ids`` (None: the whole split); every episode, grouped by task.

    ``seed`` (None: the domain's) seeds each episode by :func:`taumesh.rollout.seed_for`, so the same seed replays
    the same group. ``log_dir`` keeps the run's results file (default: written to a folder removed afterwards).
    ``options`` are any other run options, by ``RunOptions``' names (``user_model``, ``temperature``,
    ``agent_addr``…). A domain, split or task the env does not have raises
    :class:`~taumesh.orchestrator.domain_info.ConfigError` before any episode is played.

    The agent is ``agent_strategy`` (None: ``tool-calling``), a running agent service (``agent_addr``), or the
    caller's own ``policy`` function (:mod:`taumesh.rollout.policy`: called with a
    :class:`~taumesh.rollout.policy.PolicyRequest` per agent turn, at most ``max_concurrency`` calls in flight; one
    that raises fails its episode as the agent's failure, scored). ``policy`` with a strategy, an agent address or a
    model raises ValueError before anything runs.
    """
    config = rollout_config(
        env=env,
        task_ids=task_ids,
        trials=trials,
        agent_strategy=agent_strategy,
        user_strategy=user_strategy,
        data_dir=data_dir,
        seed=seed,
        task_split=task_split,
        model=model,
        max_concurrency=max_concurrency,
        options=options,
        policy=policy,
    )
    with results_dir(log_dir) as folder:
        summary = await play(config, policy, folder)
    return await with_traces(in_run_order(summary.results), config)  # the gateway's, when the run had one


def blocking(coroutine_function: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    """``coroutine_function`` run to its end on an event loop of its own: for callers without one running."""

    @functools.wraps(coroutine_function)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(coroutine_function(*args, **kwargs))
        name = coroutine_function.__name__
        raise RuntimeError(f"this call blocks: inside a running event loop, await {name}(...) instead")

    return run


group_rollouts = blocking(agroup_rollouts)
""":func:`agroup_rollouts`, blocking (inside a running event loop it raises RuntimeError: await that instead)."""


async def stream_rollouts(
    *,
    env: str,
    task_ids: Sequence[str | int] | None = None,
    trials: int = 1,
    agent_strategy: str | None = None,
    user_strategy: str = "llm",
    data_dir: Path | None = None,
    seed: int | None = None,
    task_split: str | None = None,
    model: str = "",
    max_concurrency: int = 8,
    buffer: int = 8,
    log_dir: Path | None = None,
    policy: Policy | None = None,
    **options: Any,
) -> AsyncGenerator[RolloutEpisode, None]:
    """:func:`agroup_rollouts`' episodes one by one, as they end.

    Back-pressure: at most ``buffer`` ended episodes wait for the caller; then each episode that ends holds its slot
    of ``max_concurrency`` until the caller takes one, so the run plays no faster than the caller reads. Leaving the
    iteration early (close it: ``contextlib.aclosing``) cancels the run, whose open env sessions are closed.
    """
    config = rollout_config(
        env=env,
        task_ids=task_ids,
        trials=trials,
        agent_strategy=agent_strategy,
        user_strategy=user_strategy,
        data_dir=data_dir,
        seed=seed,
        task_split=task_split,
        model=model,
        max_concurrency=max_concurrency,
        options=options,
        policy=policy,
    )
    ended: asyncio.Queue[RunResult] = asyncio.Queue(maxsize=buffer)

    async def play_handing_over() -> None:
        with results_dir(log_dir) as folder, handing_over(ended.put):
            await play(config, policy, folder)

    run = asyncio.create_task(play_handing_over())
    taking: asyncio.Future[RunResult] | None = None
    try:
        while True:
            taking = asyncio.ensure_future(ended.get())
            await asyncio.wait({taking, run}, return_when=asyncio.FIRST_COMPLETED)
            if taking.done():
                yield await with_trace(RolloutEpisode.from_result(taking.result()), config)
                continue
            taking.cancel()
            while not ended.empty():  # every episode is handed over before the run ends
                yield await with_trace(RolloutEpisode.from_result(ended.get_nowait()), config)
            run.result()  # the run's own failure (a ConfigError…), if any
            return
    finally:
        if taking is not None:
            taking.cancel()
        if not run.done():
            run.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await run
