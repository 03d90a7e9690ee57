"""A real uvicorn serving the API on loopback, over SQLite or a throwaway PostgreSQL server.

``api`` is a uvicorn process; ``thread_api`` serves the same app from a thread of the test process (no process start,
no second import of the app and of litellm), for modules about what the API answers rather than about its process.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.api import (
    FAKE_PROVIDER_KEY,
    ApiServer,
    Postgres,
    create_database,
    start_server,
)
from tests.helpers.api_thread import ThreadApi, start_thread_server


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The API test module runs once over SQLite and once over PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'api.db'}"
    postgres: Postgres = request.getfixturevalue("postgres")
    return create_database(postgres, f"api_{request.module.__name__.rsplit('.', 1)[-1]}_{os.getpid()}")


@pytest.fixture
def own_database_url(request: pytest.FixtureRequest, database_url: str, tmp_path: Path) -> str:
    """An empty database of the module's kind, for a server that no other server of the module may poll."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'own.db'}"
    postgres: Postgres = request.getfixturevalue("postgres")
    return create_database(postgres, f"own_{os.getpid()}_{uuid.uuid4().hex[:8]}")


@pytest.fixture(scope="module")
def api(database_url: str, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = start_server(database_url, tmp_path_factory.mktemp("api"), v1_data_dir, OPENAI_API_KEY=FAKE_PROVIDER_KEY)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def thread_api(database_url: str, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    """As ``api``, served from a thread (``OPENAI_API_KEY`` is set in this process while it runs)."""
    root = tmp_path_factory.mktemp("api")
    server = start_thread_server(database_url, root, v1_data_dir, OPENAI_API_KEY=FAKE_PROVIDER_KEY)
    try:
        yield server
    finally:
        server.stop()
