"""Fixtures of the Gym tests: τ-bench v1 retail's tasks (read from the shared data, in tests only)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog, Task
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.env import env_service


@pytest.fixture(scope="session")
def retail_tasks(v1_data_dir: Path) -> list[Task]:
    return Catalog(v1_data_dir).get("retail").tasks("test")


@pytest.fixture
def retail(v1_data_dir: Path) -> dict[str, Any]:
    """Keyword arguments of a Gym environment on τ-bench v1 retail."""
    return {"domain": "retail", "data_dir": str(v1_data_dir)}


class EnvServerThread:
    """An env service on a loop of its own (the Gym API blocks the caller's thread), its servicer at hand."""

    def __init__(self, data_dir: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.service = env_service(Catalog(data_dir))
        self.server: RunningServer = asyncio.run_coroutine_threadsafe(start_server([self.service]), self.loop).result()

    @property
    def open_sessions(self) -> int:
        return len(self.service.servicer.sessions)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(grace=1.0), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


@pytest.fixture
def env_server(v1_data_dir: Path) -> Iterator[EnvServerThread]:
    running = EnvServerThread(v1_data_dir)
    try:
        yield running
    finally:
        running.stop()


from tests.llm.conftest import fake, fake_server  # noqa: E402, F401 - the fake OpenAI server, for the LLM user
