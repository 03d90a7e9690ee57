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


def test_llm_call_compares_its_variants_in_one_process(
    tau2_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    import litellm.utils as litellm_utils

    from taumesh.llm._litellm import _success_logging_when_heard

    out = tmp_path / "calls.json"
    argv = ["--rounds", "2", "--calls", "4", "--in-flight", "2", "--out", str(out)]
    printed = run_bench("llm_call", argv, capsys, monkeypatch)
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert set(figures) == {"lean", "stock", "priced"} and all(len(v) == 2 and min(v) > 0 for v in figures.values())
    assert "stock   CPU ms/call median" in printed and "ratio 1.00" in printed, printed
    assert litellm_utils._dispatch_success_logging is _success_logging_when_heard  # the default is back
