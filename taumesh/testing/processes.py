"""The process harness: start a server or a whole service stack as OS processes, wait until it serves, stop by PID.

A server is ready when it prints where it serves (``taumesh serve`` prints ``serving NAME on HOST:PORT``) and,
for a ``taumesh serve`` service, when its gRPC health service answers SERVING. Its stdout is drained by a thread
so the child never blocks on a full pipe; its stderr goes to a log file whose tail explains a failure.
"""

from __future__ import annotations

import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

SERVING = r"serving \S+ on (?P<address>\S+:\d+)"
"""What ``taumesh serve`` prints once it listens; group ``address`` is where."""


class ProcessFailed(RuntimeError):
    """A server process exited, or did not become ready in time; the message carries its output's tail."""


def taumesh_executable() -> str:
    """The ``taumesh`` script of this interpreter's environment (else the one on PATH)."""
    beside = Path(sys.executable).parent / "taumesh"
    if beside.is_file():
        return str(beside)
    found = shutil.which("taumesh")
    if found is None:
        raise FileNotFoundError("the taumesh script is not installed beside this Python nor on PATH")
    return found


@dataclass
class ServerProcess:
    """A server running as a separate OS process, and the address it printed."""

    argv: list[str]
    proc: subprocess.Popen[str]
    stderr_path: Path
    address: str = ""
    lines: list[str] = field(default_factory=list)
    _queue: queue.Queue[str | None] = field(default_factory=queue.Queue)

    @classmethod
    def spawn(
        cls, argv: Sequence[str], stderr_path: Path, env: Mapping[str, str] | None = None, cwd: Path | None = None
    ) -> ServerProcess:
        """Start ``argv`` with ``env`` (None: this process's environment), its stderr into ``stderr_path``."""
        with stderr_path.open("w") as stderr:
            proc = subprocess.Popen(  # noqa: S603 - the caller's own server command
                list(argv),
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                env=dict(env) if env is not None else None,
                cwd=cwd,
            )
        server = cls(list(argv), proc, stderr_path)
        threading.Thread(target=server._drain, daemon=True).start()
        return server

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line)
        self._queue.put(None)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self, pattern: str = SERVING, timeout: float = 60) -> ServerProcess:
        """Wait for a stdout line matching ``pattern``; its group ``address`` (host:port) is where it serves.

        Raises :class:`ProcessFailed` (the process killed) when it exits or stays silent for ``timeout`` seconds.
        """
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.kill()
                raise ProcessFailed(
                    f"{self.argv} did not print {pattern!r} (stdout {self.lines!r})\nstderr:\n{self.stderr()}"
                )
            self.lines.append(line)
            match = regex.search(line)
            if match:
                self.address = match.group("address")
                return self

    def wait_healthy(self, service: str = "", timeout: float = 30) -> ServerProcess:
        """Wait until the gRPC health service at :attr:`address` reports ``service`` ("": the server) SERVING."""
        deadline = time.monotonic() + timeout
        request = health_pb2.HealthCheckRequest(service=service)
        with grpc.insecure_channel(self.address) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while True:
                try:
                    if stub.Check(request, timeout=2).status == health_pb2.HealthCheckResponse.SERVING:
                        return self
                except grpc.RpcError:
                    pass
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise ProcessFailed(f"{self.argv} at {self.address} never reported SERVING\n{self.stderr()}")
                time.sleep(0.05)

    def stdout(self, timeout: float = 10) -> str:
        """All it printed to stdout, once it has exited (waits up to ``timeout`` for the pipe to close)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                self._queue.put(None)  # a later call ends here too
                break
            self.lines.append(line)
        return "".join(self.lines)

    def stderr(self) -> str:
        """The tail of what it wrote to stderr."""
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")[-4000:]

    def terminate(self, timeout: float = 10) -> int:
        """SIGTERM, then wait; returns the exit code (raises ``TimeoutExpired`` if it outlives ``timeout``)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, then SIGKILL if it is still running after ``timeout`` seconds; returns the exit code."""
        try:
            return self.terminate(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL, and reap it."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def serve_argv(service: str, *flags: str) -> list[str]:
    """``taumesh serve SERVICE`` on a free loopback port, with ``flags`` after."""
    return [taumesh_executable(), "serve", service, "--host", "127.0.0.1", "--port", "0", *flags]


def start_service(
    service: str,
    stderr_path: Path,
    *flags: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 60,
) -> ServerProcess:
    """``taumesh serve SERVICE FLAGS`` as a process, returned once it listens and its health says SERVING."""
    server = ServerProcess.spawn(serve_argv(service, *flags), stderr_path, env, cwd)
    return server.wait_ready(SERVING, timeout).wait_healthy(timeout=timeout)


def stop_all(servers: Sequence[ServerProcess], timeout: float = 30) -> None:
    """SIGTERM to all at once (they drain in parallel), then wait for each, SIGKILL for any that outlives it."""
    for server in servers:
        if server.proc.poll() is None:
            server.proc.send_signal(signal.SIGTERM)
    for server in servers:
        server.stop(timeout)


@contextmanager
def service_processes(
    services: Mapping[str, Sequence[str]],
    log_dir: Path,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stop_timeout: float = 30,
) -> Iterator[dict[str, ServerProcess]]:
    """A stack: each ``taumesh serve NAME FLAGS`` of ``services`` as a process, yielded once all serve.

    Each one's stderr goes to ``log_dir/NAME.log``; all are stopped on the way out, whatever happened.
    """
    started: dict[str, ServerProcess] = {}
    try:
        for name, flags in services.items():
            started[name] = start_service(name, log_dir / f"{name}.log", *flags, env=env, cwd=cwd)
        yield started
    finally:
        stop_all(list(started.values()), stop_timeout)
