"""A tiny fork written per test session and imported into a cache of the tests' own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.forks._import import import_fork
from taumesh.forks._record import ForkRecord
from tests.forks.tinyfork import write_fork
from tests.helpers.forks import DEADLINE


@pytest.fixture(scope="session")
def fork_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fork-cache")


@pytest.fixture(scope="session")
def tiny_fork(tmp_path_factory: pytest.TempPathFactory, fork_cache: Path) -> Iterator[ForkRecord]:
    """The imported tiny fork (``fork:tiny/counter``, ``fork:tiny/copycat``) in ``fork_cache``.

    The cache is set only while importing: a session-wide TAUMESH_CACHE_DIR would hide τ²'s data from every later
    test of the same worker. Tests take the cache through :func:`fork_env`.
    """
    mp = pytest.MonkeyPatch()
    mp.setenv("TAUMESH_CACHE_DIR", str(fork_cache))
    mp.setenv("TAUMESH_FORK_TOOL_DEADLINE", DEADLINE)
    try:
        record = import_fork(write_fork(tmp_path_factory.mktemp("forks") / "tiny"))
    finally:
        mp.undo()
    yield record


@pytest.fixture
def fork_env(tiny_fork: ForkRecord, fork_cache: Path, monkeypatch: pytest.MonkeyPatch) -> ForkRecord:
    """The tiny fork, with its cache and deadline in this test's environment (and its child processes')."""
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(fork_cache))
    monkeypatch.setenv("TAUMESH_FORK_TOOL_DEADLINE", DEADLINE)
    return tiny_fork
