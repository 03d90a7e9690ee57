"""Live episodes at high concurrency against services with simulated model latency (issue 13, item 2).

Starts the env, user-sim, agent and scorer as ``taumesh serve`` processes: the agent (the oracle underneath)
answers every NextMessage after ``--agent-latency-ms`` and the scripted user every message after
``--user-latency-ms``, as asyncio sleeps, as a remote model would. The orchestrator runs in this process at
``--concurrency`` episodes in flight, once every service has loaded the domain (a warm-up call to each, not
measured). Prints achieved against ideal throughput, CPU per process, peak RSS per
process and the orchestrator's RSS per live episode.

Ideal: every episode takes exactly its simulated latency (its agent steps × agent latency + its user messages ×
user latency, counted from the results) and a new one starts the moment one ends, in the runner's order. The ideal
wall time is that schedule's length (list scheduling on ``--concurrency`` slots); ideal throughput in the steady
state is episodes in flight / mean simulated latency, and by Little's law the achieved one is episodes in flight /
mean episode duration, so their ratio is mean simulated latency / mean duration.

    .venv/bin/python bench/live_episodes.py                          # τ² retail train × 40 trials = 2,960 episodes
    .venv/bin/python bench/live_episodes.py --num-tasks 10 --num-trials 2 --concurrency 20 \
        --agent-latency-ms 50 --user-latency-ms 50 --out report.json   # the test's tiny configuration

Data: the fetched τ² data (``taumesh data fetch tau2``); ``--env retail --data-dir DIR`` for τ-bench v1.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import heapq
import io
import json
import os
import pstats
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from taumesh.agent.v1 import agent_pb2  # noqa: E402
from taumesh.common.v1 import common_pb2  # noqa: E402
from taumesh.convert import agent_settings_to_proto, user_settings_to_proto  # noqa: E402
from taumesh.env.v1 import env_pb2  # noqa: E402
from taumesh.models import AgentSettings, UserSettings  # noqa: E402
from taumesh.orchestrator.clients import ServiceClients, list_tasks  # noqa: E402
from taumesh.orchestrator.config import CACHE_DATA_DIR, RunConfig, ServiceAddresses  # noqa: E402
from taumesh.orchestrator.results import RunResult  # noqa: E402
from taumesh.orchestrator.runner import run_benchmark  # noqa: E402
from taumesh.scorer.v1 import scorer_pb2  # noqa: E402
from taumesh.user_sim.v1 import user_sim_pb2  # noqa: E402

SERVING = re.compile(r"serving \S+ on (\S+:\d+)")
SERVICES = ("env", "user-sim", "agent", "scorer")


@dataclass
class Service:
    """One ``taumesh serve`` process."""

    name: str
    process: subprocess.Popen[str]
    address: str
    ps: psutil.Process = field(init=False)

    def __post_init__(self) -> None:
        self.ps = psutil.Process(self.process.pid)


def start_service(name: str, args: argparse.Namespace) -> Service:
    """``taumesh serve NAME`` on a free port, with the latency flags that apply to it."""
    taumesh = str(Path(sys.executable).with_name("taumesh"))
    argv = [taumesh, "serve", name, "--port", "0", "--data-dir", str(args.data_dir)]
    if name == "agent":
        argv += ["--agent-reply-latency-ms", str(args.agent_latency_ms)]
    if name == "user-sim":
        argv += ["--user-reply-latency-ms", str(args.user_latency_ms)]
    if name == "env":
        argv += ["--max-sessions", str(max(2000, 2 * args.concurrency))]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    match = SERVING.search(process.stdout.readline())
    if match is None:
        process.kill()
        raise SystemExit(f"{name} did not start: {' '.join(argv)}")
    return Service(name, process, match.group(1))


@contextmanager
def services(args: argparse.Namespace) -> Iterator[dict[str, Service]]:
    """The four services as processes, stopped (SIGTERM) on the way out."""
    started: dict[str, Service] = {}
    try:
        for name in SERVICES:
            started[name] = start_service(name, args)
        yield started
    finally:
        for service in started.values():
            service.process.terminate()
        for service in started.values():
            try:
                service.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                service.process.kill()


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU seconds of ``process`` so far."""
    times = process.cpu_times()
    return float(times.user + times.system)


