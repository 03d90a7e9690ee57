"""bench/refused_memory.py: refused requests leave each service's memory flat (issue 22's probe).

The slow test is the probe itself: each of the four services as a ``taumesh serve`` process, 60 refused 20 MB
requests (over the cap), then as many bytes again in requests just under the cap that the servicer refuses;
each phase must grow the process by less than 300 MB. Before the fix each phase grew it by about 2.4 GB.
The quick test runs the bench at its smallest size, so that it cannot rot.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "refused_memory.py"
MAX_GROWTH = 300 * 1_000_000
SERVICES = ["agent", "env", "scorer", "user-sim"]
REFUSED_BY_SERVICER = {"agent": "INVALID_ARGUMENT", "env": "NOT_FOUND", "scorer": "INVALID_ARGUMENT",
                       "user-sim": "INVALID_ARGUMENT"}  # fmt: skip


def run_bench(tmp_path: Path, *args: str, timeout: float) -> dict[str, dict[str, Any]]:
    out = tmp_path / "refused.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), *args, "--out", str(out)], capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    assert "under cap: sent" in done.stdout
    return {found["service"]: found for found in json.loads(out.read_text())["services"]}


@pytest.mark.slow
def test_sixty_refused_20_mb_requests_leave_each_service_flat(tmp_path: Path) -> None:
    figures = run_bench(tmp_path, "--count", "60", "--size-mb", "20", timeout=1800)
    assert sorted(figures) == SERVICES
    for name, found in figures.items():
        at_size, under = found["at_size"], found["under_cap"]
        assert at_size["codes"] == {"RESOURCE_EXHAUSTED": 60}, (name, at_size)  # 20 MB: over every cap
        assert under["codes"] == {REFUSED_BY_SERVICER[name]: under["requests"]}, (name, under)
        assert under["requests"] * under["request_bytes"] >= 60 * 20_000_000  # as many bytes, decoded and refused
        assert at_size["rss_growth_bytes"] < MAX_GROWTH, (name, found)
        assert under["rss_growth_bytes"] < MAX_GROWTH, (name, found)


def test_the_bench_runs_at_its_smallest(tmp_path: Path) -> None:
    figures = run_bench(tmp_path, "--count", "2", "--size-mb", "1", "--services", "scorer", timeout=300)
    scorer = figures["scorer"]
    assert scorer["at_size"]["codes"] == {"INVALID_ARGUMENT": 2}  # 1 MB is under the cap: the servicer refuses
    assert scorer["under_cap"]["requests"] == 1
    assert scorer["cap_bytes"] == 16 * 2**20
