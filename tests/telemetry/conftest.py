"""Fixtures of the telemetry tests: the SDK's in-memory exporter (span helpers: tests/helpers/telemetry.py)."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


@pytest.fixture
def memory() -> InMemorySpanExporter:
    """The SDK's in-memory exporter, for ``setup_telemetry(..., span_exporter=memory)``."""
    return InMemorySpanExporter()
