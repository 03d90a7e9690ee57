"""Start-up of the `taumesh` command (issue 13, item 3): `taumesh --help`, and time to the first episode starting.

Both are measured as a user meets them: a fresh `taumesh` process per repetition, timed from just before it is
launched. The first episode counts as started when the run's plain progress line (printed every
``TAUMESH_PROGRESS_INTERVAL`` seconds off a terminal, here every 10 ms) first shows an episode in flight or done.
The run is the embedded default: all services in the `taumesh run` process on loopback gRPC, oracle agent and
scripted user over τ² retail (`taumesh data fetch tau2` first). The interpreter's own start (`python -c pass`) is
printed beside them for scale. Nothing is asserted about time.

    .venv/bin/python bench/startup.py              # 5 repetitions of each
    .venv/bin/python bench/startup.py --repeats 1 --no-warm-up  # what tests/test_bench_startup.py runs
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_TARGET_S = 0.3
FIRST_EPISODE_TARGET_S = 1.0
PROGRESS = re.compile(r"progress: .* (\d+)/\d+ .*\| in flight (\d+) ")


def taumesh_command() -> list[str]:
    """The installed `taumesh` script beside this interpreter (as a user runs it), else ``python -m``."""
    script = Path(sys.executable).with_name("taumesh")
    return [str(script)] if script.exists() else [sys.executable, "-m", "taumesh.cli"]


def time_command(command: list[str]) -> float:
    """Seconds from launch to exit of ``command``, which must succeed."""
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def time_to_first_episode(log_dir: Path) -> float:
    """Seconds from launching an embedded `taumesh run` to its progress line first showing an episode started."""
    command = [
        *taumesh_command(),
        "run",
        "--env",
        "tau2-retail",
        "--agent-strategy",
        "oracle",
        "--user-strategy",
        "scripted",
        "--num-tasks",
        "1",
        "--log-dir",
        str(log_dir),
    ]
    environment = {**os.environ, "TAUMESH_PROGRESS_INTERVAL": "0.01", "COLUMNS": "400"}
    started = time.perf_counter()
    with subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment
    ) as process:
        assert process.stderr is not None
        seen: float | None = None
        others: list[str] = []
        for line in process.stderr:
            match = PROGRESS.search(line)
            if seen is None and match and (int(match[1]) or int(match[2])):
                seen = time.perf_counter() - started
            elif not match:
                others.append(line)
        if process.wait() != 0 or seen is None:
            raise SystemExit(
                f"`{' '.join(command)}` failed or printed no progress (exit {process.returncode}):\n"
                + "".join(others[-20:])
            )
    return seen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="launches of each command (default 5)")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    parser.add_argument(
        "--warm-up",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="one discarded run first, warming the file cache (default); --no-warm-up: a smoke run",
    )
    args = parser.parse_args(argv)

    interpreter = [time_command([sys.executable, "-c", "pass"]) for _ in range(args.repeats)]
    help_times = [time_command([*taumesh_command(), "--help"]) for _ in range(args.repeats)]
    log_dir = Path(tempfile.mkdtemp(prefix="taumesh-startup-"))
    try:
        if args.warm_up:
            time_to_first_episode(log_dir)  # warm the file cache once, as a user's second run would be
        first = [time_to_first_episode(log_dir) for _ in range(args.repeats)]
    finally:
        shutil.rmtree(log_dir, ignore_errors=True)

    figures = {
        "python -c pass": statistics.median(interpreter),
        "taumesh --help": statistics.median(help_times),
        "first episode started (embedded run)": statistics.median(first),
    }
    targets = {"taumesh --help": HELP_TARGET_S, "first episode started (embedded run)": FIRST_EPISODE_TARGET_S}
    print(f"start-up, median of {args.repeats} launches (load average {os.getloadavg()[0]:.2f}):")
    for name, seconds in figures.items():
        target = targets.get(name)
        verdict = "" if target is None else f"  target ≤ {target:.1f} s: {'met' if seconds <= target else 'NOT met'}"
        print(f"  {name:<40} {seconds:6.3f} s{verdict}")
    if args.out:
        args.out.write_text(json.dumps({"median_seconds": figures, "targets_seconds": targets}, indent=2))


if __name__ == "__main__":
    main()
