"""Live episodes at 10, 100, 500 and 1,000 in flight against services with simulated model latency (issue 13, item 2).

For each level of ``--levels``, in one run: the env, user-sim, agent and scorer start as fresh ``taumesh serve``
processes (the agent, the oracle underneath, answers every NextMessage after ``--agent-latency-ms``, the scripted
user every message after ``--user-latency-ms``, as asyncio sleeps, as a remote model would), and the orchestrator
(``run_benchmark``, as ``taumesh run`` runs it) starts as a fresh child process of this one. Every process is new at
each level, so its peak RSS and the orchestrator's RSS per live episode belong to that level alone (a process that
ran a bigger level before would reuse the memory it freed). Each service answers a warm-up call first (it loads the
domain once per process), then everything is counted.

Prints per level: achieved against ideal throughput, CPU per process, peak RSS per process and the orchestrator's
RSS per live episode. With ``--orchestrator-workers N`` (when the run configuration has ``workers``) the
orchestrator's processes all count as "orchestrator": its own and those of its children.

Ideal: every episode takes exactly its simulated latency (its agent steps × agent latency + its user messages ×
user latency, counted from the results) and a new one starts the moment one ends, in the runner's order. The ideal
wall time is that schedule's length (list scheduling on the level's slots); ideal throughput in the steady state is
episodes in flight / mean simulated latency, and by Little's law the achieved one is episodes in flight / mean
episode duration, so their ratio is mean simulated latency / mean duration.

Episodes per level: ``--episodes-per-slot`` (3) × the level, at least ``--min-episodes``, so the steady state
dominates; the first tasks of the split when that is fewer than the split, else whole trials over it.

    .venv/bin/python bench/concurrency.py                                  # τ² retail train, 10/100/500/1,000
    .venv/bin/python bench/concurrency.py --levels 200 --agent-latency-ms 200 --user-latency-ms 100 --py-spy prof/
    .venv/bin/python bench/concurrency.py --levels 2 4 --episodes-per-slot 2 --min-episodes 6 \
        --agent-latency-ms 50 --user-latency-ms 50 --out report.json      # the test's tiny configuration

Data: the fetched τ² data (``taumesh data fetch tau2``); ``--env retail --data-dir DIR`` for τ-bench v1.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import heapq
import io
import json
import math
import multiprocessing
import os
import pstats
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psutil

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from taumesh.agent.v1 import agent_pb2  # noqa: E402
from taumesh.common.v1 import common_pb2  # noqa: E402
from taumesh.convert import agent_settings_to_proto, user_settings_to_proto  # noqa: E402
from taumesh.data import taubench_v1_dir  # noqa: E402
from taumesh.env.v1 import env_pb2  # noqa: E402
from taumesh.models import AgentSettings, UserSettings  # noqa: E402
from taumesh.orchestrator import benchmark  # noqa: E402
from taumesh.orchestrator.clients import ServiceClients, list_tasks  # noqa: E402
from taumesh.orchestrator.config import RunConfig, ServiceAddresses  # noqa: E402
from taumesh.orchestrator.run import runner  # noqa: E402
from taumesh.rpc.loop import run  # noqa: E402
from taumesh.scorer.v1 import scorer_pb2  # noqa: E402
from taumesh.stats import is_success  # noqa: E402
from taumesh.testing.processes import ServerProcess, service_processes  # noqa: E402
from taumesh.user_sim.v1 import user_sim_pb2  # noqa: E402

SERVICES = ("env", "user-sim", "agent", "scorer")
PROCESSES = ("orchestrator", *SERVICES)
WORKERS_SUPPORTED = "workers" in RunConfig.model_fields
"""Whether ``taumesh run`` can share one run among several orchestrator processes (``RunConfig.workers``)."""


def service_flags(name: str, args: argparse.Namespace, sessions: int) -> list[str]:
    """The flags of ``taumesh serve NAME``: the data and the latency that apply to it."""
    flags = ["--data-dir", str(args.data_dir)]
    if name == "agent":
        flags += ["--agent-reply-latency-ms", str(args.agent_latency_ms)]
    if name == "user-sim":
        flags += ["--user-reply-latency-ms", str(args.user_latency_ms)]
    if name == "env":
        flags += ["--max-sessions", str(max(2000, 2 * sessions))]
    return flags


@contextmanager
def services(args: argparse.Namespace, sessions: int) -> Iterator[dict[str, ServerProcess]]:
    """The four services as fresh processes (the project's process harness), stopped (SIGTERM) on the way out."""
    with tempfile.TemporaryDirectory(prefix="bench-services-") as logs:
        flags = {name: service_flags(name, args, sessions) for name in SERVICES}
        with service_processes(flags, Path(logs)) as running:
            yield running


def family(process: psutil.Process) -> list[psutil.Process]:
    """``process`` and its live children (orchestrator workers), recursively."""
    try:
        return [process, *process.children(recursive=True)]
    except psutil.NoSuchProcess:
        return [process]


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU seconds of ``process`` and of its children, live and finished, so far."""
    total = 0.0
    for member in family(process):
        try:
            times = member.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
        if member is process:  # children it has waited for
            total += times.children_user + times.children_system
    return total


def rss_bytes(process: psutil.Process) -> int:
    """Resident memory of ``process`` and its live children."""
    total = 0
    for member in family(process):
        try:
            total += member.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


class RssSampler:
    """Samples the RSS of some processes every ``interval`` seconds in a thread; keeps each one's peak."""

    def __init__(self, processes: dict[str, psutil.Process], interval: float = 0.2) -> None:
        self.processes = processes
        self.interval = interval
        self.peak = {name: 0 for name in processes}
        self.series: list[tuple[float, int]] = []
        """(time.time(), RSS) of the first process: the orchestrator."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        first = next(iter(self.processes))
        while not self._stop.is_set():
            for name, process in self.processes.items():
                rss = rss_bytes(process)
                self.peak[name] = max(self.peak[name], rss)
                if name == first:
                    self.series.append((time.time(), rss))
            self._stop.wait(self.interval)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@contextmanager
def py_spy(processes: dict[str, psutil.Process], out_dir: Path | None) -> Iterator[None]:
    """With ``out_dir``, sample every process with py-spy (GIL holders only) into ``out_dir/NAME.txt``."""
    if out_dir is None:
        yield
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    py_spy_bin = str(Path(sys.executable).with_name("py-spy"))
    options = ["--format", "raw", "--gil", "--nonblocking", "--rate", "50", "--subprocesses"]
    samplers = [
        subprocess.Popen(
            [py_spy_bin, "record", "--pid", str(process.pid), *options, "--output", str(out_dir / f"{name}.txt")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name, process in processes.items()
    ]
    try:
        yield
    finally:
        for sampler in samplers:
            sampler.send_signal(2)  # SIGINT: py-spy writes its file and exits
        for sampler in samplers:
            sampler.wait(timeout=60)


def top_frames(raw: Path, count: int) -> list[tuple[str, float]]:
    """The ``count`` frames where most samples of a py-spy raw file were taken (own time), with their share."""
    own: dict[str, int] = {}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, samples = line.rpartition(" ")
        if not stack:
            continue
        leaf = stack.rsplit(";", 1)[-1]
        own[leaf] = own.get(leaf, 0) + int(samples)
        total += int(samples)
    ranked = sorted(own.items(), key=lambda item: -item[1])[:count]
    return [(frame, samples / total) for frame, samples in ranked]


def ideal_makespan(latencies: list[float], slots: int) -> float:
    """Wall time if each episode took exactly its latency and started, in order, as soon as one of ``slots`` frees."""
    ends: list[float] = []
    for latency in latencies:
        start = heapq.heappop(ends) if len(ends) >= slots else 0.0
        heapq.heappush(ends, start + latency)
    return max(ends, default=0.0)


def episodes_plan(args: argparse.Namespace, level: int, split_size: int) -> tuple[int, int]:
    """(first N tasks, trials) for a level: ``--num-tasks``/``--num-trials`` when given, else about
    ``--episodes-per-slot`` × level episodes (at least ``--min-episodes``)."""
    wanted = max(args.min_episodes, args.episodes_per_slot * level)
    tasks = args.num_tasks or min(split_size, wanted)
    trials = args.num_trials or math.ceil(wanted / tasks)
    return tasks, trials


async def warm_up(args: argparse.Namespace, running: dict[str, ServerProcess]) -> int:
    """Make every service load the domain (once per process, not per episode); return the split's size."""
    clients = ServiceClients.connect(*(running[name].address for name in SERVICES))
    try:
        split = args.split
        tasks = await list_tasks(clients, args.env, split, 60.0)
        task = common_pb2.TaskRef(domain=args.env, split=split, task_id=tasks[0].task_id)
        opened = await clients.env.OpenSession(env_pb2.OpenSessionRequest(task=task))
        await clients.env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=opened.session_id))
        await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id))
        episode = common_pb2.EpisodeContext(task=task, episode_id="warm-up")
        hello = common_pb2.Message(role=common_pb2.ROLE_USER, content="hello")
        await asyncio.gather(
            clients.scorer.ScoreEpisode(
                scorer_pb2.ScoreEpisodeRequest(task=task, termination=common_pb2.TERMINATION_MAX_STEPS)
            ),
            clients.agent.NextMessage(
                agent_pb2.NextMessageRequest(
                    episode=episode,
                    conversation=[hello],
                    config=agent_settings_to_proto(AgentSettings(strategy="oracle")),
                )
            ),
            clients.user.StartConversation(
                user_sim_pb2.StartConversationRequest(
                    config=user_settings_to_proto(UserSettings(strategy="scripted")),
                    instruction=opened.user_instruction,
                    episode=episode,
                )
            ),
        )
        return len(tasks)
    finally:
        await clients.close()


