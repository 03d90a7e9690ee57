"""A branch's files written to a folder and its tests run there in the bubblewrap sandbox (``taumesh.sandbox``).

The folder is mounted read-only at :data:`MOUNT_POINT`, with no network, and Python runs without writing bytecode;
as root, bubblewrap runs as ``nobody``, so the folder and its files are made readable by all (they hold nothing
but the repository's public code). A run's verdict is cached by the files' digest: the grader of a task and the
agent's ``run_tests`` both ask again for the same content.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from taumesh.sandbox import Limits, bwrap_path, run_sandboxed, setup_problem

MOUNT_POINT = "/repo"
TEST_COMMAND = "python3 -B -m unittest discover -s tests 2>&1"
"""The standard library's runner over ``tests/``; the repository's root is on the path (``-m``)."""
TIMEOUT_SECONDS = 10
LIMITS = Limits(processes=32, memory_mib=512, cpu_seconds=TIMEOUT_SECONDS, tmp_mib=16, output_kib=1024)
_PROBE = "python3 -c 'print(6 * 7)'"
_CACHE_SIZE = 512
_cached: dict[str, TestRun] = {}
_lock = threading.Lock()


class TestRun(BaseModel):
    """How a branch's tests went: passed (exit status 0), and the runner's last lines."""

    __test__ = False  # not a pytest class
    passed: bool
    summary: str


def digest(files: Mapping[str, str]) -> str:
    """A digest of files by path and text."""
    text = "\0".join(f"{path}\0{files[path]}" for path in sorted(files))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def sandbox_problem() -> str | None:
    """Why no test can run on this machine (no usable bubblewrap), or None; tried once per process."""
    problem = setup_problem(bwrap_path())
    if problem is not None:
        return problem
    outcome = _run({"probe.txt": "probe\n"}, _PROBE)
    if outcome.passed and outcome.summary.strip() == "42":
        return None
    return f"bubblewrap cannot run Python in a sandbox here: {outcome.summary[:300]}"


def run_tests(files: Mapping[str, str]) -> TestRun:
    """The tests of a branch holding ``files`` (path -> text), run in the sandbox once per distinct content."""
    key = digest(files)
    with _lock:
        found = _cached.get(key)
    if found is not None:
        return found
    problem = sandbox_problem()
    if problem is not None:
        raise RuntimeError(f"the tests run in a bubblewrap sandbox, which {problem}")
    result = _run(files, TEST_COMMAND)
    with _lock:
        if len(_cached) >= _CACHE_SIZE:
            _cached.pop(next(iter(_cached)))
        _cached[key] = result
    return result


def _run(files: Mapping[str, str], command: str) -> TestRun:
    bwrap = bwrap_path()
    if bwrap is None:
        return TestRun(passed=False, summary="no bubblewrap")
    scratch = Path(tempfile.mkdtemp(prefix="taumesh-engineering-"))
    try:
        scratch.chmod(0o755)
        folder = scratch / "repo"
        _write(folder, files)
        outcome = run_sandboxed(
            bwrap,
            folder,
            MOUNT_POINT,
            command,
            writable=False,
            limits=LIMITS,
            timeout=TIMEOUT_SECONDS,
            scratch=scratch,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if outcome.stopped != "exited":
        return TestRun(passed=False, summary=f"the tests {outcome.stopped} after {TIMEOUT_SECONDS} seconds")
    tail = "\n".join(outcome.stdout.strip().splitlines()[-12:])
    return TestRun(passed=outcome.code == 0, summary=tail)


def _write(folder: Path, files: Mapping[str, str]) -> None:
    """Each file under ``folder``, readable by all; a path leaving the folder is refused."""
    folder.mkdir(mode=0o755)
    for path, text in files.items():
        target = (folder / path).resolve()
        if not target.is_relative_to(folder.resolve()):
            raise ValueError(f"path {path!r} leaves the repository")
        for parent in reversed(target.relative_to(folder.resolve()).parents):
            (folder / parent).mkdir(mode=0o755, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        target.chmod(0o644)
