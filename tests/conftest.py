"""Fixtures every test can use, the tiers, and each test process's own HOME and cache.

Every test runs by default (CI runs them all); ``pytest -m "not slow"`` is the quick tier for day-to-day work. Tests
marked ``browser`` or ``kill`` are ``slow`` as well. docs/testing.md lists the tiers and what skips where.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.helpers.environment import OTEL_VARIABLES, Isolation, isolate, restore
from tests.helpers.paths import V1_DATA

if TYPE_CHECKING:
    from tests.helpers.api import Postgres
    from tests.helpers.fake_model import FakeOpenAI
    from tests.helpers.processes import Server
    from tests.telemetry.receiver import OtlpReceiver

pytest_plugins = ["tests.helpers.skips"]  # under CI, a skip for what CI provides fails

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ISOLATION = pytest.StashKey[Isolation]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """This process and every process it starts get their own HOME and taumesh cache (tests/helpers/environment.py).

    A hook, not a session fixture: collection imports the test modules and xdist starts its workers before any
    fixture runs, and both must already see the temporary HOME.
    """
    config.stash[ISOLATION] = isolate()


def pytest_unconfigure(config: pytest.Config) -> None:
    if ISOLATION in config.stash:
        restore(config.stash[ISOLATION])


@pytest.fixture(scope="session")
def isolation(pytestconfig: pytest.Config) -> Isolation:
    """This test process's own HOME and cache, and where the user's cache is (which no test reads)."""
    return pytestconfig.stash[ISOLATION]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser and kill/restart tests are slow too, so ``-m "not slow"`` leaves all three kinds out."""
    for item in items:
        if item.get_closest_marker("slow") is None and any(item.get_closest_marker(m) for m in ("browser", "kill")):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def v1_data_dir() -> Path:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    return V1_DATA


@pytest.fixture(scope="session")
def tau2_data() -> Path:
    """The fetched τ² data (``taumesh data fetch tau2``); skips the test when it is absent."""
    from taumesh.domains.tau2 import DatasetMissing, require

    try:
        return require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")


@pytest.fixture
def hash_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every SHA-256 of a database text by τ²'s hasher from now on, resumed or whole (servers started in
    this process included)."""
    from taumesh.domains._hashing import CheckpointedText, Swaps
    from taumesh.domains.tau2 import _hash as tau2_hash

    calls: list[int] = []
    resume, whole = CheckpointedText.hash, tau2_hash._sha256

    def counted_resume(self: CheckpointedText, swaps: Swaps) -> str:
        calls.append(len(swaps))
        return resume(self, swaps)

    def counted_whole(text: str) -> str:
        calls.append(len(text))
        return whole(text)

    monkeypatch.setattr(CheckpointedText, "hash", counted_resume)
    monkeypatch.setattr(tau2_hash, "_sha256", counted_whole)
    return calls


@pytest.fixture
def clean_otel_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No OTEL_* variable from the developer's shell leaks into a test."""
    for name in OTEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def receiver() -> Iterator[OtlpReceiver]:
    """The tests' OTLP/gRPC receiver (tests/telemetry/receiver.py), on a port of its own."""
    from tests.telemetry.receiver import OtlpReceiver

    running = OtlpReceiver()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def fake_server() -> Iterator[FakeOpenAI]:
    """The scripted OpenAI-compatible server (tests/helpers/fake_model.py) on loopback, one per test process."""
    from tests.helpers.fake_model import FakeOpenAI

    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fake(fake_server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    """The server, emptied, with an API key in the environment and retries fast enough for tests.

    This process is the operator of the services it starts in-process: it allows their model calls to the server.
    """
    fake_server.reset()
    for name, value in fake_server.environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TAUMESH_LLM_BACKOFF_INITIAL", "0.01")
    monkeypatch.setenv("TAUMESH_LLM_BACKOFF_MAX", "0.05")
    monkeypatch.setenv("TAUMESH_LLM_TIMEOUT", "20")
    return fake_server


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    """Processes started by a test; whatever is still running at its end is killed."""
    started: list[Server] = []
    yield started
    for server in started:
        server.kill()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server from the machine's binaries, for this test session only (skips without them)."""
    from tests.helpers.api import running_postgres

    with running_postgres() as server:
        yield server
