"""Running one sandboxed command to its end, its timeout, or the moment a caller's watch says stop."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from taumesh.sandbox._bwrap import Limits, bwrap_argv, launcher

Stopped = Literal["exited", "timed out", "over quota"]


@dataclass(frozen=True)
class Outcome:
    """How a command ended: why it stopped, its exit status (meaningful when it exited), and its output."""

    stopped: Stopped
    code: int
    stdout: str
    stderr: str


def run_sandboxed(
    bwrap: str,
    folder: Path,
    mount_point: str,
    command: str,
    *,
    writable: bool,
    limits: Limits,
    timeout: float,
    scratch: Path,
    watch: Callable[[], bool] | None = None,
    poll_seconds: float = 0.2,
) -> Outcome:
    """``command`` by bash in a sandbox over ``folder`` made by ``bwrap`` (:func:`.bwrap_path`'s answer).

    Its output is captured in nameless files in ``scratch``.

    ``watch`` (if any) is asked every ``poll_seconds`` while the command runs and once after it ends: True stops
    it as "over quota". Blocks until the command ends (``timeout`` seconds at most).
    """
    with _output(scratch) as stdout, _output(scratch) as stderr:
        process = subprocess.Popen(  # noqa: S603 - the command runs inside the sandbox, which is its point
            [*launcher(), *bwrap_argv(bwrap, folder, mount_point, command, writable=writable, limits=limits)],
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            cwd="/",
        )
        stopped = wait_for(process, timeout, watch, poll_seconds)
        if stopped != "exited":
            return Outcome(stopped, process.returncode, "", "")
        return Outcome(stopped, process.returncode, _read(stdout), _read(stderr))


def wait_for(
    process: subprocess.Popen[bytes], timeout: float, watch: Callable[[], bool] | None, poll_seconds: float
) -> Stopped:
    """Until ``process`` ends, is past ``timeout`` or ``watch`` says stop; then it is killed."""
    deadline = time.monotonic() + timeout
    poll = poll_seconds if watch is not None else float(timeout)
    while True:
        try:
            process.wait(timeout=max(min(poll, deadline - time.monotonic()), 0.0))
        except subprocess.TimeoutExpired:
            stopped: Stopped | None = None
            if time.monotonic() >= deadline:
                stopped = "timed out"
            elif watch is not None and watch():
                stopped = "over quota"
            if stopped is not None:
                process.kill()  # bubblewrap; --die-with-parent takes the sandbox and all in it along
                process.wait()
                return stopped
            continue
        return "over quota" if watch is not None and watch() else "exited"


def _output(scratch: Path) -> IO[bytes]:
    """A nameless file for a command's stdout or stderr in ``scratch`` (never the host's /tmp)."""
    return tempfile.TemporaryFile(dir=scratch)


def _read(output: IO[bytes]) -> str:
    output.seek(0)
    return output.read().decode("utf-8", errors="replace")
