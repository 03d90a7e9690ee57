"""Shared fixtures: where the reference data and vectors live (read only, never copied)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.telemetry.receiver import OtlpReceiver

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TAUMESH_SHARED", PROJECT_ROOT.parent / "shared"))
V1_DATA = SHARED / "taubench_v1"
V1_VECTORS = V1_DATA / "vectors"
RUNSLOW_ENV = "TAUMESH_RUNSLOW"
SLOW_SKIPPED = f"slow: run it with --runslow or {RUNSLOW_ENV}=1"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help=f"also run tests marked slow (or set {RUNSLOW_ENV}=1)"
    )


def runs_slow(config: pytest.Config) -> bool:
    """Whether tests marked ``slow`` run: opt-in, like inspect_ai's live tests."""
    return bool(config.getoption("--runslow")) or os.environ.get(RUNSLOW_ENV) == "1"


def pytest_report_header(config: pytest.Config) -> str:
    return "slow tests: run" if runs_slow(config) else f"slow tests: skipped ({SLOW_SKIPPED})"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if runs_slow(config):
        return
    skip = pytest.mark.skip(reason=SLOW_SKIPPED)
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


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


OTEL_VARIABLES = (
    "OTEL_SDK_DISABLED",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_TRACES_EXPORTER",
    "OTEL_METRICS_EXPORTER",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_TRACES_SAMPLER",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
    "OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST",
)


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
