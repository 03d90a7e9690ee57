"""A real uvicorn serving the API on loopback (SQLite) from a thread, shared by each module's client tests.

What these tests show is what the client does with the API's answers over real HTTP, not the server's process
(tests/client/test_stream_reconnects.py kills a uvicorn process). The server may call the session's scripted
OpenAI-compatible server (``fake_server``): the examples' tool-calling agent does. Module scope: the provider key
it sets in this process is gone when the module's tests are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.api import FAKE_PROVIDER_KEY, ApiServer
from tests.helpers.client import sqlite_thread_server
from tests.helpers.fake_model import FakeOpenAI


@pytest.fixture(scope="module")
def api(v1_data_dir: Path, fake_server: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = sqlite_thread_server(
        tmp_path_factory.mktemp("client-api"),
        v1_data_dir,
        OPENAI_API_KEY=FAKE_PROVIDER_KEY,
        TAUMESH_API_ALLOWED_API_BASES=fake_server.url,
    )
    try:
        yield server
    finally:
        server.stop()
