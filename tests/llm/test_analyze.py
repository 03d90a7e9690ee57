"""``taumesh analyze``: the scorer's AnalyzeFaults judges each failed episode with the (scripted) model."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taumesh.cli import app
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.results.atomic_files import write_json_atomically
from taumesh.orchestrator.results.records import EpisodeError, RunResult
from taumesh.orchestrator.results.results_file import load_results
from taumesh.services.scorer.fault_analysis import read_verdict
from tests.helpers.fake_model import FakeOpenAI, Reply, rate_limited, server_error, text
from tests.helpers.llm import run_config
from tests.llm.fault_scripts import PlantedFaults
from tests.llm.scripts import TaskIndex, judge_answer


@pytest.fixture(scope="module")
def run_with_failures(
    fake_server: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """Tasks 0 and 19 fail (the agent skips the last gold action), 10 succeeds, 5 is an infrastructure error: one
    run for the module (the tests copy its file, some change theirs). The user opens as a customer, not with its
    instruction (which analyze would attribute to the user, a goal leak, without asking the judge)."""
    tmp_path = tmp_path_factory.mktemp("analyze")
    fake_server.reset(PlantedFaults(task_index, [0, 10, 19], agents={0: "skip_last", 19: "skip_last"}))
    with fake_server.granted():  # as the `fake` fixture sets it, for this one run
        summary = asyncio.run(run_benchmark(run_config(fake_server, v1_data_dir, tmp_path / "run", [0, 10, 19])))
    results = load_results(summary.results_path)
    assert {r.task_id: r.reward for r in results} == {0: 0.0, 10: 1.0, 19: 0.0}
    results.append(RunResult.from_error(5, 0, EpisodeError(cause="UNAVAILABLE: model unavailable", attempts=3)))
    path = tmp_path / "results.json"
    write_json_atomically(path, [r.model_dump() for r in results])
    return path


@pytest.fixture
def results_with_failures(run_with_failures: Path, tmp_path: Path) -> Path:
    """This test's copy of the run's results file."""
    path = tmp_path / run_with_failures.name
    shutil.copyfile(run_with_failures, path)
    return path


def judge(task_index: TaskIndex) -> Any:
    """Task 0: an unreadable answer first, then an agent fault. Task 19: the user's fault."""

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        asked = request["messages"][1]["content"]
        task = next(i for i, t in enumerate(task_index.tasks) if f"# User instruction\n{t.instruction}" in asked)
        if task == 0 and len(request["messages"]) == 2:
            return text("The agent is clearly at fault here, it forgot something.")
        if task == 0:
            return judge_answer(
                {"author": "agent", "fault_type": "goal partially completed", "description": "Skipped the exchange."}
            )
        return judge_answer(
            {"author": "USER", "fault_type": "invented_facts", "description": "Gave the wrong order id."}
        )

    return script


def analyze(*args: str) -> Any:
    result = CliRunner().invoke(app, ["analyze", *args], env={"COLUMNS": "200"})
    return result


