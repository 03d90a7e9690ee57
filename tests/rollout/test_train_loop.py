"""examples/train_loop.py runs as ``python examples/train_loop.py`` does, in this process: its policy function plays
every group through the embedded services, and it prints each group's shapes and GRPO-style advantages, the same on
every run."""

from __future__ import annotations

import ast
import math
import re
import runpy

import pytest

from tests.helpers.paths import PROJECT_ROOT

EXAMPLE = PROJECT_ROOT / "examples" / "train_loop.py"


def printed_lists(text: str, label: str) -> list[list[float]]:
    """Every list printed after ``label``."""
    return [ast.literal_eval(found) for found in re.findall(rf"{re.escape(label)} (\[[^\]]*\])", text)]


def test_the_training_loop_prints_each_groups_shapes_and_advantages(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    printed = capsys.readouterr().out
    assert printed.count("group of 4") == 3 and printed.count("rewards: (4,)") == 3
    assert printed.count("trainer.step() would run here") == 2
    rewards = printed_lists(printed, "rewards: (4,)")
    assert {reward for group in rewards for reward in group} == {0.0, 1.0}, "the stand-in policy errs on some trials"
    for group, by_reward in zip(rewards, printed_lists(printed, "advantages (reward):"), strict=True):
        assert math.isclose(sum(by_reward), 0.0, abs_tol=0.05), by_reward  # normalised within its group
        assert [a > 0 for a in by_reward] == [r > sum(group) / len(group) for r in group]
    credit = printed_lists(printed, "mean credit")
    assert 0.5 in {c for group in credit for c in group}, "a rollout that acted right but said too little: half credit"
    assert printed.count("token traces: [0, 0, 0, 0] (none without a model gateway)") == 3

    runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert capsys.readouterr().out == printed, "the episodes' seeds make the stand-in policy's slips reproducible"
