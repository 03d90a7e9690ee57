"""Fixtures of the LLM tests: retail's tasks and their index (the fake OpenAI server is in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.domains import Catalog, Task
from tests.llm.scripts import TaskIndex


@pytest.fixture(scope="session")
def retail_tasks(v1_data_dir: Path) -> list[Task]:
    return Catalog(v1_data_dir).get("retail").tasks("test")


@pytest.fixture(scope="session")
def task_index(retail_tasks: list[Task]) -> TaskIndex:
    return TaskIndex(retail_tasks)
