"""Replay every τ-bench retail test task's gold actions through taumesh and time it.

1. Per episode over real gRPC (the four services started in-process on loopback by ``service_stack``):
   OpenSession, CallTool for each gold action, GetFinalState, ScoreEpisode, CloseSession. Every reward
   must be 1.0 (a sanity check). The original τ-bench's recorded timings are printed next to ours for
   context; they were not measured in this run.
2. Resident memory per live session: ``--sessions`` sessions opened through the env service and kept
   open, against the same number of naive sessions that each deep-copy the whole base data.
3. Per-episode cost in-process (no gRPC): copy-on-write session + incremental hash against a naive
   session that deep-copies the base data and hashes it whole, alternated over ``--repeats`` rounds.

Run from the project root: ``.venv/bin/python bench/replay_retail.py``. Prints plain text; asserts
nothing about absolute times.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]  # no types-psutil in the dev extras

from taumesh.common.v1 import common_pb2
from taumesh.domains import Domain, Session, Task, ToolCrash, load_domain
from taumesh.domains._hashing import consistent_hash, to_hashable
from taumesh.env.v1 import env_pb2
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.run.stack import service_stack
from taumesh.scorer.v1 import scorer_pb2
from taumesh.stats import is_success

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = PROJECT_ROOT.parent / "shared" / "taubench_v1"
BASELINE_FILE = "baseline_timing_retail_test.json"
DOMAIN, SPLIT = "retail", "test"
RPC_TIMEOUT = 60.0
MB = 1024 * 1024


# ---------------------------------------------------------------------------------------------- helpers


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def stats_line(label: str, values: Sequence[float]) -> str:
    return (
        f"{label}: median {ms(statistics.median(values))}  mean {ms(statistics.mean(values))}  "
        f"min {ms(min(values))}  max {ms(max(values))}"
    )


def ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.1f}x" if denominator > 0 else "n/a (denominator is 0)"


def rss_after_gc() -> int:
    """Resident set size of this process after a full garbage collection, in bytes."""
    gc.collect()
    return int(psutil.Process().memory_info().rss)


def task_ref(index: int) -> common_pb2.TaskRef:
    return common_pb2.TaskRef(domain=DOMAIN, split=SPLIT, task_id=str(index))


# ------------------------------------------------------------------------------------- 1. over gRPC


@dataclass
class EpisodeTiming:
    """Wall-clock seconds of each RPC phase of one episode."""

    open: float
    tools: float
    final: float
    score: float
    close: float

    @property
    def total(self) -> float:
        return self.open + self.tools + self.final + self.score + self.close


async def replay_gold(clients: ServiceClients, session_id: str, task: Task, episode_id: str) -> None:
    """CallTool for each gold action of ``task``, with request ids as the orchestrator sends them."""
    for step, action in enumerate(task.actions, start=1):
        request = env_pb2.CallToolRequest(
            session_id=session_id,
            tool_call=common_pb2.ToolCall(
                id=f"call-{step}", name=action.name, arguments_json=json.dumps(action.kwargs)
            ),
            request_id=f"{episode_id}:{step}",
        )
        result: env_pb2.CallToolResponse = await clients.env.CallTool(request, timeout=RPC_TIMEOUT)
        aborted = result.status == env_pb2.TOOL_CALL_STATUS_ABORTED
        assert not aborted, f"task {episode_id} step {step} aborted: {result.observation}"


async def play_episode(clients: ServiceClients, index: int, task: Task, episode_id: str) -> tuple[EpisodeTiming, float]:
    """One gold episode through the env and scorer services; its phase timings and reward."""
    t0 = time.perf_counter()
    opened: env_pb2.OpenSessionResponse = await clients.env.OpenSession(
        env_pb2.OpenSessionRequest(task=task_ref(index)), timeout=RPC_TIMEOUT
    )
    t1 = time.perf_counter()
    await replay_gold(clients, opened.session_id, task, episode_id)
    t2 = time.perf_counter()
    final: env_pb2.GetFinalStateResponse = await clients.env.GetFinalState(
        env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT
    )
    t3 = time.perf_counter()
    said = common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=" ".join(task.outputs))
    score: scorer_pb2.ScoreEpisodeResponse = await clients.scorer.ScoreEpisode(
        scorer_pb2.ScoreEpisodeRequest(
            task=task_ref(index),
            termination=common_pb2.TERMINATION_USER_STOP,
            final_data_hash=final.data_hash,
            conversation=[said],
        ),
        timeout=RPC_TIMEOUT,
    )
    t4 = time.perf_counter()
    await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    t5 = time.perf_counter()
    return EpisodeTiming(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), score.reward


async def startup_cost(clients: ServiceClients) -> float:
    """Seconds of the first OpenSession, which loads the data and renders the base hash text once per process."""
    t0 = time.perf_counter()
    opened: env_pb2.OpenSessionResponse = await clients.env.OpenSession(
        env_pb2.OpenSessionRequest(task=task_ref(0)), timeout=RPC_TIMEOUT
    )
    elapsed = time.perf_counter() - t0
    await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)
    return elapsed


async def grpc_passes(clients: ServiceClients, tasks: Sequence[Task], passes: int) -> list[list[EpisodeTiming]]:
    """``passes`` sequential passes over all tasks; timings[pass][task]. Asserts every reward is 1.0."""
    timings: list[list[EpisodeTiming]] = []
    for run in range(passes):
        this_pass: list[EpisodeTiming] = []
        for index, task in enumerate(tasks):
            timing, reward = await play_episode(clients, index, task, f"p{run}-t{index}")
            assert is_success(reward), f"task {index} pass {run}: reward {reward}, expected 1.0"
            this_pass.append(timing)
        timings.append(this_pass)
    return timings


def report_grpc(startup: float, timings: list[list[EpisodeTiming]]) -> None:
    print(f"startup (first OpenSession: load 3 JSON files + render base hash text, once per process): {ms(startup)}")
    first = timings[0]
    print(
        f"pass 1 of {len(timings)} "
        "(scorer replays each task's gold actions and hashes once, then caches the gold hash):"
    )
    print("  " + stats_line("per episode", [t.total for t in first]))
    print(f"  total for {len(first)} episodes: {sum(t.total for t in first):.2f} s")
    print(
        "  phase medians: "
        + "  ".join(
            f"{name} {ms(statistics.median(getattr(t, name) for t in first))}"
            for name in ("open", "tools", "final", "score", "close")
        )
    )
    if len(timings) > 1:
        warm = timings[1:]
        per_task = [statistics.median(run[i].total for run in warm) for i in range(len(first))]
        totals = [sum(t.total for t in run) for run in warm]
        print(f"passes 2..{len(timings)} (scorer's gold hash cached), per task median over {len(warm)} passes:")
        print("  " + stats_line("per episode", per_task))
        print(f"  total for {len(first)} episodes, per pass: " + ", ".join(f"{t:.2f} s" for t in totals))
        print(
            "  phase medians: "
            + "  ".join(
                f"{name} {ms(statistics.median(getattr(run[i], name) for run in warm for i in range(len(first))))}"
                for name in ("open", "tools", "final", "score", "close")
            )
        )
    rewards = sum(len(run) for run in timings)
    print(f"rewards: {rewards}/{rewards} episodes scored 1.0")


def report_baseline(data_dir: Path, ours_median: float, ours_total: float) -> None:
    path = data_dir / BASELINE_FILE
    if not path.is_file():
        print(f"(no recorded baseline: {path} not found)")
        return
    baseline = json.loads(path.read_text(encoding="utf-8"))
    per_task = baseline["per_task_median_s"]
    phases = baseline["phase_median_of_medians_s"]
    print(
        f"RECORDED BASELINE, not measured in this run: original τ-bench (tau_bench/envs/base.py), {path.name}, "
        f"{baseline['cpus']} CPUs, Python {baseline['python']}, median of {baseline['runs']} runs per task"
    )
    print(
        f"  per episode (reset + gold steps + calculate_reward): median {ms(per_task['median'])}  "
        f"mean {ms(per_task['mean'])}  min {ms(per_task['min'])}  max {ms(per_task['max'])}"
    )
    print("  phase medians: " + "  ".join(f"{name} {ms(value)}" for name, value in phases.items()))
    print(
        "  total for 115 episodes, per run: "
        + ", ".join(f"{t:.2f} s" for t in baseline["all_115_tasks_total_s_per_run"])
    )
    print(
        f"  env construct {ms(baseline['env_construct_s'])}, "
        f"RSS after construct {baseline['rss_after_env_construct_mb']:.0f} MB, "
        f"peak RSS {baseline['peak_rss_mb']:.0f} MB"
    )
    print(
        "  context only (recorded baseline vs this run's pass 1, different runs): "
        f"median per episode baseline/taumesh = {ratio(per_task['median'], ours_median)}, "
        f"total baseline/taumesh = {ratio(statistics.median(baseline['all_115_tasks_total_s_per_run']), ours_total)}"
    )


# -------------------------------------------------------------------------------- naive sessions


class NaiveSession:
    """The same step semantics as :class:`taumesh.domains.Session`, over a private deep copy of all the data."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self.data: dict[str, Any] = dict(copy.deepcopy(domain.base_data))
        self.actions: list[tuple[str, dict[str, Any]]] = []

    def call(self, name: str, kwargs: dict[str, Any]) -> str:
        self.actions.append((name, kwargs))
        tool = self.domain.tools_by_name.get(name)
        if tool is None:
            return f"Unknown action {name}"
        try:
            observation = tool.invoke(data=self.data, **kwargs)
        except Exception as exc:  # noqa: BLE001 - τ-bench turns every tool exception into text
            observation = f"Error: {exc}"
        if not isinstance(observation, str):
            raise ToolCrash(f"tool {name} returned {type(observation).__name__}")
        return observation

    def data_hash(self) -> str:
        return consistent_hash(to_hashable(self.data))


