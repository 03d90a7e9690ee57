"""The viewer's JSON API, served as ``taumesh view`` serves it: numbers equal those computed from the results files."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.stats import SUCCESS_TOLERANCE
from taumesh.viewer.runs import load_run
from tests.helpers.viewer import (
    AGENT_COST,
    DIVERGING_STEP,
    DIVERGING_TASK,
    ERROR_TASK,
    INCONSISTENT_TASK,
    TASKS,
    TRIALS,
    USER_COST,
    ServedViewer,
)
from tests.helpers.viewer_thread import ThreadViewer

pytestmark = pytest.mark.slow  # every test reads the session's real runs (taumesh run, 18 episodes): seconds


def expected_pass_hat_k(path: Path) -> dict[str, float]:
    """τ-bench's pass^k straight from the file: the mean over tasks of C(c, k) / C(n, k)."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    trials = len({e["trial"] for e in entries})
    successes: dict[str, int] = {}
    for entry in entries:
        successes[str(entry["task_id"])] = successes.get(str(entry["task_id"]), 0) + (entry["reward"] == 1.0)
    return {
        str(k): sum(comb(c, k) / comb(trials, k) for c in successes.values()) / len(successes)
        for k in range(1, trials + 1)
    }


def test_run_list_holds_both_runs_with_their_formats(viewer: ThreadViewer, failing_run: Path) -> None:
    runs = viewer.get("/api/runs")
    assert len(runs) == 2  # the oracle's τ² twin (X.tau2.json) is the same run, not a third
    failing = viewer.get(f"/api/runs/{viewer.run_id(failing_run)}")
    assert failing["format"] == "taumesh"
    assert failing["config"]["agent"]["strategy"] == "oracle"


def recorded_simulator(path: Path) -> str:
    """The one user-simulator version every entry of ``path`` records (``info.user_sim_version``)."""
    (version,) = {entry["info"]["user_sim_version"] for entry in json.loads(path.read_text(encoding="utf-8"))}
    return str(version)


def test_each_run_shows_the_user_simulator_its_file_records(
    viewer: ThreadViewer, oracle_run: Path, failing_run: Path
) -> None:
    by_id = {run["run_id"]: run for run in viewer.get("/api/runs")}
    for path in (oracle_run, failing_run):
        version = recorded_simulator(path)
        assert version.startswith("custom:scripted")  # the scripted user is no registered simulator
        assert by_id[viewer.run_id(path)]["user_sim_version"] == version
        assert viewer.get(f"/api/runs/{viewer.run_id(path)}")["summary"]["user_sim_version"] == version
    assert load_run(oracle_run.with_name(oracle_run.stem + ".tau2.json")).user_sim_versions == ["unrecorded"]


def test_a_file_mixing_simulators_names_each(tmp_path: Path, oracle_run: Path) -> None:
    """A run begun before the registry and resumed after it: the entries recording none count as unrecorded."""
    entries = json.loads(oracle_run.read_text(encoding="utf-8"))
    del entries[0]["info"]["user_sim_version"]
    entries[1]["info"]["user_sim_version"] = "tau-bench-v1"
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps(entries), encoding="utf-8")
    served = ThreadViewer([mixed])
    try:
        (run,) = served.get("/api/runs")
    finally:
        served.close()
    assert run["user_sim_version"] == f"{recorded_simulator(oracle_run)}, tau-bench-v1, unrecorded"


def test_pass_hat_k_and_costs_equal_the_files(viewer: ThreadViewer, oracle_run: Path, failing_run: Path) -> None:
    oracle = viewer.get(f"/api/runs/{viewer.run_id(oracle_run)}")["summary"]
    assert oracle["pass_hat_k"] == pytest.approx({str(k): 1.0 for k in range(1, TRIALS + 1)})
    summary = viewer.get(f"/api/runs/{viewer.run_id(failing_run)}")["summary"]
    assert summary["pass_hat_k"] == pytest.approx(expected_pass_hat_k(failing_run))
    assert summary["pass_hat_k"]["1"] != pytest.approx(1.0)
    assert summary["errors"] == 1
    assert summary["scored"] == len(TASKS) * TRIALS - 1
    successes = len(TASKS) * TRIALS - 1 - 2 - TRIALS  # 2 failed trials of the inconsistent task, all of the diverging
    assert summary["successes"] == successes
    total = summary["scored"] * (AGENT_COST + USER_COST)
    assert summary["cost_per_task"] == pytest.approx(total / summary["scored"])
    assert summary["cost_per_solved_task"] == pytest.approx(total / successes)


def _tasks(viewer: ThreadViewer, run_id: str, query: str) -> dict[str, Any]:
    page: dict[str, Any] = viewer.get(f"/api/runs/{run_id}/tasks?{query}")
    return page


def test_task_grid_filters_and_pages(viewer: ThreadViewer, failing_run: Path) -> None:
    run_id = viewer.run_id(failing_run)
    assert [r["task_id"] for r in _tasks(viewer, run_id, "filter=failed")["rows"]] == [
        INCONSISTENT_TASK,
        DIVERGING_TASK,
    ]
    assert [r["task_id"] for r in _tasks(viewer, run_id, "filter=inconsistent")["rows"]] == [INCONSISTENT_TASK]
    errors = _tasks(viewer, run_id, "filter=errors")["rows"]
    assert [r["task_id"] for r in errors] == [ERROR_TASK]
    assert errors[0]["rewards"]["0"] is None
    page = _tasks(viewer, run_id, "offset=2&limit=3")
    assert (page["total"], [r["task_id"] for r in page["rows"]]) == (len(TASKS), TASKS[2:5])
    assert page["success_tolerance"] == SUCCESS_TOLERANCE  # the page's colours follow the server's success test