class RssSampler:
    """Samples the RSS of some processes every ``interval`` seconds in a thread; keeps each one's peak."""

    def __init__(self, processes: dict[str, psutil.Process], interval: float = 0.2) -> None:
        self.processes = processes
        self.interval = interval
        self.peak = {name: 0 for name in processes}
        self.series: list[tuple[float, int]] = []
        """(seconds since start, RSS) of the first process: the orchestrator."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        started = time.perf_counter()
        first = next(iter(self.processes))
        while not self._stop.is_set():
            for name, process in self.processes.items():
                rss = process.memory_info().rss
                self.peak[name] = max(self.peak[name], rss)
                if name == first:
                    self.series.append((time.perf_counter() - started, rss))
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
    options = ["--format", "raw", "--gil", "--nonblocking", "--rate", "50"]
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


def episode_calls(result: RunResult) -> tuple[int, int]:
    """(agent NextMessage calls, user-sim calls) of one episode, counted in its trajectory."""
    agent = sum(1 for message in result.traj if message.get("role") == "assistant")
    user = sum(1 for message in result.traj if message.get("role") == "user")
    return agent, user


def ideal_makespan(latencies: list[float], slots: int) -> float:
    """Length of the schedule that starts each episode, in order, as soon as one of ``slots`` frees up."""
    ends: list[float] = []
    for latency in latencies:
        start = heapq.heappop(ends) if len(ends) >= slots else 0.0
        heapq.heappush(ends, start + latency)
    return max(ends, default=0.0)


async def warm_up(args: argparse.Namespace, running: dict[str, Service]) -> None:
    """Make every service load the domain (once per process, not per episode) before anything is measured."""
    clients = ServiceClients.connect(*(running[name].address for name in SERVICES))
    try:
        split = args.split
        first = (await list_tasks(clients, args.env, split, 60.0))[0].task_id
        task = common_pb2.TaskRef(domain=args.env, split=split, task_id=first)
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
    finally:
        await clients.close()


def run_config(args: argparse.Namespace, addresses: dict[str, Service], log_dir: Path) -> RunConfig:
    """The run: oracle agent, scripted user, every service remote."""
    return RunConfig(
        env=args.env,
        task_split=args.split,
        end_index=args.num_tasks or -1,
        num_trials=args.num_trials,
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        max_concurrency=args.concurrency,
        data_dir=args.data_dir,
        log_dir=log_dir,
        show_progress=False,
        addresses=ServiceAddresses(
            env=addresses["env"].address,
            user=addresses["user-sim"].address,
            agent=addresses["agent"].address,
            scorer=addresses["scorer"].address,
        ),
    )


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Start the services, run the episodes, and return the report."""
    me = psutil.Process()
    with services(args) as running, tempfile.TemporaryDirectory() as tmp:
        processes = {"orchestrator": me, **{name: service.ps for name, service in running.items()}}
        config = run_config(args, running, Path(tmp))
        asyncio.run(warm_up(args, running))
        cpu_before = {name: cpu_seconds(process) for name, process in processes.items()}
        rss_before = me.memory_info().rss
        profiler = cProfile.Profile() if args.profile else None
        with RssSampler(processes) as rss, py_spy(processes, args.py_spy):
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            summary = asyncio.run(run_benchmark(config))
            if profiler:
                profiler.disable()
            wall = time.perf_counter() - started
        cpu = {name: cpu_seconds(process) - cpu_before[name] for name, process in processes.items()}
    results = summary.results
    if summary.errors or any(r.reward != 1.0 for r in results):
        bad = sum(1 for r in results if r.reward != 1.0)
        raise SystemExit(f"{bad} of {len(results)} episodes did not score 1.0: not a valid measurement")
    calls = [episode_calls(r) for r in results]
    latencies = [(a * args.agent_latency_ms + u * args.user_latency_ms) / 1000 for a, u in calls]
    durations = [float(r.info["duration_s"]) for r in results]
    episodes = len(results)
    mean_latency = sum(latencies) / episodes
    live_rss = [value for at, value in rss.series if at < min(durations)]
    ideal_wall = ideal_makespan(latencies, args.concurrency)
    in_flight = min(args.concurrency, episodes)
    report: dict[str, Any] = {
        "env": args.env,
        "split": args.split,
        "episodes": episodes,
        "concurrency": args.concurrency,
        "agent_latency_ms": args.agent_latency_ms,
        "user_latency_ms": args.user_latency_ms,
        "agent_calls_per_episode": sum(a for a, _ in calls) / episodes,
        "user_calls_per_episode": sum(u for _, u in calls) / episodes,
        "mean_simulated_latency_s": mean_latency,
        "mean_episode_duration_s": sum(durations) / episodes,
        "mean_harness_overhead_ms": 1000 * (sum(durations) - sum(latencies)) / episodes,
        "steady_state_over_ideal": sum(latencies) / sum(durations),
        "wall_s": wall,
        "ideal_wall_s": ideal_wall,
        "achieved_over_ideal": ideal_wall / wall,
        "throughput_eps": episodes / wall,
        "ideal_steady_throughput_eps": in_flight / mean_latency,
        "cpu_s": cpu,
        "cpu_ms_per_episode": {name: 1000 * seconds / episodes for name, seconds in cpu.items()},
        "cpu_utilisation": {name: seconds / wall for name, seconds in cpu.items()},
        "peak_rss_mb": {name: peak / 2**20 for name, peak in rss.peak.items()},
        # before the first episode ends, every one in flight is live and no finished result is held yet
        "orchestrator_rss_kib_per_live_episode": (max(live_rss, default=rss_before) - rss_before) / 1024 / in_flight,
        "orchestrator_rss_kib_per_finished_episode": None
        if episodes <= in_flight
        else (rss.peak["orchestrator"] - max(live_rss, default=rss_before)) / 1024 / (episodes - in_flight),
    }
    if args.py_spy:
        report["py_spy_top"] = {
            name: top_frames(args.py_spy / f"{name}.txt", 12)
            for name in processes
            if (args.py_spy / f"{name}.txt").exists()
        }
    if profiler:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(args.profile)
        report["orchestrator_profile"] = text.getvalue()
    return report