def run_config(
    args: argparse.Namespace, level: int, plan: tuple[int, int], running: dict[str, ServerProcess], log_dir: Path
) -> RunConfig:
    """The run at one level: oracle agent, scripted user, every service remote."""
    extra: dict[str, Any] = {"workers": args.orchestrator_workers} if WORKERS_SUPPORTED else {}
    return RunConfig(
        env=args.env,
        task_split=args.split,
        end_index=plan[0],
        num_trials=plan[1],
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        max_concurrency=level,
        data_dir=args.data_dir,
        log_dir=log_dir,
        show_progress=False,
        addresses=ServiceAddresses(
            env=running["env"].address,
            user=running["user-sim"].address,
            agent=running["agent"].address,
            scorer=running["scorer"].address,
        ),
        **extra,
    )


class GcClock:
    """Wall time this process spends in garbage collections (``gc.callbacks``), and how many were full ones."""

    def __init__(self) -> None:
        self.seconds, self.collections, self.full = 0.0, 0, 0
        self._started = 0.0
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.seconds += time.perf_counter() - self._started
        self.collections += 1
        self.full += info["generation"] == 2


def episode_counts(roles: list[Any], duration: float, reward: float) -> tuple[int, int, float, float]:
    """(assistant messages, user messages, duration s, reward) of an episode whose messages have ``roles``."""
    return roles.count("assistant"), roles.count("user"), duration, reward


