"""The benches without a test of their own run at their smallest size, so they cannot rot (no time is asserted).

Each bench's ``main`` runs in the test process (no interpreter to start and import); the processes a bench starts
itself (user-sim replicas) stay processes.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from tests.helpers.bench import load_bench

pytestmark = pytest.mark.slow


def run_bench(name: str, argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """``bench/NAME.py ARGV``'s ``main`` in this process; what it printed."""
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *argv])  # for a main that reads the command line itself
    capsys.readouterr()
    main = load_bench(name).main
    if "argv" in inspect.signature(main).parameters:
        main(argv)
    else:
        main()
    return capsys.readouterr().out


def test_replay_retail_runs_its_three_sections(
    v1_data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    size = ["--repeats", "1", "--sessions", "5", "--limit", "5"]
    out = run_bench("replay_retail", [*size, "--data-dir", str(v1_data_dir)], capsys, monkeypatch)
    assert "5 tasks" in out and "rewards: 5/5 episodes scored 1.0" in out, out
    assert "naive/cow" in out and "every task's copy-on-write hash equals its naive hash" in out, out


def test_user_sim_scaling_compares_one_and_two_processes(
    tau2_data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--cpu-ms", "5", "--num-tasks", "4", "--concurrency", "4"]
    out = run_bench("user_sim_scaling", argv, capsys, monkeypatch)
    assert "speed-up of 2 user-sim processes over 1" in out, out
