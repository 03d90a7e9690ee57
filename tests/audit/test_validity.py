"""Validity beside every score: the CLI summary, ``report``, ``compare``, the viewer and the REST metrics.

On τ-bench v1 airline, with its audit stored by ``taumesh domain audit --write`` in a throwaway cache: the null agent
(passes exactly the null floor) and the oracle (passes every task) are run by ``taumesh run`` (in this process), and
each surface shows, next to the raw score, the score over certified tasks, the null floor of the tasks run, how many
are flagged and the evidence bounds, equal to what the stored audit and the results files give. Without a stored
audit each says so in one line naming the command that makes one. ``compare`` refuses to pair runs graded by
different graders unless told.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.audit import AUDIT_VERSION, StoredAudit
from tests.helpers.api_thread import ThreadApi
from tests.helpers.audit import own_cache, write_airline_audit
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.client import thread_api
from tests.helpers.viewer_thread import ThreadViewer

MAKE_ONE = "`taumesh domain audit airline --task-split test --write` makes one"
NULL = ("--agent-strategy", "null", *ORACLE[2:])


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield from own_cache(tmp_path_factory)


@pytest.fixture(scope="module")
def stored(cache: Path, v1_data_dir: Path) -> StoredAudit:
    return write_airline_audit(v1_data_dir)[0]


@pytest.fixture(scope="module")
def runs(stored: StoredAudit, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The null agent's and the oracle's runs of v1 airline: their results files and what the CLI printed."""
    made: dict[str, Any] = {}
    for name, agent in (("null", NULL), ("oracle", ORACLE)):
        folder = tmp_path_factory.mktemp(name)
        run = invoke("run", "--env", "airline", *agent, "--data-dir", v1_data_dir, "--log-dir", folder)
        assert run.exit_code == 0, explain_result(run)
        made[name] = (results_path(folder), run.stdout)
    return made


def expected(stored: StoredAudit, path: Path) -> dict[str, Any]:
    """The validity figures of a results file, computed here from the file and the stored audit."""
    entries = load_json(path)
    flagged = stored.flagged()
    certified = [e["reward"] for e in entries if str(e["task_id"]) not in flagged]
    doubtful = sum(1 for e in entries if str(e["task_id"]) in flagged)
    tasks = {str(e["task_id"]) for e in entries}
    return {
        "certified_score": sum(certified) / len(certified),
        "null_floor_tasks": len(tasks & stored.null_floor()),
        "flagged_tasks": len(tasks & flagged),
        "tasks_run": len(tasks),
        "lower_bound": sum(certified) / len(entries),
        "upper_bound": (sum(certified) + doubtful) / len(entries),
    }


def line(figures: dict[str, Any]) -> str:
    return (
        f"certified score {figures['certified_score']:.4f} over "
        f"{figures['tasks_run'] - figures['flagged_tasks']} episodes of unflagged tasks; "
        f"null floor {figures['null_floor_tasks'] / figures['tasks_run']:.1%} "
        f"({figures['null_floor_tasks']}/{figures['tasks_run']} tasks); "
        f"flagged {figures['flagged_tasks']}/{figures['tasks_run']} tasks; "
        f"bounds {figures['lower_bound']:.4f} (flagged as failed) to {figures['upper_bound']:.4f} (as passed)"
    )


def test_cli_summary_shows_validity_beside_the_score(stored: StoredAudit, runs: dict[str, Any]) -> None:
    null_path, null_out = runs["null"]
    figures = expected(stored, null_path)
    assert figures["null_floor_tasks"] == 19 and figures["certified_score"] == 0.0  # the floor's tasks: all flagged
    assert figures["upper_bound"] == figures["flagged_tasks"] / 50
    assert f"validity (audit v{AUDIT_VERSION}): {line(figures)}" in null_out.replace("\n", " ")
    oracle_path, oracle_out = runs["oracle"]
    assert line(expected(stored, oracle_path)) in oracle_out.replace("\n", " ")


def test_without_a_stored_audit_one_line_says_how_to_make_one(
    v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "empty"))
    run = invoke(
        "run", "--env", "airline", *NULL, "--end-index", "3", "--data-dir", v1_data_dir, "--log-dir", tmp_path
    )  # fmt: skip
    assert run.exit_code == 0, explain_result(run)
    said = [text for text in run.stdout.splitlines() if text.startswith("validity")]
    assert said == [
        f"validity: no stored audit of airline test (data release unrecorded, audit version {AUDIT_VERSION}); "
        + MAKE_ONE
    ]


