"""Under CI a skip for data or a tool CI provides fails; an opt-in tier's still skips; outside CI all skip.

Each case runs a small test file through a real pytest process with the project's plugin (tests/helpers/skips.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import child_env
from tests.helpers.paths import PROJECT_ROOT
from tests.helpers.skips import SkipKind, skip_kind

SKIPPING = """
import pytest

def test_data():
    pytest.skip("reference data not found at /nowhere/taubench_v1")

@pytest.mark.skipif(True, reason="PostgreSQL binaries (initdb, pg_ctl) not found; install PostgreSQL")
def test_tool():
    pass

def test_opt_in():
    pytest.skip("opt in: TAUMESH_BENCH_TAU2_VENV=venv")

def test_unknown():
    pytest.skip("something nobody classified")

@pytest.mark.xfail(reason="expected")
def test_xfail():
    raise AssertionError
"""


def run_pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    (folder / "test_skipping.py").write_text(SKIPPING, encoding="utf-8")
    env = child_env() | {"PYTHONPATH": str(PROJECT_ROOT)}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    argv = ["-m", "pytest", "-p", "tests.helpers.skips", "-p", "no:cacheprovider", "-p", "no:randomly", "-n", "0"]
    return subprocess.run(
        [sys.executable, *argv, "-q", "-rA", "--rootdir", str(folder), str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_under_ci_a_skip_for_what_ci_provides_fails(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, "true")
    assert done.returncode == 1, done.stdout
    assert re.search(r"ERROR .*test_tool", done.stdout) and re.search(r"FAILED .*test_data", done.stdout)
    assert re.search(r"FAILED .*test_unknown", done.stdout)  # an unclassified reason fails too
    assert re.search(r"SKIPPED .*opt in: TAUMESH_BENCH_TAU2_VENV", done.stdout)
    assert "which must provide what it lacks (data CI provides): reference data not found" in done.stdout
    assert "skipped under CI, an opt-in tier: 1" in done.stdout
    assert "xfailed" in done.stdout


def test_outside_ci_every_skip_stays_a_skip(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, None)
    assert done.returncode == 0, done.stdout
    assert "4 skipped" in done.stdout and "skipped under CI" not in done.stdout


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("τ² data not fetched: τ² data is not in /x/tau2: run `taumesh data fetch tau2`", SkipKind.DATA),
        ("Chromium is not installed at /usr/bin/chromium (apt-get install chromium)", SkipKind.TOOL),
        (
            "the deploy tier (real containers) runs by `bash scripts/test-deploy.sh`, which builds the image",
            SkipKind.OPT_IN,
        ),
        ("TAUMESH_TAU2_CHECKOUT (an upstream checkout with its sources) not set", SkipKind.UNAVAILABLE),
    ],
)
def test_reasons_are_classified(reason: str, kind: SkipKind) -> None:
    assert skip_kind(reason) is kind
