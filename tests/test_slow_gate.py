"""Tests marked ``slow`` are skipped, with the reason shown, unless ``--runslow`` or TAUMESH_RUNSLOW=1 asks for them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT, RUNSLOW_ENV

SUITE = """
import pytest

@pytest.mark.slow
def test_slow():
    pass

def test_quick():
    pass
"""


def run_pytest(directory: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """pytest on a small suite whose conftest is this project's."""
    environ = {k: v for k, v in os.environ.items() if k != RUNSLOW_ENV} | {"PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", str(directory), *args],
        env=environ | (env or {}),
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
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n")
    (tmp_path / "test_probe.py").write_text(SUITE)
    return tmp_path


def test_slow_tests_are_skipped_with_the_reason_by_default(suite: Path) -> None:
    out = run_pytest(suite)
    assert "1 passed, 1 skipped" in out
    assert f"SKIPPED [1] test_probe.py:4: slow: run it with --runslow or {RUNSLOW_ENV}=1" in out
    assert "slow tests: skipped" in out  # the header says so before any test runs


@pytest.mark.parametrize(("args", "env"), [(["--runslow"], None), ([], {RUNSLOW_ENV: "1"})])
def test_runslow_or_the_environment_runs_them(suite: Path, args: list[str], env: dict[str, str] | None) -> None:
    out = run_pytest(suite, *args, env=env)
    assert "2 passed" in out and "skipped" not in out.split("slow tests: run", 1)[1]
