"""OpenTelemetry tracing and metrics for taumesh: one trace per episode across the five services.

Off unless an OTLP endpoint (``--otlp-endpoint``, ``OTEL_EXPORTER_OTLP_ENDPOINT``) or an exporter
(``OTEL_TRACES_EXPORTER``) is configured; off means no SDK, no exporter and no interceptors.
"""

from taumesh.telemetry.active import active_service, capture_content, current, instruments, tracer
from taumesh.telemetry.genai import ToolSpan, tool_span
from taumesh.telemetry.links import jaeger_url, trace_id_of
from taumesh.telemetry.providers import Telemetry
from taumesh.telemetry.redact import scrub
from taumesh.telemetry.service import ServiceTelemetry, activate
from taumesh.telemetry.setup import setup_telemetry, shutdown_telemetry

__all__ = [
    "ServiceTelemetry",
    "Telemetry",
    "ToolSpan",
    "activate",
    "active_service",
    "capture_content",
    "current",
    "instruments",
    "jaeger_url",
    "scrub",
    "setup_telemetry",
    "shutdown_telemetry",
    "tool_span",
    "trace_id_of",
    "tracer",
]
