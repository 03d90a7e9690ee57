"""Purple A2A agents the tests start as separate processes (tests/external_agent/a2a_gold_agent.py)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.a2a import AGENT, StartAgent, wait_for_card
from tests.helpers.processes import free_port


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
