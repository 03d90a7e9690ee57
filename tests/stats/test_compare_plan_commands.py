"""``taumesh compare`` on constructed results files of known answer, and ``taumesh plan``'s worked example."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.helpers.cli import invoke
from tests.helpers.paths import PROJECT_ROOT


def _fingerprint(user_model: str = "gpt-4o") -> dict[str, Any]:
    return {
        "env": "retail",
        "task_split": "test",
        "max_steps": 30,
        "agent": {"strategy": "tool-calling", "model": "m"},
        "user": {"strategy": "llm", "model": user_model},
    }


def _results(path: Path, solved: set[int], tasks: int = 115, trials: int = 1, user_model: str = "gpt-4o") -> Path:
    entries = [
        {
            "task_id": task,
            "reward": 1.0 if task in solved else 0.0,
            "info": {"run": _fingerprint(user_model), "termination": "user_stop"},
            "traj": [],
            "trial": trial,
        }
        for trial in range(trials)
        for task in range(tasks)
    ]
    path.write_text(json.dumps(entries))
    return path


def test_identical_runs_compare_as_no_detectable_difference(tmp_path: Path) -> None:
    a = _results(tmp_path / "a.json", set(range(70)))
    b = _results(tmp_path / "b.json", set(range(70)))
    result = invoke("compare", a, b, "--resamples", "999")
    assert result.exit_code == 0, result.output
    assert "no detectable difference with 115 tasks × 1 trial" in result.stdout
    assert "the runs agree on every task" in result.stdout


def test_twenty_more_solved_of_115_is_better_with_p_below_001(tmp_path: Path) -> None:
    a = _results(tmp_path / "a.json", set(range(50)))
    b = _results(tmp_path / "b.json", set(range(70)))
    result = invoke("compare", a, b, "--resamples", "1999", "--json")
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.stdout)
    comparison = report["comparison"]
    assert comparison["significant"] and comparison["p_value"] < 0.01
    assert report["verdict"].startswith("B is better than A by 17.4 points of pass^1 (95 % CI ")
    assert [t["task_id"] for t in comparison["driving"]] == [str(t) for t in range(50, 60)]
    text = invoke("compare", a, b, "--resamples", "999").stdout
    assert "B is better than A by 17.4 points" in text and "driving tasks (20 better in B, 0 worse)" in text


def test_runs_with_another_user_simulator_or_task_set_are_refused(tmp_path: Path) -> None:
    a = _results(tmp_path / "a.json", set(range(50)))
    b = _results(tmp_path / "b.json", set(range(50)), user_model="gpt-4.1")
    c = _results(tmp_path / "c.json", set(range(50)), tasks=100)
    result = invoke("compare", a, b, c, "--resamples", "199")
    assert result.exit_code == 1
    assert "user-simulator model differs: 'gpt-4o' in A, 'gpt-4.1' in B" in result.stdout
    assert "task set differs: 15 only in A (100, 101, 102, 103, 104 and 10 more)" in result.stdout
    forced = invoke("compare", a, b, "--force", "--resamples", "199")
    assert forced.exit_code == 0 and "no detectable difference" in forced.stdout


def test_plan_gives_the_worked_example_of_the_docs() -> None:
    """Every `taumesh plan` command in docs/statistics.md prints the lines the document shows under it."""
    doc = (PROJECT_ROOT / "docs" / "statistics.md").read_text()
    examples = re.findall(r"```console\n\$ taumesh (plan [^\n]+)\n(.*?)```", doc, re.DOTALL)
    assert examples, "docs/statistics.md shows no taumesh plan example"
    for command, shown in examples:
        result = invoke(*command.split())
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == shown.strip(), command


def test_plan_from_a_pilot_and_bad_input(tmp_path: Path) -> None:
    pilot = _results(tmp_path / "pilot.json", set(range(60)), tasks=115, trials=2)
    result = invoke("plan", "--pilot", pilot, "--detect", "0.05", "--width", "0.1")
    assert result.exit_code == 0, result.output
    assert "pilot model" in result.stdout and "trials per task" in result.stdout
    bad = invoke("plan", "--tasks", "115", "--expected-pass", "1.5", "--detect", "0.05")
    assert bad.exit_code == 2 and "between 0 and 1" in bad.output
    neither = invoke("plan", "--tasks", "115", "--detect", "0.05")
    assert neither.exit_code == 2 and "--expected-pass" in neither.output
