"""Every front door takes a fork domain: run in every layout, rescore, report, the REST API, the LLM strategies."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from taumesh.domains import Catalog
from taumesh.forks._record import ForkRecord
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.results.tau2_layout import tau2_path
from tests.helpers.api_thread import start_thread_server
from tests.helpers.cli import ORACLE, explain_result, invoke, results_path
from tests.helpers.fake_model import FakeOpenAI
from tests.helpers.llm import run_config
from tests.helpers.viewer_thread import ThreadViewer
from tests.llm.scripts import GoldAgent, Router, ScriptedLlmUser, TaskIndex

DOMAIN = "fork:tiny/counter"
TASKS = ["0", "1", "2"]
"""A write, a task with a required output, one ending in transfer_to_human_agents."""


@pytest.mark.slow  # a whole run, rescore and report (the commands in this process, typer's test runner)
def test_run_in_every_layout_then_rescore_and_report(fork_env: ForkRecord, tmp_path: Path) -> None:
    log_dir = tmp_path / "run"
    ids = [arg for task in TASKS for arg in ("--task-ids", task)]
    done = invoke("run", "--env", DOMAIN, *ORACLE, *ids, "--output-format", "taubench,tau2,mt", "--log-dir", log_dir)
    assert done.exit_code == 0, explain_result(done)
    results = results_path(log_dir)
    rows = json.loads(results.read_text())
    assert sorted((str(r["task_id"]), r["reward"]) for r in rows) == [(task, 1.0) for task in TASKS]
    document = json.loads(tau2_path(results).read_text())
    # τ²'s document: its simulations as τ² writes them (a v1-style task has no user_scenario for τ²'s Task
    # model, exactly as the native retail domain's tasks in this layout)
    assert [s["task_id"] for s in document["simulations"]] == TASKS
    assert {s["reward_info"]["reward"] for s in document["simulations"]} == {1.0}
    [folder] = (log_dir / "data").iterdir()
    assert folder.name.startswith("tau_bench_fork_tiny_counter_")
    scores = [json.loads(line) for line in (folder / "oracle_scores.jsonl").read_text().splitlines()]
    assert len(scores) == 3

    rescored = invoke("rescore", results, "--env", DOMAIN, "--task-split", "test", "--out", tmp_path / "rescored.json")
    assert rescored.exit_code == 0, explain_result(rescored)
    report = invoke("report", results, "--out", tmp_path / "report.md")
    assert report.exit_code == 0, explain_result(report)
    assert DOMAIN in (tmp_path / "report.md").read_text()

    viewer = ThreadViewer([results.parent])  # the viewer's app over HTTP: the run, its pass^k and each trajectory
    try:
        run_id = viewer.run_id(results)
        assert viewer.get(f"/api/runs/{run_id}")["summary"]["pass_hat_k"]["1"] == pytest.approx(1.0)
        for row in rows:
            detail = viewer.get(f"/api/runs/{run_id}/episodes/{row['task_id']}/0")
            divergence = detail["divergence"]  # the oracle follows the fork's gold actions: no divergence
            assert divergence["index"] is None and divergence["agent_actions"], divergence
            assert len(detail["episode"]["messages"]) == len(row["traj"])
    finally:
        viewer.close()


def test_the_rest_api_lists_and_runs_fork_tasks(fork_env: ForkRecord, fork_cache: Path, tmp_path: Path) -> None:
    """Over real HTTP, uvicorn serving from a thread: what the API answers for a fork domain, not its process."""
    (tmp_path / "api").mkdir()
    server = start_thread_server(
        f"sqlite:///{tmp_path / 'api.db'}", tmp_path / "api", tmp_path / "no-v1-data",
        TAUMESH_CACHE_DIR=str(fork_cache), TAUMESH_FORK_TOOL_DEADLINE="2",
    )  # fmt: skip
    try:
        with httpx.Client(base_url=server.base_url, headers=server.headers, timeout=120) as client:
            listed = client.post("/api/v1/list-tasks", json={"env": DOMAIN, "page_size": 50})
            assert listed.status_code == 200, listed.text
            assert len(listed.json()["tasks"]) == 7
            body = {"env": DOMAIN, "agent_strategy": "oracle", "user_strategy": "scripted", "task_ids": [0, 1, 2]}
            ran = client.post("/api/v1/validate-tasks", json=body)
            assert ran.status_code == 200, ran.text
            assert [r["reward"] for r in ran.json()["results"]] == [1.0, 1.0, 1.0]
    finally:
        server.stop()


@pytest.mark.parametrize(("strategy", "style"), [("tool-calling", "tools"), ("act", "act"), ("react", "react")])
async def test_llm_strategies_play_fork_tasks(
    strategy: str,
    style: str,
    fork_env: ForkRecord,
    fake: FakeOpenAI,
    tmp_path: Path,
) -> None:
    tasks = Catalog(tmp_path).get(DOMAIN).tasks("test")
    index = TaskIndex(tasks)
    fake.reset(Router(GoldAgent(index, style), ScriptedLlmUser(index)))  # type: ignore[arg-type]
    config = run_config(fake, tmp_path / "no-v1-data", tmp_path, [int(t) for t in TASKS], agent=strategy)
    summary = await run_benchmark(config.model_copy(update={"env": DOMAIN}))
    assert not summary.errors
    assert {r.task_id: r.reward for r in summary.results} == {0: 1.0, 1: 1.0, 2: 1.0}
    assert {r.task_id: r.info["termination"] for r in summary.results}[2] == "terminate_tool"
