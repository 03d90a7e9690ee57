"""bench/forks.py runs at its smallest size on a fork the test writes: import, check, oracle, sessions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.forks.tinyfork import write_fork

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench" / "forks.py"


def test_the_forks_bench_imports_checks_runs_the_oracle_and_measures_sessions(tmp_path: Path) -> None:
    fork = write_fork(tmp_path / "tiny")
    out = tmp_path / "forks.json"
    env = dict(os.environ, TAUMESH_FORK_TOOL_DEADLINE="2", OTEL_SDK_DISABLED="true")
    command = [sys.executable, str(BENCH), "--fork", f"{fork}:tiny", "--oracle", "--sessions", "10", "--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    [tiny] = figures["forks"]
    assert (tiny["found"], tiny["loaded"]) == (5, 2)
    counter = tiny["envs"]["counter"]
    assert counter["tasks"] == 7 and counter["oracle_tasks"] == 7
    assert counter["oracle_below_1"] >= 1 and counter["oracle_below_1_unflagged"] == []  # the hanging task, flagged
    assert tiny["envs"]["copycat"]["copied"] == 2
    sessions = figures["sessions"]
    assert sessions["isolated"] and sessions["sessions"] == 10 and sessions["multiple_of_data"] > 0
