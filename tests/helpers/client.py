"""The API served over SQLite for the client tests: as a uvicorn process, or from a thread of the test process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.helpers.api import ApiServer, start_server
from tests.helpers.api_thread import ThreadApi, start_thread_server

ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
"""Offline runs: the oracle agent and the scripted user on τ-bench v1 retail."""


def sqlite_server(root: Path, data_dir: Path, **extra_env: str) -> ApiServer:
    """A uvicorn process with its own SQLite database under ``root`` (for tests that stop or kill it)."""
    return start_server(f"sqlite:///{root / 'api.db'}", root, data_dir, **extra_env)


def sqlite_thread_server(root: Path, data_dir: Path, **extra_env: str) -> ThreadApi:
    """The same served from a thread: for tests of what the API answers, not of its process.

    ``extra_env`` other than ``TAUMESH_API_*`` stays set in this process while the server runs: scope it to a module.
    """
    return start_thread_server(f"sqlite:///{root / 'api.db'}", root, data_dir, **extra_env)


@contextmanager
def thread_api(root: Path, data_dir: Path, **extra_env: str) -> Iterator[ThreadApi]:
    """:func:`sqlite_thread_server` for a ``with`` block (a module fixture's), stopped when the block ends."""
    server = sqlite_thread_server(root, data_dir, **extra_env)
    try:
        yield server
    finally:
        server.stop()
