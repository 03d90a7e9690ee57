"""``taumesh analyze`` attributes recorded failures: planted user-simulator faults, a flagged task, a failing judge.

Two runs are played through the real services against the fake model, each against its own simulator version (the
user's model differs), and their results analyzed as one file:

- version A: task 0's user leaks its instruction verbatim, task 5's user stops before the agent did anything, and
  on tasks 15 and 18 the agent skips its last action (the judge blames the agent on 15 and the user on 18);
- version B: task 22 is flagged by the stored validity audit, and the judge fails on task 27.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taumesh.audit import AuditReport, Flag, FloorResult, TaskAudit, write_audit
from taumesh.cli import app
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.atomic_files import write_json_atomically
from taumesh.orchestrator.results.results_file import load_results
from taumesh.services.scorer.fault_checks import leaked_span
from tests.helpers.fake_model import FakeOpenAI, Reply, server_error
from tests.helpers.llm import run_config
from tests.llm.fault_scripts import PlantedFaults
from tests.llm.scripts import TaskIndex, judge_answer

VERSION_B_MODEL = "gpt-4.1-mini"


def _with_user_model(config: RunConfig, model: str) -> RunConfig:
    user = config.user.model_copy(update={"model": config.user.model.model_copy(update={"model": model})})
    return config.model_copy(update={"user": user})


@pytest.fixture(scope="module")
def two_simulators(
    fake_server: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The two runs' results in one file (every episode fails)."""
    tmp_path = tmp_path_factory.mktemp("attribution")
    entries: list[dict[str, Any]] = []
    plays = [
        ([0, 5, 15, 18], {0: "leak"}, {0: "skip_last", 5: "ask", 15: "skip_last", 18: "skip_last"}, None),
        ([22, 27], {}, {22: "skip_last", 27: "skip_last"}, VERSION_B_MODEL),
    ]
    for tasks, users, agents, user_model in plays:
        fake_server.reset(PlantedFaults(task_index, tasks, users=users, agents=agents))  # type: ignore[arg-type]
        config = run_config(fake_server, v1_data_dir, tmp_path / f"run{len(entries)}", tasks)
        if user_model:
            config = _with_user_model(config, user_model)
        with fake_server.granted():
            summary = asyncio.run(run_benchmark(config))
        results = load_results(summary.results_path)
        assert {r.task_id: r.reward for r in results} == dict.fromkeys(tasks, 0.0)
        entries += [r.model_dump() for r in results]
    path = tmp_path / "results.json"
    write_json_atomically(path, entries)
    return path


@pytest.fixture
def stored_audit(two_simulators: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An audit of the run's data, stored in this test's cache, flagging task 22 as a duplicate."""
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "cache"))
    run = json.loads(two_simulators.read_text())[0]["info"]["run"]
    report = AuditReport(
        domain=run["env"],
        split=run["task_split"],
        data_release=run.get("data_release"),
        tasks=[TaskAudit(task_id=22, flags=[Flag(kind="duplicate", detail="the same instruction as task 23")])],
        floors={"null": FloorResult(of=1)},
    )
    write_audit(report, "digest-of-the-tasks")


def judge(task_index: TaskIndex) -> Any:
    """Task 15: the agent's fault. Task 18: the user invented a fact. Task 27: the provider fails."""

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        asked = request["messages"][1]["content"]
        task = next(i for i, t in enumerate(task_index.tasks) if f"# User instruction\n{t.instruction}\n" in asked)
        if task == 27:
            return server_error(500)
        if task == 18:
            verdict = {"author": "user", "fault_type": "invented facts", "description": "Gave an order id it lacks."}
            return judge_answer(verdict)
        return judge_answer({"author": "agent", "fault_type": "goal_partially_completed", "description": "Stopped."})

    return script


def test_analyze_attributes_planted_simulator_faults_per_version(
    two_simulators: Path,
    stored_audit: None,
    fake: FakeOpenAI,
    task_index: TaskIndex,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "1")
    fake.reset(judge(task_index))
    out = tmp_path / "faults.json"
    result = CliRunner().invoke(
        app,
        [
            "analyze", str(two_simulators), "--model", "gpt-4o", "--model-provider", "openai",
            "--api-base", fake.url, "--out", str(out),
        ],
        env={"COLUMNS": "220"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    rows = {r["task_id"]: r for r in report["reports"]}
    said = {t: (r["author"], r["user_fault"] or r["fault_type"], r["check"]) for t, r in rows.items()}
    assert said == {
        0: ("user", "leaked_goal", "leaked_goal"),
        5: ("user", "stopped_early", "stopped_early"),
        15: ("agent", "goal_partially_completed", ""),
        18: ("user", "invented_facts", ""),
        22: ("task", None, "task_flagged"),
        27: (None, None, ""),
    }
    assert "the same instruction as task 23" in rows[22]["description"]
    assert "InternalServerError" in rows[27]["error"]  # a judge error is an error, never a verdict
    assert report["authors"] == {"user": 3, "agent": 1, "task": 1} and report["errors"] == 1
    assert report["user_faults"] == {"leaked_goal": 1, "stopped_early": 1, "invented_facts": 1}
    assert report["checks"] == {"leaked_goal": 1, "stopped_early": 1, "task_flagged": 1}
    assert "1 task(s) flagged" in report["task_audit"]

    a, b = "custom:llm-taumesh/gpt-4o-mini", f"custom:llm-taumesh/{VERSION_B_MODEL}"
    assert {r["task_id"]: r["user_sim_version"] for r in report["reports"]} == {
        0: a, 5: a, 15: a, 18: a, 22: b, 27: b
    }  # fmt: skip
    assert report["simulators"] == {
        a: {"episodes": 4, "failed": 4, "analyzed": 4, "user_faults": 3, "errors": 0, "rate": 0.75},
        b: {"episodes": 2, "failed": 2, "analyzed": 1, "user_faults": 0, "errors": 1, "rate": 0.0},
    }
    # τ-bench's list has no task author: a flagged task is its environment's fault; the failed judge is in neither
    assert {r["task_id"]: r["author"] for r in report["fault_assignment_analysis"]} == {
        0: "user", 5: "user", 15: "agent", 18: "user", 22: "environment"
    }  # fmt: skip

    # the checks decided without the model: it was asked of tasks 15, 18 and 27 only, seeing tool calls and the
    # instruction
    asked = [s.request["messages"][1]["content"] for s in fake.served]
    judged = {next(i for i in (0, 5, 15, 18, 22, 27) if task_index.tasks[i].instruction in q) for q in asked}
    assert judged == {15, 18, 27}
    prompt = next(
        s.request["messages"][1]["content"]
        for s in fake.served
        if task_index.tasks[15].instruction in s.request["messages"][1]["content"]
    )
    assert f"# User instruction\n{task_index.tasks[15].instruction}" in prompt
    assert "agent calls find_user_id_by_name_zip(" in prompt
    assert "stopped_early" in fake.served[0].request["messages"][0]["content"]  # the judge knows the user's faults

    assert "User simulator faults by version" in result.output and "75%" in result.output
    assert "leaked_goal" in result.output and "task_flagged" in result.output


def test_a_customer_naming_itself_does_not_leak_its_goal(task_index: TaskIndex) -> None:
    task = task_index.tasks[0]
    assert leaked_span(task.instruction, "Hi, I'm Yusuf Rossi in 19122, about order #W2378156.") is None
    assert leaked_span(task.instruction, f"Well... {task.instruction.upper()}") is not None
    eleven = " ".join(task.instruction.split()[:11])
    assert leaked_span(task.instruction, eleven) is None and leaked_span(task.instruction, eleven, at_least=11)