def orchestrate(config_json: str, profile: int, pipe: Connection) -> None:
    """The orchestrator process: say it is ready, run on "go", send what the report needs, exit on "done"."""
    config = RunConfig.model_validate_json(config_json)
    marks: dict[str, float] = {}
    play = runner.run_episode

    played: list[tuple[float, Any]] = []  # (when it started, its outcome) of each attempt that ended scored

    async def marked(*args: Any, **kwargs: Any) -> Any:  # when the first episode starts, and when one first ends
        begun = time.time()
        marks.setdefault("first_start", begun)
        try:
            outcome = await play(*args, **kwargs)
            played.append((begun, outcome))
            return outcome
        finally:
            marks.setdefault("first_end", time.time())

    runner.run_episode = marked  # type: ignore[assignment]
    pipe.send("ready")
    pipe.recv()
    profiler = cProfile.Profile() if profile else None
    started = time.time()
    if profiler:
        profiler.enable()
    collecting = GcClock()
    summary = run(benchmark.run_benchmark(config))  # as taumesh run does (taumesh.rpc.loop)
    if profiler:
        profiler.disable()
    wall = time.time() - started
    episodes = [
        episode_counts([m.get("role") for m in r.traj], float(r.info.get("duration_s", 0.0)), r.reward)
        for r in summary.results
    ]
    by_start = [
        episode_counts([m.role for m in outcome.traj], outcome.duration_s, outcome.reward)
        for _, outcome in sorted(played, key=lambda item: item[0])
    ]
    text = ""
    if profiler:
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats("tottime").print_stats(profile)
        text = stream.getvalue()
    pipe.send(
        {
            **marks,
            "started": started,
            "wall": wall,
            "errors": len(summary.errors),
            "episodes": episodes,
            "profile": text,
            "first_wave": by_start[: config.max_concurrency],
            "later_waves": by_start[config.max_concurrency :],
            "gc": {"seconds": collecting.seconds, "collections": collecting.collections, "full": collecting.full},
        }
    )
    pipe.recv()


