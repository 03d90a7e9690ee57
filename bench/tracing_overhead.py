"""Run time and CPU of one benchmark run with tracing off and on, side by side in one process (issue 13, item 4).

Two cases, each repeated with telemetry off and on, alternating, after a discarded warm-up in each mode:

- ``oracle``: the offline run (default: retail test, all 115 tasks, oracle agent, scripted user, the four services
  embedded on loopback gRPC, 8 episodes in flight). No model latency hides anything: nearly all the time is gRPC
  between the services, the worst case for tracing (target: on/off ≤ 1.3).
- ``latency``: the same episodes with simulated model latency: the agent answers every step after
  ``--agent-latency-ms`` (200) and the user every message after ``--user-latency-ms`` (100), as asyncio sleeps in
  their services (``agent_service(reply_latency_ms=…)``, ``user_sim_service(reply_latency_ms=…)``, the settings behind
  ``taumesh serve … --agent-reply-latency-ms``/``--user-reply-latency-ms``). This bench starts those two services in
  this process with the run's telemetry, like the embedded stack starts the other two. ``--latency-concurrency``
  (16) episodes are in flight: an episode then sleeps about 1.5 s and costs about 30 ms of CPU untraced, so the
  harness keeps about a third of a core busy untraced (and about 60 % traced). The run is neither trivially
  latency-bound (at 1 in flight tracing could cost anything and not show) nor CPU-saturated (it would then measure
  the oracle case again: at 32 in flight the traced run already saturates the event loop). Target: ≤ 1.1.

"On" exports traces and metrics by OTLP/gRPC to the tests' receiver running in a child process, as a collector on
the same machine would: creating, scrubbing, encoding and sending the spans is paid in this process; receiving
them is not (in this process it held the GIL for about 25 µs per span, a cost no real collector puts on taumesh).
``--receiver-in-process`` puts it back here. Each repetition prints wall time, the process's CPU time and spans
received; then the medians and the on/off ratios of both. CPU time is the steadier figure on a shared machine.

    .venv/bin/python bench/tracing_overhead.py [--reps 3] [--cases oracle latency] [--concurrency 8]
    .venv/bin/python bench/tracing_overhead.py --reps 1 --num-tasks 4 --latency-concurrency 4 \\
        --agent-latency-ms 20 --user-latency-ms 10 --no-warm-up   # the test's tiny configuration
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from taumesh.domains import Catalog  # noqa: E402
from taumesh.models import AgentSettings, UserSettings  # noqa: E402
from taumesh.orchestrator.benchmark import run_benchmark  # noqa: E402
from taumesh.orchestrator.config import RunConfig, ServiceAddresses  # noqa: E402
from taumesh.orchestrator.run.runner import RunSummary  # noqa: E402
from taumesh.rpc.loop import run  # noqa: E402
from taumesh.rpc.server import start_server  # noqa: E402
from taumesh.services.agent import agent_service  # noqa: E402
from taumesh.services.user_sim import user_sim_service  # noqa: E402
from taumesh.stats import is_success  # noqa: E402
from taumesh.telemetry import current, setup_telemetry, shutdown_telemetry  # noqa: E402
from tests.telemetry.receiver import OtlpReceiver  # noqa: E402  (the tests' OTLP/gRPC receiver)

DEFAULT_DATA = Path(os.environ.get("TAUMESH_DATA_DIR", PROJECT_ROOT.parent / "shared" / "taubench_v1"))
CASES = ("oracle", "latency")
TARGETS = {"oracle": 1.3, "latency": 1.1}


RECEIVER_PROCESS = """
import sys
from tests.telemetry.receiver import OtlpReceiver
receiver = OtlpReceiver()
print(receiver.endpoint, flush=True)
for command in sys.stdin:
    if command.strip() == "count":
        print(receiver.span_count(), flush=True)
    elif command.strip() == "clear":
        receiver.clear()
        print("ok", flush=True)
receiver.stop()
"""


class ReceiverProcess:
    """The tests' OTLP receiver in a child process, asked for its span count over a pipe."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", RECEIVER_PROCESS],
            cwd=PROJECT_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.endpoint = self._answer()

    def _answer(self, command: str | None = None) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        if command:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def span_count(self) -> int:
        return int(self._answer("count"))

    def clear(self) -> None:
        self._answer("clear")

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


Receiver = OtlpReceiver | ReceiverProcess


@dataclass
class Measured:
    """One run: wall seconds, CPU seconds of this process (run only), seconds to flush at the end, episodes."""

    wall: float
    cpu: float
    flush: float
    episodes: int


def run_config(args: argparse.Namespace, case: str, log_dir: Path, addresses: ServiceAddresses) -> RunConfig:
    return RunConfig(
        env=args.env,
        task_split=args.split,
        end_index=args.num_tasks or -1,
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        max_concurrency=args.concurrency if case == "oracle" else args.latency_concurrency,
        data_dir=args.data_dir,
        log_dir=log_dir,
        show_progress=False,
        addresses=addresses,
    )


