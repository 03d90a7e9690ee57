"""bench/startup.py runs at its smallest size and reports all three figures (no time is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench" / "startup.py"


def test_the_startup_bench_reports_help_and_first_episode(tau2_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "startup.json"
    argv = [sys.executable, str(BENCH), "--repeats", "1", "--no-warm-up", "--out", str(out)]  # no timing is read
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "taumesh --help" in done.stdout and "first episode started" in done.stdout
    figures = json.loads(out.read_text())["median_seconds"]
    assert set(figures) == {"python -c pass", "taumesh --help", "first episode started (embedded run)"}
    assert all(seconds > 0 for seconds in figures.values())
