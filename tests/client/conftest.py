"""A real uvicorn serving the API on loopback (SQLite), shared by the client tests (tests/helpers/api.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.api import FAKE_PROVIDER_KEY, ApiServer
from tests.helpers.client import sqlite_server


@pytest.fixture(scope="session")
def api(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = sqlite_server(tmp_path_factory.mktemp("client-api"), v1_data_dir, OPENAI_API_KEY=FAKE_PROVIDER_KEY)
    try:
        yield server
    finally:
        server.stop()
