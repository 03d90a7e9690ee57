"""Purple A2A agents the tests start as separate processes (tests/external_agent/a2a_gold_agent.py).

An agent without ``--garbage-once`` keeps no state across episodes but each episode's own (one A2A context per
episode), so one process per kind of reply serves every test of a test process that asks for it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.a2a import AGENT, StartAgent, wait_for_card
from tests.helpers.processes import free_port


class Agents:
    """Gold agents started on demand in ``log_dir``, stopped by :meth:`stop`."""

    def __init__(self, tasks: Path, log_dir: Path) -> None:
        self.tasks, self.log_dir = tasks, log_dir
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: dict[str, str] = {}

    def start(self, reply: str, *, grpc: bool, garbage_once: bool) -> str:
        port = free_port()
        argv = [sys.executable, str(AGENT), "--tasks", str(self.tasks), "--port", str(port), "--reply", reply]
        if grpc:
            argv += ["--grpc-port", str(free_port())]
        if garbage_once:
            argv.append("--garbage-once")
        log = self.log_dir / f"agent-{port}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        self.procs.append(proc)
        url = f"http://127.0.0.1:{port}"
        wait_for_card(url, proc, log)
        return url

    def shared(self, reply: str) -> str:
        """The one agent of this kind of reply, serving JSON-RPC and gRPC, started on first use."""
        if reply not in self.urls:
            self.urls[reply] = self.start(reply, grpc=True, garbage_once=False)
        return self.urls[reply]

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def shared_agents(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agents]:
    """The agents every test of this test process may share (see :meth:`Agents.shared`)."""
    agents = Agents(v1_data_dir / "retail" / "tasks_test.json", tmp_path_factory.mktemp("a2a-agents"))
    try:
        yield agents
    finally:
        agents.stop()


@pytest.fixture
def start_agent(shared_agents: Agents, v1_data_dir: Path, tmp_path: Path) -> Iterator[StartAgent]:
    """The gold A2A agent (``reply`` text or data, optional gRPC, optional garbage once); returns its URL.

    An agent that returns garbage once is this test's own; any other is shared (it serves gRPC too, listed second
    on its card, so a client taking the card's first binding still takes JSON-RPC)."""
    own = Agents(v1_data_dir / "retail" / "tasks_test.json", tmp_path)

    def start(reply: str = "text", *, grpc: bool = False, garbage_once: bool = False) -> str:
        if garbage_once:
            return own.start(reply, grpc=grpc, garbage_once=True)
        return shared_agents.shared(reply)

    yield start
    own.stop()