def replay_in_process(session: Session | NaiveSession, task: Task) -> None:
    for action in task.actions:
        session.call(action.name, copy.deepcopy(action.kwargs))


# ------------------------------------------------------------------------------- 2. memory per session


async def grpc_session_memory(clients: ServiceClients, tasks: Sequence[Task], count: int) -> tuple[int, list[int]]:
    """Open ``count`` sessions through the env service, replay gold actions, keep them open, measure RSS.

    Returns the RSS growth in bytes and each session's copied-record count; closes the sessions afterwards.
    """
    before = rss_after_gc()
    session_ids: list[str] = []
    copied: list[int] = []
    for n in range(count):
        index = n % len(tasks)
        opened: env_pb2.OpenSessionResponse = await clients.env.OpenSession(
            env_pb2.OpenSessionRequest(task=task_ref(index)), timeout=RPC_TIMEOUT
        )
        session_ids.append(opened.session_id)
        await replay_gold(clients, opened.session_id, tasks[index], f"mem-{n}")
        final: env_pb2.GetFinalStateResponse = await clients.env.GetFinalState(
            env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT
        )
        copied.append(final.copied_records)
    grown = rss_after_gc() - before
    for session_id in session_ids:
        await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=session_id), timeout=RPC_TIMEOUT)
    return grown, copied


