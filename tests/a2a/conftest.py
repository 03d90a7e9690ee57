"""Purple A2A agents the tests start as separate processes (tests/external_agent/a2a_gold_agent.py)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

AGENT = Path(__file__).resolve().parents[1] / "external_agent" / "a2a_gold_agent.py"


def free_port() -> int:
    """A port nothing listens on (bound then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_card(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Return once ``url`` serves its agent card; fail with the agent's log if it exits first."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"A2A agent exited: {log.read_text()}")
        try:
            if httpx.get(f"{url}/.well-known/agent-card.json", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    pytest.fail(f"A2A agent at {url} never served its card: {log.read_text()}")


StartAgent = Callable[..., str]


@pytest.fixture
def start_agent(v1_data_dir: Path, tmp_path: Path) -> Iterator[StartAgent]:
    """Start the gold A2A agent (``reply`` text or data, optional gRPC, optional garbage once); returns its URL."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(reply: str = "text", *, grpc: bool = False, garbage_once: bool = False) -> str:
        port = free_port()
        argv = [sys.executable, str(AGENT), "--tasks", str(v1_data_dir / "retail" / "tasks_test.json")]
        argv += ["--port", str(port), "--reply", reply]
        if grpc:
            argv += ["--grpc-port", str(free_port())]
        if garbage_once:
            argv.append("--garbage-once")
        log = tmp_path / f"agent-{port}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        procs.append(proc)
        url = f"http://127.0.0.1:{port}"
        wait_for_card(url, proc, log)
        return url

    yield start
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait(timeout=10)
