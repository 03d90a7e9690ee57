"""Intervals, per-task rates and the full cost in τ²'s document and the MT folder.

A real ``taumesh run --output-format taubench,tau2,mt`` writes them (and ``taumesh verify`` still passes the run);
constructed results of known answer check the figures: flips, pass^k, the agent's, user's and judge's spend and the
attempts the infrastructure cut short.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.orchestrator.results.figures import run_cost
from taumesh.orchestrator.results.mt_layout import STATISTICS_SUFFIX, write_mt_results
from taumesh.orchestrator.results.records import EpisodeError, RunResult
from taumesh.orchestrator.results.results_file import load_results
from taumesh.orchestrator.results.tau2_layout import STATISTICS_KEY, tau2_path, write_tau2_results
from taumesh.stats import TrialOutcome, TrialTable, pass_hat_k_intervals
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.paths import V1_DATA
from tests.orchestrator.test_mt_results import oracle_config
from tests.orchestrator.test_tau2_run_options import Results

METHOD = "bootstrap BCa over {tasks} tasks, trials nested (9999 resamples)"


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def mt_statistics(log_dir: Path) -> list[dict[str, Any]]:
    (folder,) = (log_dir / "data").iterdir()
    (path,) = folder.glob(f"*{STATISTICS_SUFFIX}")
    return read_lines(path)


@pytest.fixture(scope="module")
def oracle_run(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real oracle run of τ²'s mock domain, three tasks, two trials, in every layout."""
    log_dir = tmp_path_factory.mktemp("layouts")
    result = invoke(
        "run", "--domain", "mock", "--task-split-name", "base", "--num-tasks", "3", "--num-trials", "2",
        "--output-format", "taubench,tau2,mt", *ORACLE, "--log-dir", log_dir,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    return log_dir


def test_a_real_run_writes_them_in_both_layouts(oracle_run: Path) -> None:
    results = load_results(results_path(oracle_run))
    task_ids = list(dict.fromkeys(str(r.task_id) for r in results))
    assert len(task_ids) == 3 and all(r.reward == 1.0 for r in results)
    raw = load_json(tau2_path(results_path(oracle_run)))
    Results.model_validate(raw)  # τ²'s model still reads the document
    figures = raw[STATISTICS_KEY]
    uncertainty, cost = figures["uncertainty"], figures["cost"]
    assert set(uncertainty["pass_hat_k"]) == {"1", "2"}
    for interval in [*uncertainty["pass_hat_k"].values(), uncertainty["average_reward"]]:
        assert (interval["estimate"], interval["low"], interval["high"]) == (1.0, 1.0, 1.0)
        assert interval["level"] == 0.95 and interval["method"] == METHOD.format(tasks=3)
    assert uncertainty["flipping_tasks"] == []
    assert sorted((t["task_id"], t["success_rate"], t["flips"]) for t in uncertainty["per_task"]) == sorted(
        (task, 1.0, False) for task in task_ids
    )
    assert cost == {
        "agent": 0.0, "user": 0.0, "judge": 0.0, "total": 0.0, "interrupted": 0.0, "episodes": 6, "solved": 6,
        "per_task": 0.0, "per_solved_task": 0.0,
    }  # fmt: skip

    lines = mt_statistics(oracle_run)
    assert [line["figure"] for line in lines] == ["pass^1", "pass^2", "average_reward", "cost", "task", "task", "task"]
    assert {k: v for k, v in lines[0].items() if k != "figure"} == uncertainty["pass_hat_k"]["1"]
    assert {k: v for k, v in lines[3].items() if k != "figure"} == cost
    assert sorted(line["task-id"] for line in lines[4:]) == sorted(f"task-{task}" for task in task_ids)


def test_verify_passes_the_run_with_them(oracle_run: Path) -> None:
    result = invoke("verify", results_path(oracle_run))
    assert result.exit_code == 0, explain_result(result)


def _usage(cost: float) -> dict[str, Any]:
    return {"prompt_tokens": 10, "completion_tokens": 2, "cost_usd": cost, "calls": 1}


def constructed() -> list[RunResult]:
    """Tasks 0–5, two trials: 0 and 3 flip (first trial passes), the rest pass; spend on every side; one error."""
    results = []
    for trial in range(2):
        for task in range(6):
            reward = 1.0 if task % 3 or trial == 0 else 0.0
            info: dict[str, Any] = {
                "task": {"instruction": f"task {task}", "actions": []},
                "agent_usage": _usage(0.10),
                "user_usage": _usage(0.02),
            }
            if task == 4 and trial == 1:
                info["judge_usage"] = _usage(0.03)
                info["interrupted_attempts_usage"] = {"agent": _usage(0.05), "user": _usage(0.01)}
            results.append(RunResult(task_id=task, trial=trial, reward=reward, info=info, traj=[]))
    error = RunResult.from_error(7, 0, EpisodeError(cause="env unavailable", attempts=3))
    error.info["interrupted_attempts_usage"] = {"agent": _usage(0.04), "user": _usage(0.0)}
    return [*results, error]


def test_constructed_results_give_the_known_figures(tmp_path: Path) -> None:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    results = constructed()
    config = oracle_config(tmp_path, "taubench,tau2,mt")
    document = tmp_path / "run.tau2.json"
    write_tau2_results(document, config, results)
    write_mt_results(config, results)

    figures = load_json(document)[STATISTICS_KEY]
    uncertainty, cost = figures["uncertainty"], figures["cost"]
    assert uncertainty["pass_hat_k"]["1"]["estimate"] == pytest.approx(10 / 12)
    assert uncertainty["pass_hat_k"]["2"]["estimate"] == pytest.approx(4 / 6)
    assert uncertainty["average_reward"]["estimate"] == pytest.approx(10 / 12)
    assert uncertainty["flipping_tasks"] == ["0", "3"]
    assert [t["success_rate"] for t in uncertainty["per_task"]] == [0.5, 1.0, 1.0, 0.5, 1.0, 1.0]
    table = TrialTable(TrialOutcome(str(r.task_id), r.trial, r.reward) for r in results if r.reward is not None)
    library = pass_hat_k_intervals(table)
    assert uncertainty["pass_hat_k"]["2"]["low"] == pytest.approx(library[2].low)
    assert uncertainty["pass_hat_k"]["2"]["low"] < 4 / 6 < uncertainty["pass_hat_k"]["2"]["high"]

    # agent 12 × 0.10 + 0.05 + 0.04, user 12 × 0.02 + 0.01, judge 0.03; interrupted 0.05 + 0.01 + 0.04
    assert cost["agent"] == pytest.approx(1.29) and cost["user"] == pytest.approx(0.25)
    assert cost["judge"] == pytest.approx(0.03) and cost["total"] == pytest.approx(1.57)
    assert cost["interrupted"] == pytest.approx(0.10)
    assert (cost["episodes"], cost["solved"]) == (12, 10)
    assert cost["per_task"] == pytest.approx(1.57 / 12) and cost["per_solved_task"] == pytest.approx(1.57 / 10)
    assert cost == pytest.approx(run_cost(results).model_dump())

    lines = mt_statistics(tmp_path)
    by_figure = {line["figure"]: line for line in lines if line["figure"] != "task"}
    assert by_figure["cost"]["total"] == pytest.approx(1.57)
    assert by_figure["pass^2"]["estimate"] == pytest.approx(4 / 6)
    flips = [line["task-id"] for line in lines if line["figure"] == "task" and line["flips"]]
    assert flips == ["task-0", "task-3"]


def test_mt_scores_lines_are_untouched_by_them(oracle_run: Path) -> None:
    (folder,) = (oracle_run / "data").iterdir()
    (scores,) = folder.glob("*_scores.jsonl")
    lines = read_lines(scores)
    assert all(list(line) == ["task-id", "prompt", "result", "truth", "score", "duration"] for line in lines)
    assert len(lines) == len(load_results(results_path(oracle_run)))
