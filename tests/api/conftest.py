"""A real uvicorn serving the API on loopback, over SQLite or a throwaway PostgreSQL server."""

from __future__ import annotations

import os
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


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The API test module runs once over SQLite and once over PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'api.db'}"
    postgres: Postgres = request.getfixturevalue("postgres")
    return create_database(postgres, f"api_{request.module.__name__.rsplit('.', 1)[-1]}_{os.getpid()}")


@pytest.fixture(scope="module")
def api(database_url: str, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = start_server(database_url, tmp_path_factory.mktemp("api"), v1_data_dir, OPENAI_API_KEY=FAKE_PROVIDER_KEY)
    try:
        yield server
    finally:
        server.stop()
