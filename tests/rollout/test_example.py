"""examples/group_rollouts.py runs as ``python examples/group_rollouts.py`` does, in this process, and prints groups
whose advantages separate the stand-in policy's solved trials from its failed ones."""

from __future__ import annotations

import runpy

import pytest

from tests.helpers.paths import PROJECT_ROOT

EXAMPLE = PROJECT_ROOT / "examples" / "group_rollouts.py"


def test_the_example_prints_each_group_with_its_advantages(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    printed = capsys.readouterr().out
    assert printed.count("8 rollouts, mean reward 0.50") == 3
    assert printed.count("advantages [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]") == 3
    assert "DB database (one of 1 allowed outcomes): passed" in printed