def test_report_has_the_validity_columns_and_lines(stored: StoredAudit, runs: dict[str, Any], tmp_path: Path) -> None:
    null_path, oracle_path = runs["null"][0], runs["oracle"][0]
    out = tmp_path / "report.md"
    done = invoke("report", null_path, oracle_path, "--out", out)
    assert done.exit_code == 0, explain_result(done)
    text = out.read_text(encoding="utf-8")
    lines = [text_line for text_line in text.splitlines() if text_line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = {cells[0]: dict(zip(header, cells, strict=True)) for cells in
            ([c.strip() for c in row.strip("|").split("|")] for row in lines[2:])}  # fmt: skip
    for path in (null_path, oracle_path):
        figures = expected(stored, path)
        row = rows[path.name]
        assert row["certified score"] == f"{figures['certified_score']:.4f}"
        assert row["null floor"] == f"{figures['null_floor_tasks'] / 50:.1%} ({figures['null_floor_tasks']}/50)"
        assert row["flagged tasks"] == f"{figures['flagged_tasks']}/50"
        assert row["bounds (flagged failed to passed)"] == (
            f"{figures['lower_bound']:.4f} to {figures['upper_bound']:.4f}"
        )
        assert f"- {path.name}: validity (audit v{AUDIT_VERSION}): {line(figures)}" in text


def test_compare_shows_validity_and_refuses_another_grader(
    stored: StoredAudit, runs: dict[str, Any], v1_data_dir: Path, tmp_path: Path
) -> None:
    null_path, oracle_path = runs["null"][0], runs["oracle"][0]
    compared = invoke("compare", oracle_path, null_path, "--force", "--resamples", "199")
    assert compared.exit_code == 0, explain_result(compared)
    assert line(expected(stored, oracle_path)) in compared.stdout.replace("\n", " ")
    assert line(expected(stored, null_path)) in compared.stdout.replace("\n", " ")

    strict = invoke(
        "run", "--env", "airline", *ORACLE, "--grader", "strict", "--data-dir", v1_data_dir, "--log-dir", tmp_path
    )  # fmt: skip
    assert strict.exit_code == 0, explain_result(strict)
    strict_path = results_path(tmp_path)
    refused = invoke("compare", oracle_path, strict_path, "--force", "--resamples", "199")
    assert refused.exit_code == 1, explain_result(refused)
    said = refused.stdout.replace("\n", " ")
    assert "A was graded by the faithful grader, B by the strict grader" in said
    assert "--allow-grader-change" in said and "[grader strict]" in said
    allowed = invoke(
        "compare", oracle_path, strict_path, "--force", "--allow-grader-change", "--resamples", "199", "--json"
    )  # fmt: skip
    assert allowed.exit_code == 0, explain_result(allowed)
    [report] = json.loads(allowed.stdout)
    assert report["comparison"] is not None and report["graders"] == ["faithful", "strict"]
    assert any("graders differ" in note for note in report["notes"])
    assert report["validity_b"]["grader"] == "strict"


def test_viewer_serves_validity_over_http(stored: StoredAudit, runs: dict[str, Any]) -> None:
    null_path = runs["null"][0]
    viewer = ThreadViewer([null_path])
    try:
        detail = viewer.get(f"/api/runs/{viewer.run_id(null_path)}")
        listed = viewer.get("/api/runs")
        script = httpx.get(f"{viewer.url}/static/app.js", timeout=30).text
    finally:
        viewer.close()
    figures = expected(stored, null_path)
    found = detail["summary"]["validity"]
    assert found["missing"] is None and found["grader"] == "faithful" and found["tasks"] == "all"
    assert {key: found["validity"][key] for key in figures} == pytest.approx(figures)
    assert listed[0]["validity"]["validity"]["flagged_tasks"] == figures["flagged_tasks"]
    assert 'id: "validity"' in script  # the run page's Validity card


@pytest.fixture(scope="module")
def api(stored: StoredAudit, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    with thread_api(tmp_path_factory.mktemp("api"), v1_data_dir) as server:
        yield server


def test_rest_metrics_carry_validity(api: ThreadApi, stored: StoredAudit, tmp_path: Path) -> None:
    body = {"env": "airline", "agent_strategy": "null", "user_strategy": "scripted"}
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=300) as http:
        answer = http.post("/api/v1/validate-tasks", json=body)
        assert answer.status_code == 200, answer.text
        played = answer.json()
        run = http.get(f"/api/v1/runs/{played['run_id']}").json()
    results = tmp_path / "results.json"
    results.write_text(json.dumps([{"task_id": r["task_id"], "reward": r["reward"]} for r in played["results"]]))
    figures = expected(stored, results)
    for metrics in (played["metrics"], run["metrics"]):
        found = metrics["validity"]
        assert found["domain"] == "airline" and found["split"] == "test" and found["missing"] is None
        assert {key: found["validity"][key] for key in figures} == pytest.approx(figures)
