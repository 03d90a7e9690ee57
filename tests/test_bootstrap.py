"""``source scripts/bootstrap.sh`` sets up .venv and leaves the caller's shell as it found it."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import PROJECT_ROOT

# after sourcing: the shell's options, then proof it survives a failing command and an unset variable
PROBE = """
before="$-|$(set +o)|$(shopt -p)"
source "$ROOT/scripts/bootstrap.sh" {mode}
echo "status=$?"
after="$-|$(set +o)|$(shopt -p)"
[ "$before" = "$after" ] && echo "options kept"
false
echo "alive after false: $UNSET_VARIABLE|$(false | true; echo $?)"
echo "PATH=$PATH"
echo "leftovers=$(compgen -A function _taumesh)$(compgen -v _taumesh)"
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the script beside a fake .venv whose python only records how it was called."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(PROJECT_ROOT / "scripts" / "bootstrap.sh", tmp_path / "scripts" / "bootstrap.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/python.log"\n')
    python.chmod(0o755)
    return tmp_path


def source_in_bash(root: Path, mode: str) -> str:
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", PROBE.format(mode=mode)],
        env={"ROOT": str(root), "PYTHON": sys.executable, "PATH": "/usr/bin:/bin", "HOME": str(root)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def stamp(root: Path, mode: str) -> Path:
    path = root / ".venv" / f".taumesh-installed-{mode}"
    path.write_text(hashlib.sha256((root / "pyproject.toml").read_bytes()).hexdigest() + "\n")
    return path


def test_sourcing_an_installed_venv_changes_only_path(root: Path) -> None:
    stamp(root, "dev")
    out = source_in_bash(root, "dev")
    assert "status=0" in out and "options kept" in out
    assert "alive after false: |0" in out  # no -e, no -u, no pipefail
    assert f"PATH={root}/.venv/bin:/usr/bin:/bin" in out
    assert "leftovers=\n" in out
    assert not (root / "python.log").exists()  # the stamp matched: nothing was installed


def test_a_changed_pyproject_reinstalls_and_stamps(root: Path) -> None:
    stamp(root, "base").write_text("an older pyproject\n")
    out = source_in_bash(root, "base")
    assert "status=0" in out and "options kept" in out and "alive after false" in out
    log = (root / "python.log").read_text().splitlines()
    venv_python = root / ".venv" / "bin" / "python"
    assert log == [
        "-m pip install --quiet --disable-pip-version-check uv",
        f"-m uv pip install --python {venv_python} --compile-bytecode -e {root}",  # not --quiet: uv's progress shows
    ]
    # a first install takes minutes: each phase says what it does (issue 40: run-offline.sh was silent for 2 minutes)
    assert "bootstrap: installing taumesh into .venv" in out
    assert "bootstrap: [1/3] installing uv" in out
    assert "bootstrap: [2/3] resolving and installing the dependencies with uv" in out
    assert "bootstrap: [3/3] done" in out
    want = hashlib.sha256((root / "pyproject.toml").read_bytes()).hexdigest()
    assert (root / ".venv" / ".taumesh-installed-base").read_text() == want + "\n"


def test_a_bad_mode_is_refused_without_closing_the_shell(root: Path) -> None:
    out = source_in_bash(root, "nope")
    assert "status=2" in out and "options kept" in out and "alive after false" in out
    assert "PATH=/usr/bin:/bin" in out
    script = str(root / "scripts" / "bootstrap.sh")
    run = subprocess.run(["bash", script, "nope"], capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "say base or dev, not 'nope'" in run.stderr
