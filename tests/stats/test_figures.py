"""The end-of-run summary's intervals and full cost: through a real run, and on constructed results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taumesh.orchestrator.results.figures import cost_line, run_cost, uncertainty_lines
from taumesh.orchestrator.results.records import RunResult
from tests.helpers.cli import ORACLE, explain_result, invoke
from tests.helpers.paths import V1_DATA


def _usage(cost: float) -> dict[str, Any]:
    return {"prompt_tokens": 10, "completion_tokens": 2, "cost_usd": cost, "calls": 1}


def _result(task: int, trial: int, reward: float | None, **info: Any) -> RunResult:
    return RunResult(task_id=task, trial=trial, reward=reward, info=info, traj=[])


def test_full_cost_counts_judge_user_agent_and_interrupted_attempts() -> None:
    results = [
        _result(0, 0, 1.0, agent_usage=_usage(0.30), user_usage=_usage(0.10), judge_usage=_usage(0.02)),
        _result(
            1,
            0,
            0.0,
            agent_usage=_usage(0.20),
            user_usage=_usage(0.05),
            interrupted_attempts_usage={"agent": _usage(0.04), "user": _usage(0.01)},
        ),
        _result(
            2,
            0,
            None,
            error={"kind": "infrastructure", "cause": "down", "attempts": 3},
            interrupted_attempts_usage={"agent": _usage(0.08), "user": _usage(0.0)},
        ),
    ]
    cost = run_cost(results)
    assert cost.agent == pytest.approx(0.62) and cost.user == pytest.approx(0.16) and cost.judge == pytest.approx(0.02)
    assert cost.total == pytest.approx(0.80) and cost.interrupted == pytest.approx(0.13)
    assert (cost.episodes, cost.solved) == (2, 1)
    assert cost.per_task == pytest.approx(0.40) and cost.per_solved_task == pytest.approx(0.80)
    assert cost_line(cost) == (
        "cost: agent $0.6200 + user $0.1600 + judge $0.0200 = $0.8000 ($0.1300 of it on interrupted attempts); "
        "per task $0.4000, per solved task $0.8000"
    )


def test_flipping_tasks_and_intervals_are_listed() -> None:
    results = [_result(t, j, float(t % 3 != 0 or j == 0)) for t in range(30) for j in range(2)]
    lines = uncertainty_lines(results, n_resamples=199)
    assert lines[0].startswith("pass^1 0.8333 (95 % CI ") and lines[1].startswith("pass^2 0.6667 (95 % CI ")
    assert "intervals: bootstrap BCa over 30 tasks, trials nested (199 resamples)" in lines
    assert lines[-1].startswith("tasks whose verdict flips between trials: 10 of 30 (0, 3, 6, 9, 12,")


def test_the_end_of_run_summary_shows_intervals_and_cost(tmp_path: Path) -> None:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--task-ids", "0", "--task-ids", "1", "--num-trials", "2",
        *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    text = result.output
    assert "pass^1 1.0000 (95 % CI 1.0000–1.0000)" in text and "pass^2 1.0000 (95 % CI" in text
    assert "intervals: bootstrap BCa over 2 tasks, trials nested (9999 resamples)" in text
    assert "tasks whose verdict flips between trials: 0 of 2" in text
    assert "cost: agent $0.0000 + user $0.0000 + judge $0.0000 = $0.0000; per task $0.0000" in text
