"""The shared bubblewrap sandbox (``taumesh.sandbox``) on its own, without any domain.

Its command line mounts only the folder (read-only unless asked) beside the system directories and sets the limits
before the command; a command run in it sees the folder at the mount point, cannot write it when read-only, reaches
no host file such as ``/etc/passwd`` and no network, and is stopped at its timeout or when the caller's watch says
so. The shell tool's own tests (tests/security) check the rest of what the sandbox holds as root.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from taumesh.sandbox import Limits, Outcome, bwrap_argv, bwrap_path, run_sandboxed, setup_problem

LIMITS = Limits(cpu_seconds=5)


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder with one file, readable by ``nobody`` (whom bubblewrap runs as when the tests run as root)."""
    scratch = Path(tempfile.mkdtemp(prefix="taumesh-sandbox-test-"))
    scratch.chmod(0o755)
    inside = scratch / "inside"
    inside.mkdir(mode=0o755)
    (inside / "note.txt").write_text("kept\n", encoding="utf-8")
    (inside / "note.txt").chmod(0o644)
    yield inside
    shutil.rmtree(scratch, ignore_errors=True)


def _run(folder: Path, command: str, timeout: float = 10, watch: Callable[[], bool] | None = None) -> Outcome:
    bwrap = bwrap_path()
    assert bwrap is not None
    return run_sandboxed(
        bwrap,
        folder,
        "/work",
        command,
        writable=False,
        limits=LIMITS,
        timeout=timeout,
        scratch=folder.parent,
        watch=watch,
        poll_seconds=0.1,
    )


@pytest.fixture
def sandboxed(folder: Path) -> Path:
    problem = setup_problem(bwrap_path())
    if problem is not None:
        pytest.skip(f"no sandbox here: {problem}")
    if _run(folder, "true").code != 0:
        pytest.skip("bubblewrap cannot make a sandbox on this machine")
    return folder


def test_the_command_line_mounts_the_folder_alone_and_sets_the_limits_first(folder: Path) -> None:
    argv = bwrap_argv("/usr/bin/bwrap", folder, "/work", "echo hi", writable=False, limits=LIMITS)
    assert ["--ro-bind", str(folder), "/work", "--chdir", "/work"] == argv[argv.index(str(folder)) - 1 :][:5]
    assert "--unshare-all" in argv and "--cap-drop" in argv and "--clearenv" in argv
    assert argv[-3:] == ["bash", "-c", f"{LIMITS.ulimits()}; echo hi"]
    writable = bwrap_argv("/usr/bin/bwrap", folder, "/work", "true", writable=True, limits=LIMITS)
    assert writable[writable.index(str(folder)) - 1] == "--bind"


def test_a_command_sees_the_folder_and_nothing_else_of_the_host(sandboxed: Path) -> None:
    seen = _run(sandboxed, "cat note.txt; pwd")
    assert (seen.stopped, seen.code, seen.stdout) == ("exited", 0, "kept\n/work\n")
    assert _run(sandboxed, "echo changed > note.txt").code != 0
    assert (sandboxed / "note.txt").read_text(encoding="utf-8") == "kept\n"
    assert _run(sandboxed, "cat /etc/passwd").code != 0
    offline = _run(sandboxed, "exec 3<>/dev/tcp/1.1.1.1/53 && echo connected")
    assert offline.code != 0 and "connected" not in offline.stdout


def test_a_command_is_stopped_at_its_timeout_or_when_the_watch_says_so(sandboxed: Path) -> None:
    assert _run(sandboxed, "sleep 20", timeout=0.5).stopped == "timed out"
    watched = _run(sandboxed, "sleep 20", watch=lambda: True)
    assert watched.stopped == "over quota"
