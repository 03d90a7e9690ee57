"""The test command (issue 40): documented, with a quick mode for one file; CI still runs the whole command."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.helpers.paths import PROJECT_ROOT

WHOLE_PACKAGE_CHECKS = ("== generated code", "== buf lint", "== layers", "== ruff", "== docs", "== mypy")


@pytest.mark.parametrize(
    ("args", "extra_env"),
    [(["--quick"], {}), ([], {"TAUMESH_TEST_QUICK": "1"})],
    ids=["--quick", "TAUMESH_TEST_QUICK"],
)
def test_quick_mode_runs_one_file_and_nothing_else(args: list[str], extra_env: dict[str, str]) -> None:
    env = {**os.environ, **extra_env}
    env.pop("CI", None)
    done = subprocess.run(
        ["bash", "scripts/test.sh", *args, "tests/test_bootstrap.py", "-p", "no:randomly"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "== pytest (quick" in done.stdout and "3 passed" in done.stdout, done.stdout
    assert not [check for check in WHOLE_PACKAGE_CHECKS if check in done.stdout], done.stdout
    assert "system-deps" not in done.stdout + done.stderr and "apt" not in done.stderr


def test_ci_runs_exactly_the_full_test_command() -> None:
    lines = [line for line in (PROJECT_ROOT / ".ci" / "run").read_text().splitlines() if not line.startswith("#")]
    assert lines[-1] == "exec bash scripts/test.sh"
    script = (PROJECT_ROOT / "scripts" / "test.sh").read_text()
    assert "NO_MKDOCS_2_WARNING=1 mkdocs build --strict" in script  # the docs site is checked with the rest


def test_the_test_command_is_documented() -> None:
    for page in ("README.md", "docs/testing.md"):
        text = (PROJECT_ROOT / page).read_text(encoding="utf-8")
        assert "bash scripts/test.sh --quick tests/" in text and "TAUMESH_TEST_QUICK=1" in text, page
