"""The tiers: every test runs by default (CI runs them all); ``-m "not slow"`` leaves out the tests marked ``slow``,
``browser`` or ``kill`` (the last two are slow as well), and each marker deselects its own kind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import PROJECT_ROOT

SUITE = """
import pytest

@pytest.mark.slow
def test_slow():
    pass

@pytest.mark.browser
def test_browser():
    pass

@pytest.mark.kill
def test_kill():
    pass

def test_quick():
    pass
"""


def run_pytest(directory: Path, *args: str) -> str:
    """pytest on a small suite whose conftest is this project's, with the markers pyproject.toml declares."""
    environ = os.environ | {"PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(directory), *args],
        env=environ,
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    (tmp_path / "conftest.py").write_text("from tests.conftest import *  # noqa: F403\n")
    (tmp_path / "pyproject.toml").write_text((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (tmp_path / "test_probe.py").write_text(SUITE)
    return tmp_path


def test_every_tier_runs_by_default(suite: Path) -> None:
    out = run_pytest(suite, "--strict-markers")  # the three markers are declared: no unknown-marker error
    assert "4 passed" in out and "skipped" not in out and "deselected" not in out


@pytest.mark.parametrize(
    ("expression", "kept"),
    [
        ("not slow", {"test_quick"}),
        ("not browser", {"test_quick", "test_slow", "test_kill"}),
        ("not kill", {"test_quick", "test_slow", "test_browser"}),
        ("slow", {"test_slow", "test_browser", "test_kill"}),
    ],
)
def test_a_marker_expression_deselects_its_tier(suite: Path, expression: str, kept: set[str]) -> None:
    out = run_pytest(suite, "-m", expression)
    passed = {line.rsplit("::", 1)[1].strip() for line in out.splitlines() if line.startswith("PASSED ")}
    assert passed == kept, out
    assert f"{4 - len(kept)} deselected" in out
