"""Throughput with 1 and with 2 user-sim processes when each user reply costs CPU, side by side in one run.

Each user-sim process is started with ``--user-reply-cpu-ms`` (200 by default): every reply burns that much CPU,
as a model served beside the simulator would. The orchestrator, with env, agent and scorer embedded, reaches
the user-sim replicas through one target in gRPC's list form (``ipv4:HOST:P1,HOST:P2``), as a DNS name with
several pods resolves, and spreads the calls with ``round_robin``. Prints episodes per second for each count and
the speed-up of two processes over one (ideal: 2× on a machine with two free cores). Both user-sim processes are
started once, through the project's process harness; the one-process run uses the first of them.

    .venv/bin/python bench/user_sim_scaling.py [--cpu-ms 200] [--env tau2-retail] [--split test] [--concurrency 16]

Data: the fetched τ² data (``taumesh data fetch tau2``), or ``--data-dir`` with ``--env retail`` for τ-bench v1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from taumesh.data import taubench_v1_dir  # noqa: E402
from taumesh.models import AgentSettings, UserSettings  # noqa: E402
from taumesh.orchestrator.benchmark import run_benchmark  # noqa: E402
from taumesh.orchestrator.config import RunConfig, ServiceAddresses  # noqa: E402
from taumesh.stats import is_success  # noqa: E402
from taumesh.testing.processes import SERVING, ServerProcess, serve_argv, stop_all  # noqa: E402


def start_user_sims(count: int, cpu_ms: float, log_dir: Path) -> list[ServerProcess]:
    """``count`` user-sim processes burning ``cpu_ms`` per reply (the project's process harness), all serving."""
    argv = serve_argv("user-sim", "--user-reply-cpu-ms", str(cpu_ms))
    sims = [ServerProcess.spawn(argv, log_dir / f"user-sim-{n}.log") for n in range(count)]  # they start at once
    try:
        for sim in sims:
            sim.wait_ready(SERVING).wait_healthy()
    except BaseException:
        stop_all(sims)
        raise
    return sims


def one_run(args: argparse.Namespace, user_sims: list[ServerProcess], log_dir: Path) -> tuple[float, int]:
    """(seconds, episodes) of one oracle run against the ``user_sims`` processes."""
    config = RunConfig(
        env=args.env,
        task_split=args.split,
        end_index=args.num_tasks or -1,
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        max_concurrency=args.concurrency,
        data_dir=args.data_dir,
        log_dir=log_dir,
        show_progress=False,
        addresses=ServiceAddresses(user="ipv4:" + ",".join(sim.address for sim in user_sims)),
    )
    started = time.perf_counter()
    summary = asyncio.run(run_benchmark(config))
    seconds = time.perf_counter() - started
    rewarded = sum(1 for r in summary.results if r.reward is not None and is_success(r.reward))
    if rewarded != len(summary.results):
        raise SystemExit(f"oracle run scored {rewarded}/{len(summary.results)}: not a valid measurement")
    return seconds, len(summary.results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-ms", type=float, default=200.0, help="CPU each user reply burns, in ms")
    parser.add_argument("--env", default="tau2-retail")
    parser.add_argument("--split", default="test")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--num-tasks", type=int, default=0, help="only the split's first N tasks (0: all)")
    parser.add_argument("--data-dir", type=Path, default=taubench_v1_dir())
    args = parser.parse_args()
    rates: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        user_sims = start_user_sims(2, args.cpu_ms, Path(tmp))
        try:
            print(f"{args.env} {args.split}, oracle agent, scripted user burning {args.cpu_ms:.0f} ms CPU per reply")
            print(f"{'user-sim processes':>18} {'episodes':>9} {'seconds':>8} {'episodes/s':>11}")
            for processes in (1, 2):
                seconds, episodes = one_run(args, user_sims[:processes], Path(tmp) / str(processes))
                rates[processes] = episodes / seconds
                print(f"{processes:>18} {episodes:>9} {seconds:>8.2f} {rates[processes]:>11.2f}")
        finally:
            stop_all(user_sims)  # SIGTERM to both at once: they drain in parallel
    print(f"speed-up of 2 user-sim processes over 1: {rates[2] / rates[1]:.2f}x (ideal on two free cores: 2x)")


if __name__ == "__main__":
    main()