def receive(pipe: Connection) -> Any:
    """The orchestrator process's next message; its death ends the bench."""
    try:
        return pipe.recv()
    except EOFError:
        raise SystemExit("the orchestrator process died (its traceback is above)") from None


def measure_level(args: argparse.Namespace, level: int) -> dict[str, Any]:
    """Fresh services and orchestrator, ``level`` episodes in flight: the level's report."""
    spawn = multiprocessing.get_context("spawn")
    with services(args, level) as running, tempfile.TemporaryDirectory() as tmp:
        split_size = asyncio.run(warm_up(args, running))
        plan = episodes_plan(args, level, split_size)
        config = run_config(args, level, plan, running, Path(tmp))
        ours, theirs = spawn.Pipe()
        child = spawn.Process(target=orchestrate, args=(config.model_dump_json(), args.profile, theirs), daemon=False)
        child.start()
        theirs.close()  # the child's end: a child that dies now ends our recv() with EOFError instead of a hang
        try:
            if receive(ours) != "ready":
                raise SystemExit("the orchestrator process did not start")
            orchestrator = psutil.Process(child.pid)
            processes = {
                "orchestrator": orchestrator,
                **{name: psutil.Process(service.pid) for name, service in running.items()},
            }
            cpu_before = {name: cpu_seconds(process) for name, process in processes.items()}
            rss_before = rss_bytes(orchestrator)
            spy_dir = args.py_spy / f"level-{level}" if args.py_spy else None
            with RssSampler(processes) as rss, py_spy(processes, spy_dir):
                ours.send("go")
                done: dict[str, Any] = receive(ours)
            cpu = {name: cpu_seconds(process) - cpu_before[name] for name, process in processes.items()}
            ours.send("done")
        finally:
            child.join(timeout=60)
            if child.is_alive():
                child.kill()
    episodes = done["episodes"]
    bad = sum(1 for *_, reward in episodes if not is_success(reward))
    if done["errors"] or not episodes or bad:
        raise SystemExit(f"level {level}: {bad} of {len(episodes)} episodes did not score 1.0: not a valid measurement")

    def simulated(a: int, u: int) -> float:
        return (a * args.agent_latency_ms + u * args.user_latency_ms) / 1000

    def overhead_ms(wave: list[tuple[int, int, float, float]]) -> float | None:
        return 1000 * sum(duration - simulated(a, u) for a, u, duration, _ in wave) / len(wave) if wave else None

    latencies = [simulated(a, u) for a, u, _, _ in episodes]
    durations = [duration for _, _, duration, _ in episodes]
    count, wall = len(episodes), done["wall"]
    in_flight = min(level, count)
    mean_latency = sum(latencies) / count
    # episodes played in this process mark when the first started and one first ended; with workers (other
    # processes) no episode ends before its shortest duration has passed since the run started
    window = (done.get("first_start", done["started"]), done.get("first_end", done["started"] + min(durations)))
    live_rss = [value for at, value in rss.series if window[0] <= at < window[1]]
    ideal_wall = ideal_makespan(latencies, level)
    report: dict[str, Any] = {
        "concurrency": level,
        "episodes": count,
        "tasks": plan[0],
        "trials": plan[1],
        "agent_calls_per_episode": sum(a for a, *_ in episodes) / count,
        "user_calls_per_episode": sum(u for _, u, *_ in episodes) / count,
        "mean_simulated_latency_s": mean_latency,
        "mean_episode_duration_s": sum(durations) / count,
        "mean_harness_overhead_ms": 1000 * (sum(durations) - sum(latencies)) / count,
        # the first ``level`` episodes start together and stay in step; those that follow start as others end
        "first_wave_overhead_ms": overhead_ms(done["first_wave"]),
        "later_overhead_ms": overhead_ms(done["later_waves"]),
        "steady_state_over_ideal": sum(latencies) / sum(durations),
        "wall_s": wall,
        "ideal_wall_s": ideal_wall,
        "achieved_over_ideal": ideal_wall / wall,
        "throughput_eps": count / wall,
        "ideal_steady_throughput_eps": in_flight / mean_latency,
        "cpu_s": cpu,
        "cpu_ms_per_episode": {name: 1000 * seconds / count for name, seconds in cpu.items()},
        "cpu_utilisation": {name: seconds / wall for name, seconds in cpu.items()},
        # every process's CPU per episode at the ideal steady throughput: above the machine's cores, the ideal
        # cannot be reached however the work is spread
        "cores_needed_at_ideal": sum(cpu.values()) / count * in_flight / mean_latency,
        "peak_rss_mb": {name: peak / 2**20 for name, peak in rss.peak.items()},
        "orchestrator_gc": done["gc"],
        # from the first episode's start until one first ends, episodes only start: none has a result held yet
        "orchestrator_rss_kib_per_live_episode": (max(live_rss, default=rss_before) - rss_before) / 1024 / in_flight,
        "orchestrator_rss_kib_per_finished_episode": None
        if count <= in_flight
        else (rss.peak["orchestrator"] - max(live_rss, default=rss_before)) / 1024 / (count - in_flight),
    }
    if spy_dir:
        report["py_spy_top"] = {
            name: top_frames(spy_dir / f"{name}.txt", 12) for name in processes if (spy_dir / f"{name}.txt").exists()
        }
    if done["profile"]:
        report["orchestrator_profile"] = done["profile"]
    return report