def print_report(report: dict[str, Any]) -> None:
    """The report as plain text."""
    print(
        f"{report['env']} {report['split']}: {report['episodes']} episodes at {report['concurrency']} in flight; "
        f"agent {report['agent_latency_ms']:.0f} ms x {report['agent_calls_per_episode']:.2f} calls, "
        f"user {report['user_latency_ms']:.0f} ms x {report['user_calls_per_episode']:.2f} calls per episode "
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
    print(f"{'process':>13} {'CPU s':>8} {'CPU ms/ep':>10} {'CPU/wall':>9} {'peak RSS MB':>12}")
    for name, seconds in report["cpu_s"].items():
        print(
            f"{name:>13} {seconds:>8.2f} {report['cpu_ms_per_episode'][name]:>10.2f} "
            f"{report['cpu_utilisation'][name]:>9.2f} {report['peak_rss_mb'][name]:>12.1f}"
        )
    total = sum(report["cpu_s"].values())
    print(f"{'all':>13} {total:>8.2f} {1000 * total / report['episodes']:>10.2f} {total / report['wall_s']:>9.2f}")
    busiest = max(report["cpu_utilisation"], key=report["cpu_utilisation"].get)
    print(
        f"busiest process: {busiest} ({report['cpu_utilisation'][busiest]:.2f} cores); "
        f"machine: {psutil.cpu_count()} CPUs"
    )
    print(
        f"orchestrator RSS per live episode: {report['orchestrator_rss_kib_per_live_episode']:.1f} KiB "
        "(peak before the first episode ends, over the episodes then in flight)"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="tau2-retail")
    parser.add_argument("--split", default="train")
    parser.add_argument("--num-tasks", type=int, default=0, help="only the first N tasks of the split (0: all)")
    parser.add_argument("--num-trials", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=1000)
    parser.add_argument("--agent-latency-ms", type=float, default=2000.0)
    parser.add_argument("--user-latency-ms", type=float, default=1000.0)
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("TAUMESH_DATA_DIR", CACHE_DATA_DIR)))
    parser.add_argument("--profile", type=int, default=0, help="cProfile the orchestrator; print the top N")
    parser.add_argument("--py-spy", type=Path, help="sample every process with py-spy into this folder")
    parser.add_argument("--out", type=Path, help="also write the report as JSON")
    args = parser.parse_args()
    report = measure(args)
    print_report(report)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
