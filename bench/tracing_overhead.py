"""Run time of one benchmark run with tracing off and on, side by side in one process.

The same oracle run (default: retail test, all 115 tasks, embedded services, scripted user) is
repeated with telemetry off and on, alternating, after one discarded warm-up. "On" exports traces
and metrics by OTLP/gRPC to a receiver in this process (so the export cost is paid here, as it
would be with a local Jaeger). Prints each repetition, the medians and the on/off ratio.

    .venv/bin/python bench/tracing_overhead.py [--reps 3] [--env retail] [--split test] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from taumesh.models import AgentSettings, UserSettings  # noqa: E402
from taumesh.orchestrator.config import RunConfig  # noqa: E402
from taumesh.orchestrator.runner import run_benchmark  # noqa: E402
from taumesh.telemetry import setup_telemetry, shutdown_telemetry  # noqa: E402
from tests.telemetry.receiver import OtlpReceiver  # noqa: E402  (the tests' OTLP/gRPC receiver)

DEFAULT_DATA = Path(os.environ.get("TAUMESH_DATA_DIR", PROJECT_ROOT.parent / "shared" / "taubench_v1"))


def one_run(args: argparse.Namespace, endpoint: str | None, log_dir: Path) -> tuple[float, float, int]:
    """(run seconds, flush seconds, episodes) of one run; tracing on when ``endpoint`` is given."""
    config = RunConfig(
        env=args.env,
        task_split=args.split,
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        max_concurrency=args.concurrency,
        data_dir=args.data_dir,
        log_dir=log_dir,
        show_progress=False,
    )
    setup_telemetry("orchestrator", endpoint, set_global=False)
    started = time.perf_counter()
    try:
        summary = asyncio.run(run_benchmark(config))
    finally:
        ran = time.perf_counter() - started
        shutdown_telemetry()
    flushed = time.perf_counter() - started - ran
    rewarded = sum(1 for r in summary.results if r.reward == 1.0)
    if rewarded != len(summary.results):
        raise SystemExit(f"oracle run scored {rewarded}/{len(summary.results)}: not a valid measurement")
    return ran, flushed, len(summary.results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each mode (alternating)")
    parser.add_argument("--env", default="retail")
    parser.add_argument("--split", default="test")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    for name in [n for n in os.environ if n.startswith("OTEL_")]:
        del os.environ[name]  # "off" must really be off

    receiver = OtlpReceiver()
    times: dict[str, list[float]] = {"off": [], "on": []}
    flushes: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            one_run(args, None, Path(tmp) / "warmup")
            print(f"{args.env} {args.split}, oracle agent, scripted user, concurrency {args.concurrency}, embedded")
            print(f"{'rep':>3}  {'mode':<4} {'run s':>8} {'flush s':>8} {'episodes':>8} {'spans':>7}")
            for rep in range(1, args.reps + 1):
                for mode in ("off", "on") if rep % 2 else ("on", "off"):
                    endpoint = receiver.endpoint if mode == "on" else None
                    ran, flushed, episodes = one_run(args, endpoint, Path(tmp) / f"{mode}{rep}")
                    times[mode].append(ran)
                    if mode == "on":
                        flushes.append(flushed)
                    spans = receiver.span_count()
                    receiver.clear()
                    print(f"{rep:>3}  {mode:<4} {ran:>8.3f} {flushed:>8.3f} {episodes:>8} {spans:>7}")
    finally:
        receiver.stop()

    off, on = statistics.median(times["off"]), statistics.median(times["on"])
    print(f"median off {off:.3f}s   median on {on:.3f}s   on/off ratio {on / off:.3f}")
    print(f"median flush at shutdown (on) {statistics.median(flushes):.3f}s (not included in the run times)")


if __name__ == "__main__":
    main()
