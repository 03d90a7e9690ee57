"""Env sessions at scale (issue 48, item 4): N concurrent sessions over gRPC, one env process or several, beside τ².

No model is called: the client drives the env's tools itself. Session ``i`` plays task ``i mod T`` of the split:

1. **open**: N OpenSession calls (``--in-flight`` at a time), every session kept open;
2. **calls**: every session runs its task's gold actions in order (CallTool, each timed), sessions side by side,
   ``--in-flight`` of them at a time; all N stay open meanwhile, holding their copy-on-write changes;
3. **RSS** of the env process(es) with all N sessions open and changed, then GetFinalState(close_session) on each:
   every session must still be there (a lost one would fail the bench).

Each level starts fresh ``taumesh serve env`` processes (``--replicas`` of them, reached as one gRPC target with
the orchestrator's ring-hash affinity on a per-session key, as ``taumesh run`` reaches replicas). Figures: sessions
per GB (sessions over the env processes' RSS), KB per session over the processes' warm RSS, tool calls per second
of wall time and per CPU-second of the env processes (calls per core: the client's CPU is not counted), p50/p99
latency of a CallTool as the client sees it.

τ² side (``--tau2-sessions``, with a ``tau2-`` domain): ``bench/_tau2_sessions.py`` under the venv of
``bench/tau2_replay.py`` holds that many of τ²'s own in-process environments at once (one per simulation, as τ²'s
orchestrator does), the same tasks and gold calls, with its RSS and calls per CPU-second. τ²'s environment is a
full copy of the domain's database (~12 MB for retail), so it is measured at a count that fits and compared per
session.

    .venv/bin/python bench/session_scale.py                        # 1,000 and 10,000 sessions; 1 and 2 replicas
    .venv/bin/python bench/session_scale.py --sessions 50000 --replicas 1 2
    .venv/bin/python bench/session_scale.py --sessions 50 --replicas 1 --domain retail --data-dir DIR --tau2-sessions 0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc
import psutil  # type: ignore[import-untyped]  # no types-psutil in the dev extras
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from taumesh.common.v1 import common_pb2
from taumesh.data import cache_dir
from taumesh.domains import load_domain
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.balancing import AFFINITY_HEADER, client_options
from taumesh.rpc.server import CHANNEL_OPTIONS
from taumesh.testing.processes import ServerProcess, start_service, stop_all

BENCH_DIR = Path(__file__).resolve().parent
TAU2_SCRIPT = BENCH_DIR / "_tau2_sessions.py"
ENV_SERVICE = env_pb2.DESCRIPTOR.services_by_name["EnvService"].full_name
RPC_TIMEOUT = 300.0
MB = 2**20
GB = 2**30


class Level(BaseModel):
    """One system at one size: how many sessions, what they cost, how fast their tool calls ran."""

    system: str
    """``taumesh`` (env processes over gRPC) or ``tau2`` (τ²'s environments in one process)."""
    replicas: int
    sessions: int
    open_s: float
    """Wall time to open (τ²: build) every session."""
    warm_rss_mb: float
    """RSS of the env process(es) before the first session (domain data loaded); τ²: after import and task load."""
    rss_mb: float
    """RSS with every session open, after their tool calls."""
    calls: int
    calls_wall_s: float
    calls_cpu_s: float
    """CPU time of the env process(es) (τ²: its process) over the call phase."""
    p50_ms: float
    p99_ms: float
    closed: int = 0
    """Sessions whose final state was read (and closed) at the end: taumesh's must be all of them."""

    @property
    def sessions_per_gb(self) -> float:
        return self.sessions / (self.rss_mb * MB / GB)

    @property
    def kb_per_session(self) -> float:
        return (self.rss_mb - self.warm_rss_mb) * 1024 / self.sessions

    @property
    def calls_per_s(self) -> float:
        return self.calls / self.calls_wall_s

    @property
    def calls_per_cpu_s(self) -> float:
        return self.calls / self.calls_cpu_s if self.calls_cpu_s > 0 else 0.0


class Report(BaseModel):
    domain: str
    split: str
    tasks: int
    in_flight: int
    levels: list[Level]


@dataclass(frozen=True)
class Plan:
    """The tasks the sessions play, and each one's gold calls."""

    domain: str
    split: str
    task_ids: tuple[str, ...]
    calls: tuple[tuple[common_pb2.ToolCall, ...], ...]


def plan_of(domain: str, data_dir: Path, split: str, limit: int | None) -> Plan:
    """The first ``limit`` tasks of ``split`` that have gold actions, with their gold calls as wire tool calls."""
    tasks = [task for task in load_domain(domain, data_dir).tasks(split) if task.actions][:limit]
    if not tasks:
        raise SystemExit(f"{domain}/{split} has no task with gold actions")
    calls = tuple(
        tuple(
            common_pb2.ToolCall(
                id=f"call_{index}",
                name=action.name,
                arguments_json=json.dumps(action.kwargs),
                requestor=common_pb2.REQUESTOR_USER if action.requestor == "user" else common_pb2.REQUESTOR_ASSISTANT,
            )
            for index, action in enumerate(task.actions)
        )
        for task in tasks
    )
    return Plan(domain, split, tuple(str(task.id) for task in tasks), calls)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


# ------------------------------------------------------------------------------------------ the taumesh side


def rss_mb(pids: Sequence[int]) -> float:
    return float(sum(psutil.Process(pid).memory_info().rss for pid in pids)) / MB


def cpu_s(pids: Sequence[int]) -> float:
    total = 0.0
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        total += times.user + times.system
    return total


async def warm_up(servers: Sequence[ServerProcess], plan: Plan) -> None:
    """One session per replica, opened and closed: each process has read and hashed the domain's data."""
    ref = common_pb2.TaskRef(domain=plan.domain, split=plan.split, task_id=plan.task_ids[0])
    for server in servers:
        async with grpc.aio.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
            stub = env_pb2_grpc.EnvServiceStub(channel)
            opened = await stub.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT)
            await stub.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)


