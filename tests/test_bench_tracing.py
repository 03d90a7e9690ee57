"""bench/tracing_overhead.py runs at a tiny scale and reports both cases (no timing asserted: the machine is shared)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BENCH = PROJECT_ROOT / "bench" / "tracing_overhead.py"
RATIO = re.compile(r"^(oracle|latency) on/off ratio: wall (\d+\.\d+)  CPU (\d+\.\d+)", re.MULTILINE)
RUN = re.compile(r"^\s+1  (off|on)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+4\s+(\d+)$", re.MULTILINE)


def test_the_bench_measures_tracing_off_and_on_in_both_cases(v1_data_dir: Path) -> None:
    argv = [sys.executable, str(BENCH), "--reps", "1", "--num-tasks", "4", "--data-dir", str(v1_data_dir)]
    argv += ["--latency-concurrency", "4", "--agent-latency-ms", "20", "--user-latency-ms", "10"]
    argv += ["--no-warm-up"]  # its warm-ups only keep imports out of the times, which no test reads
    done = subprocess.run(argv, capture_output=True, text=True, cwd=PROJECT_ROOT, env=os.environ, timeout=600)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-4000:])

    assert [case for case, _, _ in RATIO.findall(done.stdout)] == ["oracle", "latency"]
    assert all(float(wall) > 0 and float(cpu) > 0 for _, wall, cpu in RATIO.findall(done.stdout))
    runs = RUN.findall(done.stdout)  # each case: one run off (no spans reach the receiver), one on (spans do)
    assert len(runs) == 4, done.stdout
    assert all(int(spans) == 0 for mode, spans in runs if mode == "off")
    assert all(int(spans) > 4 * 20 for mode, spans in runs if mode == "on")
