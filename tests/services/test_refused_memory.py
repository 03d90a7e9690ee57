"""bench/refused_memory.py: refused requests leave each service's memory flat (issue 22's probe).

The slow test is the probe itself: each of the four services as a ``taumesh serve`` process, 60 refused 20 MB
requests (over the cap), then as many bytes again in requests just under the cap that the servicer refuses;
each phase must grow the process by less than 300 MB. Before the fix each phase grew it by about 2.4 GB.
The quick test runs the bench at its smallest size, so that it cannot rot. Both run the bench's ``main`` inside
the test process (the services stay processes of their own: their RSS is what is measured).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "refused_memory.py"
MAX_GROWTH = 300 * 1_000_000
SERVICES = ["agent", "env", "scorer", "user-sim"]
REFUSED_BY_SERVICER = {"agent": "INVALID_ARGUMENT", "env": "NOT_FOUND", "scorer": "INVALID_ARGUMENT",
                       "user-sim": "INVALID_ARGUMENT"}  # fmt: skip


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refused_memory", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def run_bench(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, dict[str, Any]]:
    """The bench's command line, run in this process (no interpreter to start and import); its figures."""
    out = tmp_path / "refused.json"
    bench().main([*args, "--out", str(out)])
    assert "under cap: sent" in capsys.readouterr().out
    return {found["service"]: found for found in json.loads(out.read_text())["services"]}


@pytest.mark.slow
def test_sixty_refused_20_mb_requests_leave_each_service_flat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = run_bench(tmp_path, capsys, "--count", "60", "--size-mb", "20")
    assert sorted(figures) == SERVICES
    for name, found in figures.items():
        at_size, under = found["at_size"], found["under_cap"]
        assert at_size["codes"] == {"RESOURCE_EXHAUSTED": 60}, (name, at_size)  # 20 MB: over every cap
        assert under["codes"] == {REFUSED_BY_SERVICER[name]: under["requests"]}, (name, under)
        assert under["requests"] * under["request_bytes"] >= 60 * 20_000_000  # as many bytes, decoded and refused
        assert at_size["rss_growth_bytes"] < MAX_GROWTH, (name, found)
        assert under["rss_growth_bytes"] < MAX_GROWTH, (name, found)


def test_the_bench_runs_at_its_smallest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # no settling before each RSS reading: what this test checks are the codes and counts, not the memory
    figures = run_bench(tmp_path, capsys, "--count", "2", "--size-mb", "1", "--services", "scorer", "--settle", "0")
    scorer = figures["scorer"]
    assert scorer["at_size"]["codes"] == {"INVALID_ARGUMENT": 2}  # 1 MB is under the cap: the servicer refuses
    assert scorer["under_cap"]["requests"] == 1
    assert scorer["cap_bytes"] == 16 * 2**20