def naive_session_memory(domain: Domain, tasks: Sequence[Task], count: int) -> int:
    """RSS growth in bytes while ``count`` naive sessions, gold actions replayed, are alive in this process."""
    before = rss_after_gc()
    live: list[NaiveSession] = []
    for n in range(count):
        session = NaiveSession(domain)
        replay_in_process(session, tasks[n % len(tasks)])
        live.append(session)
    grown = rss_after_gc() - before
    del live
    gc.collect()
    return grown


def report_memory(count: int, cow_bytes: int, naive_bytes: int, copied: Sequence[int], base_records: int) -> None:
    cow_per, naive_per = cow_bytes / count, naive_bytes / count
    print(
        f"RSS per live session, {count} sessions, gold actions replayed (tasks cycled), kept open, gc.collect() first:"
    )
    print(
        f"  taumesh (env service over gRPC, copy-on-write): {cow_per / 1024:.1f} KiB  (total +{cow_bytes / MB:.1f} MB)"
    )
    print(
        f"  naive (in-process, copy.deepcopy of base data):  {naive_per / 1024:.1f} KiB  "
        f"(total +{naive_bytes / MB:.1f} MB)"
    )
    print(f"  naive/cow = {ratio(naive_per, cow_per)}")
    print(
        f"copied records per session (GetFinalState.copied_records, of {base_records} base records): "
        f"median {statistics.median(copied):g}  mean {statistics.mean(copied):.2f}  "
        f"min {min(copied)}  max {max(copied)}"
    )


# ------------------------------------------------------------------------- 3. per-episode cost in-process


def timed_episode(make: Callable[[], Session | NaiveSession], task: Task) -> tuple[float, str]:
    """Seconds to create a session, replay the gold actions and hash the final data; and the hash."""
    t0 = time.perf_counter()
    session = make()
    replay_in_process(session, task)
    digest = session.data_hash()
    return time.perf_counter() - t0, digest


