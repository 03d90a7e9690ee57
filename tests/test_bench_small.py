"""The benches without a test of their own run at their smallest size, so they cannot rot (no time is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench"


def run_bench(*argv: str) -> str:
    done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_replay_retail_runs_its_three_sections(v1_data_dir: Path) -> None:
    size = ["--repeats", "1", "--sessions", "5", "--limit", "5"]
    out = run_bench(str(BENCH / "replay_retail.py"), *size, "--data-dir", str(v1_data_dir))
    assert "5 tasks" in out and "rewards: 5/5 episodes scored 1.0" in out, out
    assert "naive/cow" in out and "every task's copy-on-write hash equals its naive hash" in out, out


def test_user_sim_scaling_compares_one_and_two_processes(tau2_data: Path) -> None:
    out = run_bench(str(BENCH / "user_sim_scaling.py"), "--cpu-ms", "5", "--num-tasks", "4", "--concurrency", "4")
    assert "speed-up of 2 user-sim processes over 1" in out, out
