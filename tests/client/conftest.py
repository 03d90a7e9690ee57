"""A real uvicorn serving the API on loopback (SQLite), shared by the client tests; the API tests' helpers reused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.conftest import FAKE_PROVIDER_KEY, ApiServer, start_server

ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
"""Offline runs: the oracle agent and the scripted user on τ-bench v1 retail."""


def sqlite_server(root: Path, data_dir: Path, **extra_env: str) -> ApiServer:
    """A uvicorn with its own SQLite database under ``root``."""
    return start_server(f"sqlite:///{root / 'api.db'}", root, data_dir, **extra_env)


@pytest.fixture(scope="session")
def api(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = sqlite_server(tmp_path_factory.mktemp("client-api"), v1_data_dir, OPENAI_API_KEY=FAKE_PROVIDER_KEY)
    try:
        yield server
    finally:
        server.stop()