def in_process_cost(domain: Domain, tasks: Sequence[Task], repeats: int) -> tuple[list[float], list[float]]:
    """Per-episode seconds of copy-on-write and naive sessions, every task, alternating which goes first."""
    cow: list[float] = []
    naive: list[float] = []
    for run in range(repeats):
        for index, task in enumerate(tasks):
            order = (("cow", cow), ("naive", naive))
            if (run + index) % 2:
                order = order[::-1]
            digests: dict[str, str] = {}
            for name, sink in order:
                make: Callable[[], Session | NaiveSession] = (
                    (lambda: Session(domain)) if name == "cow" else (lambda: NaiveSession(domain))
                )
                seconds, digests[name] = timed_episode(make, task)
                sink.append(seconds)
            assert digests["cow"] == digests["naive"], f"task {index}: copy-on-write and naive hashes differ"
    return cow, naive


def report_cost(cow: Sequence[float], naive: Sequence[float], repeats: int, tasks: int, hasher_build: float) -> None:
    print(
        f"per episode (create session + gold actions + final data hash), {tasks} tasks x {repeats} rounds, alternated:"
    )
    print("  " + stats_line("taumesh copy-on-write + incremental hash", cow))
    print("  " + stats_line("naive copy.deepcopy + full to_hashable hash", naive))
    print(f"  naive/cow = {ratio(statistics.median(naive), statistics.median(cow))} (medians)")
    print(f"  naive/cow = {ratio(sum(naive), sum(cow))} (totals: naive {sum(naive):.2f} s, cow {sum(cow):.2f} s)")
    print(f"  not in the per-episode numbers: rendering the base hash text once per process {ms(hasher_build)}")
    print("  every task's copy-on-write hash equals its naive hash")


# ------------------------------------------------------------------------------------------------ main


async def grpc_sections(
    data_dir: Path, tasks: Sequence[Task], repeats: int, sessions: int, naive_domain: Domain
) -> None:
    async with service_stack(ServiceAddresses(), data_dir) as clients:
        print("== 1. per episode over real gRPC (env, user, agent, scorer services in this process, 127.0.0.1)")
        startup = await startup_cost(clients)
        timings = await grpc_passes(clients, tasks, repeats)
        report_grpc(startup, timings)
        first = [t.total for t in timings[0]]
        report_baseline(data_dir, statistics.median(first), sum(first))

        print()
        print("== 2. resident memory per live session")
        cow_bytes, copied = await grpc_session_memory(clients, tasks, sessions)
        naive_bytes = naive_session_memory(naive_domain, tasks, sessions)
        base_records = sum(len(table) for table in naive_domain.base_data.values())
        report_memory(sessions, cow_bytes, naive_bytes, copied, base_records)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--data-dir", type=Path, default=DEFAULT_DATA_DIR, help="τ-bench v1 data (default: %(default)s)"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="passes over the 115 tasks through gRPC, and alternated rounds in-process (default: %(default)s)",
    )
    parser.add_argument(
        "--sessions", type=int, default=200, help="live sessions for the memory test (default: %(default)s)"
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N tasks (0: all; the test's size)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.sessions < 1 or args.limit < 0:
        parser.error("--repeats and --sessions must be at least 1, --limit at least 0")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    data_dir: Path = args.data_dir.resolve()
    started = time.perf_counter()

    domain = load_domain(DOMAIN, data_dir)  # in-process copy for the naive sessions and section 3
    tasks = domain.tasks(SPLIT)[: args.limit or None]
    print(f"taumesh retail {SPLIT} replay: {len(tasks)} tasks, data {data_dir}")
    print(f"machine: {psutil.cpu_count()} CPUs, load average {', '.join(f'{x:.2f}' for x in psutil.getloadavg())}")
    base_records = sum(len(table) for table in domain.base_data.values())  # loads the data now, before any RSS
    print(f"base data: {base_records} records in {len(domain.base_data)} tables")
    print()

    asyncio.run(grpc_sections(data_dir, tasks, args.repeats, args.sessions, domain))

    print()
    print("== 3. per-episode cost in-process, no gRPC: copy-on-write session vs naive deep copy")
    t0 = time.perf_counter()
    domain.initial_hash  # noqa: B018 - builds the per-process base hash text before timing
    hasher_build = time.perf_counter() - t0
    cow, naive = in_process_cost(domain, tasks, args.repeats)
    report_cost(cow, naive, args.repeats, len(tasks), hasher_build)

    print()
    print(f"whole benchmark: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