def test_analyze_writes_the_fault_report(
    results_with_failures: Path, fake: FakeOpenAI, task_index: TaskIndex, tmp_path: Path
) -> None:
    fake.reset(judge(task_index))
    out = tmp_path / "faults.json"
    result = analyze(
        str(results_with_failures), "--model", "gpt-4o", "--model-provider", "openai", "--api-base", fake.url,
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert (report["episodes"], report["failed"], report["infrastructure_errors"]) == (4, 2, 1)
    rows = {r["task_id"]: r for r in report["reports"]}
    assert set(rows) == {0, 19}  # neither the success nor the infrastructure error is analyzed
    assert rows[0]["author"] == "agent" and rows[0]["fault_type"] == "goal_partially_completed"
    assert rows[0]["description"] == "Skipped the exchange." and rows[0]["error"] == ""
    assert rows[19]["author"] == "user" and rows[19]["fault_type"] is None
    assert rows[19]["user_fault"] == "invented_facts" and rows[19]["check"] == ""
    assert report["authors"] == {"agent": 1, "user": 1}
    assert report["fault_types"] == {"goal_partially_completed": 1}
    assert rows[0]["usage"]["calls"] == 2 and rows[19]["usage"]["calls"] == 1  # the re-ask was counted
    assert report["usage"]["calls"] == 3 and report["usage"]["cost_usd"] > 0

    # the prompt held the instruction, the gold actions, the required outputs and the whole trajectory
    asked = {
        next(i for i in (0, 19) if task_index.tasks[i].instruction in s.request["messages"][1]["content"]): s.request
        for s in fake.served
        if len(s.request["messages"]) == 2
    }
    task19 = task_index.tasks[19]
    prompt = asked[19]["messages"][1]["content"]
    assert "# Required outputs\n- 54.04\n- 41.64" in prompt
    for i, action in enumerate(task19.actions, start=1):
        assert f"{i}. {action.name}({json.dumps(action.kwargs)})" in prompt
    assert "policy (system prompt): # Retail agent policy" in prompt
    assert "tool result of find_user_id_by_name_zip" in prompt or "tool result of find_user_id_by_email" in prompt
    assert '"r_actions": 0.0' in asked[0]["messages"][1]["content"]  # which check failed
    assert '"r_outputs": 1.0' in prompt  # (τ-bench reports the outputs check for tasks with outputs)
    reask = next(s.request for s in fake.served if len(s.request["messages"]) == 4)
    assert reask["messages"][3]["content"].startswith("That answer could not be read: no JSON object found")

    assert "Fault analysis of 2 failed episode(s)" in result.output
    assert "goal_partially_completed" in result.output and "Gave the wrong order id." in result.output


def test_analyze_with_tasks_from_the_data_and_an_unavailable_judge(
    results_with_failures: Path,
    fake: FakeOpenAI,
    task_index: TaskIndex,
    v1_data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "2")
    script = judge(task_index)

    def flaky(request: dict[str, Any], ordinal: int) -> Reply:
        if task_index.tasks[19].instruction in request["messages"][1]["content"]:
            return server_error(500)
        return script(request, ordinal)

    fake.reset(flaky)
    # the tasks come from the scorer's data (--env), not from the results file
    raw = json.loads(results_with_failures.read_text())
    for entry in raw:
        entry["info"].pop("task", None)
    results_with_failures.write_text(json.dumps(raw))
    result = analyze(
        str(results_with_failures), "--model", "gpt-4o", "--model-provider", "openai", "--api-base", fake.url,
        "--env", "retail", "--data-dir", str(v1_data_dir),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(results_with_failures.with_name("results_faults.json").read_text())
    rows = {r["task_id"]: r for r in report["reports"]}
    assert rows[0]["author"] == "agent"
    assert rows[19]["author"] is None and "InternalServerError" in rows[19]["error"]
    assert "not analyzed" in result.output

    # without --env, a file that does not record its tasks cannot be analyzed
    refused = analyze(str(results_with_failures), "--model", "gpt-4o", "--api-base", fake.url)
    assert refused.exit_code == 2 and "pass --env" in refused.output


def test_read_verdict() -> None:
    verdict = read_verdict('{"author": "agent", "fault_type": "wrong-argument", "description": "Bad id."}')
    assert (verdict.author, verdict.fault_type) == ("agent", "wrong_argument")
    assert read_verdict('{"author": "environment", "fault_type": "other", "description": "x"}').fault_type is None
    for bad, problem in [
        ("no json", "no JSON object"),
        ('{"author": "nobody", "description": "x"}', "author must be one of"),
        ('{"author": "agent", "description": "x"}', "fault_type must be one of"),
        ('{"author": "user", "fault_type": null, "description": "x"}', "for a user fault"),
        ('{"author": "task", "description": "x"}', "author must be one of"),  # the audit's flags alone blame a task
        ('{"author": "user"}', "description is missing"),
    ]:
        with pytest.raises(ValueError, match=problem):
            read_verdict(bad)


def test_analyze_takes_tau_benchs_auto_error_identification_command_line(
    results_with_failures: Path, fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    """τ-bench's README command, spelled as its ``auto_error_identification.py`` takes it, writes its two lists."""
    fake.reset(judge(task_index))
    out = tmp_path / "test-auto-error-identification"
    result = analyze(
        "--env", "retail", "--platform", "openai", "--results-path", str(results_with_failures),
        "--max-concurrency", "16", "--output-path", str(out), "--max-num-failed-results", "1",
        "--model", "gpt-4o", "--base-url", fake.url, "--data-dir", str(v1_data_dir),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["failed"] == 2 and [r["task_id"] for r in report["reports"]] == [0]  # the first failure only
    assert report["fault_assignment_analysis"] == [
        {"task_id": 0, "author": "agent", "description": "Skipped the exchange."}
    ]
    assert report["fault_type_analysis"] == [
        {"task_id": 0, "fault_type": "goal_partially_completed", "description": "Skipped the exchange."}
    ]

    fake.reset(judge(task_index))
    short = analyze(
        "--env", "retail", "--platform", "openai", "--results-path", str(results_with_failures),
        "--output-path", str(out), "-n", "5", "--model", "gpt-4o", "--base-url", fake.url,
        "--data-dir", str(v1_data_dir),
    )  # fmt: skip
    assert short.exit_code == 0, short.output
    report = json.loads(out.read_text())
    assert {r["task_id"]: r["author"] for r in report["fault_assignment_analysis"]} == {0: "agent", 19: "user"}
    assert [r["task_id"] for r in report["fault_type_analysis"]] == [0]  # only the agent's faults get a type
    assert "Fault analysis of 2 failed episode(s)" in short.output

    both = analyze(str(results_with_failures), "--results-path", str(tmp_path / "other.json"), "--model", "gpt-4o")
    assert both.exit_code == 2 and "--results-path" in both.output
    neither = analyze("--model", "gpt-4o")
    assert neither.exit_code == 2 and "results file" in neither.output
    unknown = analyze("--results-path", str(results_with_failures), "--platform", "nosuch", "--model", "gpt-4o")
    assert unknown.exit_code == 2 and "nosuch" in unknown.output


class Allowing:
    """A provider allowing ``allowed`` requests at once, each answered after ``latency`` with a readable verdict;
    those beyond get a 429 at once (Retry-After 0.05 s). Counts every request it holds, refused ones too, and their
    peak."""

    def __init__(self, allowed: int, latency: float) -> None:
        self.allowed, self.latency = allowed, latency
        self.lock = threading.Lock()
        self.in_flight = self.peak = self.refused = self.answered = 0

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        with self.lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            refuse = self.in_flight > self.allowed
            self.refused += refuse
        try:
            if refuse:
                return rate_limited("0.05")
            time.sleep(self.latency)
            with self.lock:
                self.answered += 1
            return judge_answer({"author": "user", "fault_type": "invented_facts", "description": "Gave a wrong id."})
        finally:
            with self.lock:
                self.in_flight -= 1


@pytest.fixture
def eight_failures(run_with_failures: Path, tmp_path: Path) -> Path:
    """The run's two failed episodes as four trials each (the tasks recorded in the file), and nothing else."""
    failed = [r for r in load_results(run_with_failures) if not r.is_error and r.reward == 0.0]
    path = tmp_path / "failed.json"
    write_json_atomically(path, [r.model_copy(update={"trial": t}).model_dump() for t in range(4) for r in failed])
    return path


@pytest.mark.parametrize(
    ("cap", "retries_here"), [(2, "5"), (4, "1")], ids=["cap-below-the-provider", "cap-above-the-provider"]
)
def test_analyze_keeps_to_the_provider_limit_and_retries_429s_under_it(
    eight_failures: Path, fake: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cap: int, retries_here: str
) -> None:
    """Each AnalyzeFaults holds a permit of the model's provider: at most ``cap`` calls reach the server at once.
    Above what the provider allows, its 429s come back to analyze at once and are asked again under the limiter:
    with one attempt per model call in the scorer, none is retried there, and still no episode is left unanalyzed."""
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", retries_here)
    provider = Allowing(allowed=2, latency=0.1)
    fake.reset(provider)
    out = tmp_path / "faults.json"
    result = analyze(
        str(eight_failures), "--model", "gpt-4o", "--model-provider", "openai", "--api-base", fake.url,
        "--max-concurrency", "8", "--provider-limit", f"openai={cap}", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert len(report["reports"]) == 8 and all(row["author"] == "user" for row in report["reports"])
    assert not [row["error"] for row in report["reports"] if row["error"]]
    assert provider.answered == 8 and provider.peak <= cap, f"{provider.peak} calls were in flight at once"
    if cap > provider.allowed:
        assert provider.refused > 0  # the provider refused: the limiter, not the scorer, asked again


def test_a_bad_provider_limit_is_refused(eight_failures: Path) -> None:
    refused = analyze(str(eight_failures), "--model", "gpt-4o", "--provider-limit", "openai=zero")
    assert refused.exit_code == 2 and "'zero' is not a whole number" in refused.output
