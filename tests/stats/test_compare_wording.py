"""``taumesh compare`` as a new user reads it (issue 40, item 7): the verdict's interval agrees with its words, and
a refusal says once what differs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.helpers.cli import invoke


def results(path: Path, solved: set[int], user_strategy: str = "llm") -> Path:
    """A τ-bench results file of 115 tasks, one trial, ``solved`` scoring 1.0."""
    run = {
        "env": "retail",
        "task_split": "test",
        "max_steps": 30,
        "agent": {"strategy": "tool-calling", "model": "m"},
        "user": {"strategy": user_strategy, "model": "gpt-4o"},
    }
    entries = [
        {"task_id": task, "reward": float(task in solved), "info": {"run": run}, "traj": [], "trial": 0}
        for task in range(115)
    ]
    path.write_text(json.dumps(entries))
    return path


def test_when_a_is_better_its_interval_is_a_s_lead_not_b_s_deficit(tmp_path: Path) -> None:
    a = results(tmp_path / "a.json", set(range(70)))
    b = results(tmp_path / "b.json", set(range(50)))
    result = invoke("compare", a, b, "--resamples", "1999")
    assert result.exit_code == 0, result.output
    match = re.search(
        r"A is better than B by 17\.4 points of pass\^1 \(95 % CI (-?[\d.]+)–(-?[\d.]+), p = ", result.stdout
    )
    assert match, result.stdout  # before: "A is better than B by 17.4 points (95 % CI -24.3–-10.4 …)"
    low, high = float(match.group(1)), float(match.group(2))
    assert 0 < low < 17.4 < high, (low, high)
    report = json.loads(invoke("compare", a, b, "--resamples", "999", "--json").stdout)[0]
    assert report["comparison"]["pass1_difference"]["estimate"] < 0  # the data keeps B less A


def test_a_refusal_names_what_differs_once(tmp_path: Path) -> None:
    a = results(tmp_path / "a.json", set(range(50)))
    b = results(tmp_path / "b.json", set(range(50)), user_strategy="scripted")
    result = invoke("compare", a, b, "--resamples", "199")
    assert result.exit_code == 1
    said = "user-simulator strategy differs: 'llm' in A, 'scripted' in B"
    assert f"not compared: {said}" in result.stdout, result.stdout
    assert "differ in" not in result.stdout and "differs: user-simulator" not in result.stdout.replace(said, "")
    assert not re.search(r"differs?\b.*\bdiffers\b.*\bdiffers\b", result.stdout), result.stdout