async def drive(servers: Sequence[ServerProcess], plan: Plan, count: int, in_flight: int) -> Level:
    """Open ``count`` sessions on ``servers`` (one target, ring-hash affinity), play their calls, close them."""
    await warm_up(servers, plan)
    pids = [server.pid for server in servers]
    warm = rss_mb(pids)
    target = "ipv4:" + ",".join(server.address for server in servers)
    options = [*CHANNEL_OPTIONS, *client_options(ENV_SERVICE, sticky=True)]
    gate = asyncio.Semaphore(in_flight)
    async with grpc.aio.insecure_channel(target, options=options) as channel:
        stub = env_pb2_grpc.EnvServiceStub(channel)
        refs = [common_pb2.TaskRef(domain=plan.domain, split=plan.split, task_id=task_id) for task_id in plan.task_ids]
        run_id = f"session-scale-{count}"

        async def open_one(number: int) -> str:
            async with gate:
                opened = await stub.OpenSession(
                    env_pb2.OpenSessionRequest(task=refs[number % len(refs)], run_id=run_id),
                    timeout=RPC_TIMEOUT,
                    metadata=((AFFINITY_HEADER, f"s{number}"),),
                )
            return str(opened.session_id)

        started = time.perf_counter()
        ids = await asyncio.gather(*(open_one(number) for number in range(count)))
        open_s = time.perf_counter() - started

        latencies: list[float] = []

        async def play_one(number: int) -> None:
            metadata = ((AFFINITY_HEADER, f"s{number}"),)
            async with gate:
                for index, call in enumerate(plan.calls[number % len(plan.calls)]):
                    request = env_pb2.CallToolRequest(session_id=ids[number], tool_call=call, request_id=f"{index}")
                    sent = time.perf_counter()
                    await stub.CallTool(request, timeout=RPC_TIMEOUT, metadata=metadata)
                    latencies.append(time.perf_counter() - sent)

        cpu0, wall0 = cpu_s(pids), time.perf_counter()
        await asyncio.gather(*(play_one(number) for number in range(count)))
        calls_wall, calls_cpu = time.perf_counter() - wall0, cpu_s(pids) - cpu0
        held = rss_mb(pids)

        async def close_one(number: int) -> None:
            async with gate:
                await stub.GetFinalState(
                    env_pb2.GetFinalStateRequest(session_id=ids[number], close_session=True),
                    timeout=RPC_TIMEOUT,
                    metadata=((AFFINITY_HEADER, f"s{number}"),),
                )

        await asyncio.gather(*(close_one(number) for number in range(count)))  # a lost session raises NOT_FOUND
    return Level(
        system="taumesh",
        replicas=len(servers),
        sessions=count,
        open_s=open_s,
        warm_rss_mb=warm,
        rss_mb=held,
        calls=len(latencies),
        calls_wall_s=calls_wall,
        calls_cpu_s=calls_cpu,
        p50_ms=percentile(latencies, 0.5) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        closed=count,
    )


def measure_taumesh(plan: Plan, data_dir: Path, count: int, replicas: int, in_flight: int, log_dir: Path) -> Level:
    """``replicas`` fresh env processes, sized for ``count`` sessions, driven by :func:`drive`; stopped after."""
    flags = ["--data-dir", str(data_dir), "--max-sessions", str(count + 16), "--session-idle-timeout", "3600"]
    servers: list[ServerProcess] = []
    try:
        for number in range(replicas):
            servers.append(start_service("env", log_dir / f"env-{count}-{number}.log", *flags))
        return asyncio.run(drive(servers, plan, count, in_flight))
    finally:
        stop_all(servers, timeout=30)