def test_episode_reports_the_first_divergence_and_failed_checks(viewer: ThreadViewer, failing_run: Path) -> None:
    detail = viewer.get(f"/api/runs/{viewer.run_id(failing_run)}/episodes/{DIVERGING_TASK}/0")
    divergence = detail["divergence"]
    assert divergence["index"] == DIVERGING_STEP
    calls = [i for i, m in enumerate(detail["episode"]["messages"]) if m["role"] == "assistant" and m.get("tool_calls")]
    assert divergence["message_index"] == calls[DIVERGING_STEP]
    checks = detail["episode"]["reward_checks"]
    assert "DB" in {c["basis"] for c in checks} and not any(c["passed"] for c in checks)
    assert detail["jaeger_url"] is None  # no trace id recorded in this run


def test_jaeger_link_when_the_episode_has_a_trace_id(tmp_path: Path, oracle_run: Path) -> None:
    entries = json.loads(oracle_run.read_text(encoding="utf-8"))
    entries[0]["info"]["trace_id"] = "ab" * 16
    traced = tmp_path / "traced.json"
    traced.write_text(json.dumps(entries), encoding="utf-8")
    served = ServedViewer([traced], jaeger_url="http://jaeger.example:16686/")
    try:
        run_id = served.get("/api/runs")[0]["run_id"]
        detail = served.get(f"/api/runs/{run_id}/episodes/{entries[0]['task_id']}/{entries[0]['trial']}")
    finally:
        served.close()
    assert detail["jaeger_url"] == f"http://jaeger.example:16686/trace/{'ab' * 16}"


def test_compare_two_runs(viewer: ThreadViewer, oracle_run: Path, failing_run: Path) -> None:
    oracle, failing = viewer.run_id(oracle_run), viewer.run_id(failing_run)
    comparison = viewer.get(f"/api/compare?runs={oracle},{failing}")
    assert comparison["tasks"] == TASKS
    assert comparison["outcomes"][DIVERGING_TASK] == [1.0, 0.0]
    assert comparison["outcomes"][INCONSISTENT_TASK] == [1.0, pytest.approx(1 / 3)]
    assert comparison["solved_by_only"] == {oracle: [DIVERGING_TASK], failing: []}


def test_tau2_document_gives_the_same_numbers(oracle_run: Path) -> None:
    """Our τ² document (``--output-format both``) reads back to the same run as the τ-bench list."""
    listed, document = load_run(oracle_run), load_run(oracle_run.with_name(oracle_run.stem + ".tau2.json"))
    assert document.format == "tau2"
    assert sorted((e.task_id, e.trial, e.reward) for e in document.episodes) == sorted(
        (e.task_id, e.trial, e.reward) for e in listed.episodes
    )
    episode = next(e for e in document.episodes if e.task_id == "0")
    assert episode.gold_actions == []  # τ-bench tasks carry no τ² evaluation criteria
    assert any(m.get("tool_calls") for m in episode.messages)


def test_a_telecom_sized_run_is_served_in_pages(tmp_path: Path) -> None:
    """2,285 tasks × 4 trials: the grid comes 100 rows at a time, and no page may ask for more than 500."""
    entries = [
        {
            "task_id": f"telecom_task_{task}",
            "reward": float((task + trial) % 3 != 0),
            "info": {"task": {"instruction": "x", "actions": []}, "reward_info": {"reward": 1.0}},
            "traj": [{"role": "user", "content": "hello " * 200}],
            "trial": trial,
        }
        for trial in range(4)
        for task in range(2285)
    ]
    path = tmp_path / "telecom.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    served = ThreadViewer([path])
    try:
        run_id = served.get("/api/runs")[0]["run_id"]
        page = served.get(f"/api/runs/{run_id}/tasks?filter=inconsistent&offset=100")
        too_big = httpx.get(f"{served.url}/api/runs/{run_id}/tasks?limit=5000", timeout=30)
    finally:
        served.close()
    assert page["total"] == 2285
    assert len(page["rows"]) == 100
    assert too_big.status_code == 422


def test_run_page_carries_the_fault_analysis_beside_the_file(tmp_path: Path, failing_run: Path) -> None:
    """``taumesh analyze`` writes RESULTS_faults.json beside the results; the run page shows it."""
    from taumesh.models import Usage
    from taumesh.orchestrator.after.analyze import FaultReportFile, FaultRow

    results = tmp_path / failing_run.name
    results.write_bytes(failing_run.read_bytes())
    row = FaultRow(task_id=2, trial=0, author="agent", fault_type="wrong_argument", description="wrong product id")
    report = FaultReportFile(
        results_file=str(results),
        model="judge",
        episodes=17,
        failed=1,
        infrastructure_errors=0,
        authors={"agent": 1},
        fault_types={"wrong_argument": 1},
        usage=Usage(),
        reports=[row],
    )
    results.with_name(f"{results.stem}_faults.json").write_text(report.model_dump_json(), encoding="utf-8")
    served = ThreadViewer([tmp_path])
    try:
        (run,) = served.get("/api/runs")  # the faults file is not taken for a run
        faults = served.get(f"/api/runs/{run['run_id']}")["faults"]
    finally:
        served.close()
    assert (faults["authors"], faults["fault_types"]) == ({"agent": 1}, {"wrong_argument": 1})
