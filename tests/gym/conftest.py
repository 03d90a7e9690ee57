"""Fixtures of the Gym tests: τ-bench v1 retail's tasks (read from the shared data, in tests only)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog, Task
from tests.helpers.gym import EnvServerThread


@pytest.fixture(scope="session")
def retail_tasks(v1_data_dir: Path) -> list[Task]:
    return Catalog(v1_data_dir).get("retail").tasks("test")


@pytest.fixture
def retail(v1_data_dir: Path) -> dict[str, Any]:
    """Keyword arguments of a Gym environment on τ-bench v1 retail."""
    return {"domain": "retail", "data_dir": str(v1_data_dir)}


@pytest.fixture
def env_server(v1_data_dir: Path) -> Iterator[EnvServerThread]:
    running = EnvServerThread(v1_data_dir)
    try:
        yield running
    finally:
        running.stop()