async def run_case(args: argparse.Namespace, case: str, catalog: Catalog, log_dir: Path) -> RunSummary:
    """One run; for ``latency``, with the agent and user-sim services (slowed down) started here first."""
    if case == "oracle":
        return await run_benchmark(run_config(args, case, log_dir, ServiceAddresses()))
    telemetry = current()
    agent = await start_server(
        [agent_service(catalog, reply_latency_ms=args.agent_latency_ms)],
        interceptors=telemetry.service("agent").server_interceptors(),
    )
    user = await start_server(
        [user_sim_service(reply_latency_ms=args.user_latency_ms)],
        interceptors=telemetry.service("user-sim").server_interceptors(),
    )
    try:
        addresses = ServiceAddresses(agent=agent.address, user=user.address)
        return await run_benchmark(run_config(args, case, log_dir, addresses))
    finally:
        await agent.stop(grace=1.0)
        await user.stop(grace=1.0)


def one_run(args: argparse.Namespace, case: str, catalog: Catalog, endpoint: str | None, log_dir: Path) -> Measured:
    """One run of ``case``; tracing on when ``endpoint`` is given."""
    setup_telemetry("orchestrator", endpoint, set_global=False)
    cpu, started = time.process_time(), time.perf_counter()
    try:
        summary = run(run_case(args, case, catalog, log_dir))  # as taumesh run runs it (taumesh.rpc.loop)
    finally:
        ran, cpu = time.perf_counter() - started, time.process_time() - cpu
        shutdown_telemetry()
    flushed = time.perf_counter() - started - ran
    rewarded = sum(1 for r in summary.results if r.reward is not None and is_success(r.reward))
    if rewarded != len(summary.results) or not summary.results:
        raise SystemExit(f"oracle run scored {rewarded}/{len(summary.results)}: not a valid measurement")
    return Measured(ran, cpu, flushed, len(summary.results))


def describe(args: argparse.Namespace, case: str) -> str:
    what = f"{args.env} {args.split}, oracle agent, scripted user, "
    if case == "oracle":
        return what + f"concurrency {args.concurrency}, embedded"
    return what + (
        f"concurrency {args.latency_concurrency}, agent replies after {args.agent_latency_ms:.0f} ms, "
        f"user after {args.user_latency_ms:.0f} ms"
    )


def measure(args: argparse.Namespace, case: str, catalog: Catalog, receiver: Receiver, tmp: Path) -> None:
    """Warm up, alternate off and on ``--reps`` times, print each run, the medians and the ratios.

    The warm-up runs once in each mode, so one-time imports (the SDK, the exporter) fall in neither measurement;
    ``--no-warm-up`` (a smoke run: its first runs carry those imports) skips it.
    """
    if args.warm_up:
        one_run(args, case, catalog, None, tmp / f"{case}-warmup-off")
        one_run(args, case, catalog, receiver.endpoint, tmp / f"{case}-warmup-on")
    receiver.clear()
    print(f"\n[{case}] {describe(args, case)}")
    print(f"{'rep':>3}  {'mode':<4} {'wall s':>8} {'CPU s':>8} {'flush s':>8} {'episodes':>8} {'spans':>7}")
    runs: dict[str, list[Measured]] = {"off": [], "on": []}
    for rep in range(1, args.reps + 1):
        for mode in ("off", "on") if rep % 2 else ("on", "off"):
            endpoint = receiver.endpoint if mode == "on" else None
            measured = one_run(args, case, catalog, endpoint, tmp / f"{case}-{mode}{rep}")
            runs[mode].append(measured)
            spans = receiver.span_count()
            receiver.clear()
            print(
                f"{rep:>3}  {mode:<4} {measured.wall:>8.3f} {measured.cpu:>8.3f} {measured.flush:>8.3f} "
                f"{measured.episodes:>8} {spans:>7}"
            )
    wall = {mode: statistics.median(m.wall for m in measured) for mode, measured in runs.items()}
    cpu = {mode: statistics.median(m.cpu for m in measured) for mode, measured in runs.items()}
    print(f"median wall: off {wall['off']:.3f}s  on {wall['on']:.3f}s")
    print(f"median CPU:  off {cpu['off']:.3f}s  on {cpu['on']:.3f}s")
    print(
        f"{case} on/off ratio: wall {wall['on'] / wall['off']:.3f}  CPU {cpu['on'] / cpu['off']:.3f}  "
        f"(target <= {TARGETS[case]})"
    )
    print(f"median flush at shutdown (on) {statistics.median(m.flush for m in runs['on']):.3f}s (not in the times)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each mode (alternating)")
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--env", default="retail")
    parser.add_argument("--split", default="test")
    parser.add_argument("--num-tasks", type=int, default=0, help="only the first N tasks of the split (0: all)")
    parser.add_argument("--concurrency", type=int, default=8, help="episodes in flight, oracle case")
    parser.add_argument("--latency-concurrency", type=int, default=16, help="episodes in flight, latency case")
    parser.add_argument("--agent-latency-ms", type=float, default=200.0)
    parser.add_argument("--user-latency-ms", type=float, default=100.0)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--receiver-in-process", action="store_true", help="receive the spans in this process")
    parser.add_argument(
        "--warm-up",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="a discarded run in each mode first (default); --no-warm-up: a smoke run, its first times hold imports",
    )
    args = parser.parse_args()
    for name in [n for n in os.environ if n.startswith("OTEL_")]:
        del os.environ[name]  # "off" must really be off

    receiver: Receiver = OtlpReceiver() if args.receiver_in_process else ReceiverProcess()
    catalog = Catalog(args.data_dir)  # the latency case's agent: one copy of the data for every run
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for case in args.cases:
                measure(args, case, catalog, receiver, Path(tmp))
    finally:
        receiver.stop()


if __name__ == "__main__":
    main()
