"""Servers a test starts as processes: the project's process harness with the tests' environment and failures."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx
import pytest

from taumesh.testing.processes import SERVING, ProcessFailed, ServerProcess
from tests.helpers.cli import child_env
from tests.helpers.paths import PROJECT_ROOT

__all__ = ["SERVING", "Server", "free_port", "start_server"]


def wait_for_http(process: subprocess.Popen[bytes], url: str, log: Path, seconds: float, poll: float = 0.3) -> None:
    """Wait until ``url`` answers 200 while ``process`` lives (its ``log``'s end shown if it dies), ``seconds`` at most.

    One client for every poll: ``httpx.get`` builds a TLS context each time.
    """
    deadline = time.monotonic() + seconds
    with httpx.Client(timeout=1) as probe:
        while True:
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, f"{url} did not answer within {seconds:.0f} s"
            try:
                if probe.get(url).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(poll)


def free_port() -> int:
    """A port nothing listens on (bound then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server(ServerProcess):
    """A server process with the tests' child environment, run from the project's root; not ready in time fails
    the test."""

    @classmethod
    def spawn(
        cls,
        argv: Sequence[str],
        stderr_path: Path,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = PROJECT_ROOT,
    ) -> Server:
        """Start ``argv`` with ``env`` added to :func:`child_env`'s environment."""
        server = super().spawn(argv, stderr_path, child_env() | dict(env or {}), cwd)
        assert isinstance(server, Server)
        return server

    def wait_ready(self, pattern: str = SERVING, timeout: float = 60) -> Server:
        try:
            super().wait_ready(pattern, timeout)
        except ProcessFailed as exc:
            pytest.fail(str(exc))
        return self


def start_server(
    argv: list[str], pattern: str, stderr_path: Path, timeout: float = 60, env: dict[str, str] | None = None
) -> Server:
    """Start ``argv`` and wait until it prints where it serves (see :meth:`Server.wait_ready`)."""
    return Server.spawn(argv, stderr_path, env).wait_ready(pattern, timeout)
