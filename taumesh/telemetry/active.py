"""Which telemetry records what runs now: the process's current :class:`Telemetry`, and the service active in it.

Kept apart from :mod:`taumesh.telemetry.setup` (which installs the GenAI model-call hook) so the GenAI spans can ask
for the active service without importing what sets telemetry up.
"""

from __future__ import annotations

import os

from opentelemetry.trace import Tracer

from taumesh.telemetry import attributes as A
from taumesh.telemetry.metrics import Instruments
from taumesh.telemetry.providers import Telemetry
from taumesh.telemetry.service import ServiceTelemetry, activated

_DISABLED = Telemetry("orchestrator")
_current: Telemetry = _DISABLED


def make_current(telemetry: Telemetry | None) -> Telemetry:
    """Make ``telemetry`` the process's (None: a disabled one); returns the telemetry it replaces."""
    global _current
    replaced, _current = _current, telemetry or _DISABLED
    return replaced


def current() -> Telemetry:
    """The process's telemetry (a disabled one before :func:`~taumesh.telemetry.setup.setup_telemetry`)."""
    return _current


def active_service() -> ServiceTelemetry:
    """The service whose RPC handler is running, else the process's primary service."""
    return activated() or _current.primary


def tracer() -> Tracer:
    """The tracer of the active service (the API's no-op tracer when tracing is off)."""
    return active_service().tracer


def instruments() -> Instruments:
    """The active service's metric instruments."""
    return active_service().instruments


def capture_content() -> bool:
    """Whether message and tool contents may be recorded: opted in, and tracing."""
    mode = os.environ.get(A.ENV_CAPTURE_CONTENT, "").strip().upper()
    return active_service().tracing and mode in ("SPAN_ONLY", "SPAN_AND_EVENT")