def print_level(report: dict[str, Any], args: argparse.Namespace) -> None:
    """One level's report as plain text."""
    print(
        f"\n== {report['concurrency']} in flight: {report['episodes']} episodes ({report['tasks']} tasks x "
        f"{report['trials']} trials); agent {args.agent_latency_ms:.0f} ms x {report['agent_calls_per_episode']:.2f} "
        f"calls, user {args.user_latency_ms:.0f} ms x {report['user_calls_per_episode']:.2f} calls per episode "
        f"= {report['mean_simulated_latency_s']:.2f} s simulated"
    )
    print(
        f"wall {report['wall_s']:.1f} s, ideal {report['ideal_wall_s']:.1f} s: "
        f"achieved/ideal = {100 * report['achieved_over_ideal']:.1f} %  "
        f"({report['throughput_eps']:.1f} episodes/s; ideal in steady state "
        f"{report['ideal_steady_throughput_eps']:.1f})"
    )
    print(
        f"mean episode {report['mean_episode_duration_s']:.2f} s, of which harness overhead "
        f"{report['mean_harness_overhead_ms']:.0f} ms: with episodes always in flight (Little's law) "
        f"throughput/ideal = {100 * report['steady_state_over_ideal']:.1f} %"
    )
    if report["first_wave_overhead_ms"] is not None and report["later_overhead_ms"] is not None:
        print(
            f"harness overhead per episode: first wave (the {report['concurrency']} that start together) "
            f"{report['first_wave_overhead_ms']:.0f} ms, later episodes {report['later_overhead_ms']:.0f} ms"
        )
    print(
        f"cores the processes would need at the ideal steady throughput: {report['cores_needed_at_ideal']:.2f} "
        f"(this machine: {os.cpu_count()})"
    )
    print(f"{'process':>13} {'CPU s':>8} {'CPU ms/ep':>10} {'CPU/wall':>9} {'peak RSS MB':>12}")
    for name, seconds in report["cpu_s"].items():
        print(
            f"{name:>13} {seconds:>8.2f} {report['cpu_ms_per_episode'][name]:>10.2f} "
            f"{report['cpu_utilisation'][name]:>9.2f} {report['peak_rss_mb'][name]:>12.1f}"
        )
    total = sum(report["cpu_s"].values())
    print(f"{'all':>13} {total:>8.2f} {1000 * total / report['episodes']:>10.2f} {total / report['wall_s']:>9.2f}")
    collected = report["orchestrator_gc"]
    print(
        f"orchestrator garbage collection: {collected['seconds']:.2f} s in {collected['collections']} collections "
        f"({collected['full']} full)"
    )
    busiest = max(report["cpu_utilisation"], key=report["cpu_utilisation"].get)
    print(f"busiest process: {busiest} ({report['cpu_utilisation'][busiest]:.2f} cores)")
    print(
        f"orchestrator RSS per live episode: {report['orchestrator_rss_kib_per_live_episode']:.1f} KiB "
        "(growth until an episode first ends, over the episodes then in flight)"
    )
    finished = report["orchestrator_rss_kib_per_finished_episode"]
    if finished is not None:
        print(f"orchestrator RSS per finished episode held to the end (result + results-file text): {finished:.1f} KiB")
    for name, frames in report.get("py_spy_top", {}).items():
        print(f"py-spy, {name}: where the GIL was held (own time)")
        for frame, share in frames:
            print(f"  {100 * share:5.1f} %  {frame}")
    if "orchestrator_profile" in report:
        print(report["orchestrator_profile"])