# ---------------------------------------------------------------------------------------------- the τ² side


def measure_tau2(plan: Plan, count: int) -> Level:
    """τ²'s own environments, ``count`` at once in one process, the same tasks and gold calls."""
    from tau2_replay import run_inprocess, tau2_python

    domain = plan.domain.removeprefix("tau2-")
    request = {"domain": domain, "task_ids": list(plan.task_ids), "sessions": count}
    result = run_inprocess(tau2_python(cache_dir()), TAU2_SCRIPT, request, "τ² sessions")
    latencies = result["latencies_s"]
    return Level(
        system="tau2",
        replicas=1,
        sessions=result["sessions"],
        open_s=result["open_s"],
        warm_rss_mb=result["base_rss_bytes"] / MB,
        rss_mb=result["rss_bytes"] / MB,
        calls=result["calls"],
        calls_wall_s=result["calls_wall_s"],
        calls_cpu_s=result["calls_cpu_s"],
        p50_ms=percentile(latencies, 0.5) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
    )


# ------------------------------------------------------------------------------------------------- report


def print_report(report: Report, console: Console) -> None:
    table = Table(title=f"{report.domain}/{report.split}: {report.tasks} tasks, {report.in_flight} in flight")
    for column in (
        "system",
        "replicas",
        "sessions",
        "open s",
        "RSS MB",
        "sessions/GB",
        "KB/session",
        "calls",
        "calls/s",
        "calls/CPU-s",
        "p50 ms",
        "p99 ms",
    ):
        table.add_column(column, justify="left" if column == "system" else "right")
    for level in report.levels:
        table.add_row(
            level.system,
            str(level.replicas),
            f"{level.sessions:,}",
            f"{level.open_s:.1f}",
            f"{level.rss_mb:,.0f}",
            f"{level.sessions_per_gb:,.0f}",
            f"{level.kb_per_session:,.1f}",
            f"{level.calls:,}",
            f"{level.calls_per_s:,.0f}",
            f"{level.calls_per_cpu_s:,.0f}",
            f"{level.p50_ms:.2f}",
            f"{level.p99_ms:.2f}",
        )
    console.print(table)
    tau2 = next((level for level in report.levels if level.system == "tau2"), None)
    for level in report.levels:
        if level.system == "taumesh":
            console.print(
                f"taumesh {level.sessions:,} sessions on {level.replicas} env process(es): all held and closed"
            )
    if tau2 is not None:
        for level in report.levels:
            if level.system != "taumesh":
                continue
            console.print(
                f"taumesh/τ² at {level.sessions:,} sessions × {level.replicas}: memory per session "
                f"{tau2.kb_per_session / level.kb_per_session:,.0f}x less, calls per CPU-second "
                f"{level.calls_per_cpu_s / tau2.calls_per_cpu_s:.2f}x; τ² would need "
                f"{tau2.kb_per_session * level.sessions / 2**20:,.1f} GB for {level.sessions:,} sessions"
            )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, nargs="+", default=[1000, 10000], help="levels (add 50000 to try)")
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2], help="env processes per level")
    parser.add_argument("--domain", default="tau2-retail", help="a taumesh domain; a tau2- one is compared with τ²")
    parser.add_argument("--split", default="base")
    parser.add_argument("--data-dir", type=Path, default=Path("."), help="for domains read from a folder (v1)")
    parser.add_argument("--tasks", type=int, default=None, help="the first N tasks with gold actions (default all)")
    parser.add_argument("--in-flight", type=int, default=64, help="calls the client keeps in flight")
    parser.add_argument("--tau2-sessions", type=int, default=200, help="τ² environments held at once (0: skip τ²)")
    parser.add_argument("--out", type=Path, help="write the report as JSON here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> Report:
    args = parse_args(argv)
    plan = plan_of(args.domain, args.data_dir, args.split, args.tasks)
    levels: list[Level] = []
    console = Console(width=150)
    with tempfile.TemporaryDirectory(prefix="session-scale-") as logs:
        for count in args.sessions:
            for replicas in args.replicas:
                console.print(f"taumesh: {count:,} sessions on {replicas} env process(es) …", highlight=False)
                levels.append(measure_taumesh(plan, args.data_dir, count, replicas, args.in_flight, Path(logs)))
    if args.tau2_sessions and args.domain.startswith("tau2-"):
        console.print(f"τ²: {args.tau2_sessions:,} in-process environments …", highlight=False)
        levels.append(measure_tau2(plan, args.tau2_sessions))
    report = Report(
        domain=args.domain, split=args.split, tasks=len(plan.task_ids), in_flight=args.in_flight, levels=levels
    )
    print_report(report, console)
    if args.out is not None:
        args.out.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
