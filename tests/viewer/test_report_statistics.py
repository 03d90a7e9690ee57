"""``taumesh report``'s intervals and full costs, on a constructed run of known answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.cli import invoke
from tests.viewer.test_report import markdown_rows


def _usage(cost: float) -> dict[str, Any]:
    return {"prompt_tokens": 10, "completion_tokens": 1, "cost_usd": cost, "calls": 1}


def test_report_shows_intervals_flipping_tasks_and_the_judges_spend(tmp_path: Path) -> None:
    entries = [
        {
            "task_id": task,
            "reward": float(task < 30 or (task == 30 and trial == 0)),
            "info": {"agent_usage": _usage(0.02), "user_usage": _usage(0.01), "judge_usage": _usage(0.005)},
            "traj": [],
            "trial": trial,
        }
        for trial in range(2)
        for task in range(40)
    ]
    run = tmp_path / "run.json"
    run.write_text(json.dumps(entries))
    result = invoke("report", run, "--out", tmp_path / "report.md")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report.md").read_text()
    (row,) = markdown_rows(text)
    assert row["pass^1"] == f"{30.5 / 40:.4f}" and row["pass^2"] == f"{30 / 40:.4f}"
    low, high = (float(x) for x in row["pass^1 95 % CI"].split("–"))
    assert low < 30.5 / 40 < high
    assert row["flipping tasks"] == "1/40"
    assert (row["agent ($)"], row["user ($)"], row["judge ($)"], row["total ($)"]) == (
        "1.600000", "0.800000", "0.400000", "2.800000",
    )  # fmt: skip
    assert row["cost per task ($)"] == "0.035000" and row["cost per solved task ($)"] == f"{2.8 / 61:.6f}"
    assert "bootstrap (BCa) over tasks" in text