def print_summary(levels: list[dict[str, Any]]) -> None:
    """Every level on one line: throughput against ideal, CPU and peak RSS per process, RSS per live episode."""
    print("\n== summary (CPU ms per episode and peak RSS MB: " + " / ".join(PROCESSES) + ")")
    header = f"{'in flight':>9} {'episodes':>8} {'achieved/ideal':>14} {'eps (ideal)':>13}"
    print(f"{header}  CPU ms/ep  |  peak RSS MB  |  KiB/live ep")
    for r in levels:
        cpu = " / ".join(f"{r['cpu_ms_per_episode'][name]:.1f}" for name in PROCESSES)
        rss = " / ".join(f"{r['peak_rss_mb'][name]:.0f}" for name in PROCESSES)
        print(
            f"{r['concurrency']:>9} {r['episodes']:>8} {100 * r['achieved_over_ideal']:>13.1f}% "
            f"{r['throughput_eps']:>6.1f} ({r['ideal_steady_throughput_eps']:.1f})  {cpu}  |  {rss}  |  "
            f"{r['orchestrator_rss_kib_per_live_episode']:.0f}"
        )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[10, 100, 500, 1000], help="episodes in flight")
    parser.add_argument("--env", default="tau2-retail")
    parser.add_argument("--split", default="train")
    parser.add_argument("--episodes-per-slot", type=int, default=3, help="episodes per level = this x the level")
    parser.add_argument("--min-episodes", type=int, default=20, help="at least this many episodes per level")
    parser.add_argument("--num-tasks", type=int, default=0, help="the first N tasks at every level (0: by level)")
    parser.add_argument("--num-trials", type=int, default=0, help="trials at every level (0: by level)")
    parser.add_argument("--agent-latency-ms", type=float, default=2000.0)
    parser.add_argument("--user-latency-ms", type=float, default=1000.0)
    parser.add_argument(
        "--orchestrator-workers", type=int, default=1, help="orchestrator processes sharing the run (RunConfig.workers)"
    )
    parser.add_argument("--data-dir", type=Path, default=taubench_v1_dir())
    parser.add_argument("--profile", type=int, default=0, help="cProfile the orchestrator; print the top N")
    parser.add_argument("--py-spy", type=Path, help="sample every process with py-spy into this folder, per level")
    parser.add_argument("--out", type=Path, help="also write the report as JSON")
    args = parser.parse_args()
    if args.orchestrator_workers != 1 and not WORKERS_SUPPORTED:
        parser.error("--orchestrator-workers: this taumesh has no RunConfig.workers (one orchestrator process only)")
    return args


def main() -> None:
    args = parse_args()
    print(
        f"{args.env} {args.split}: levels {', '.join(map(str, args.levels))}; fresh service and orchestrator "
        f"processes per level; machine: {psutil.cpu_count()} CPUs, load average "
        + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    levels = []
    for level in args.levels:
        report = measure_level(args, level)
        print_level(report, args)
        levels.append(report)
    print_summary(levels)
    if args.out:
        meta = {"env": args.env, "split": args.split, "orchestrator_workers": args.orchestrator_workers}
        meta |= {"agent_latency_ms": args.agent_latency_ms, "user_latency_ms": args.user_latency_ms}
        args.out.write_text(json.dumps({**meta, "levels": levels}, indent=2))


if __name__ == "__main__":
    main()
