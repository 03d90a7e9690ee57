"""Turning this process's telemetry on (``setup_telemetry``) and off (``shutdown_telemetry``)."""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from opentelemetry import metrics, trace

from taumesh.telemetry import attributes as A
from taumesh.telemetry.active import make_current
from taumesh.telemetry.providers import TRUE, Telemetry
from taumesh.telemetry.redact import install_log_scrubber

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

log = logging.getLogger(__name__)

_global_set = False


def _normalize_content_capture() -> None:
    """Let ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`` mean the GenAI utility's ``SPAN_ONLY``."""
    if os.environ.get(A.ENV_CAPTURE_CONTENT, "").strip().lower() in TRUE:
        os.environ[A.ENV_CAPTURE_CONTENT] = "SPAN_ONLY"


def setup_telemetry(
    service: str,
    otlp_endpoint: str | None = None,
    *,
    set_global: bool = True,
    span_exporter: SpanExporter | None = None,
) -> Telemetry:
    """Configure this process's telemetry for ``service`` (``orchestrator``, ``env``, …) and make it current.

    ``otlp_endpoint`` (the ``--otlp-endpoint`` flag) wins over ``OTEL_EXPORTER_OTLP_ENDPOINT``;
    ``span_exporter`` (an SDK exporter, such as the in-memory one in tests) replaces the exporters
    ``OTEL_TRACES_EXPORTER`` names. With ``set_global`` the primary service's providers also become
    OpenTelemetry's global ones (for third-party instrumentation); that happens once per process.
    """
    global _global_set
    install_log_scrubber()
    _normalize_content_capture()
    telemetry = Telemetry(service, otlp_endpoint, span_exporter)
    make_current(telemetry)
    if not telemetry.enabled:
        return telemetry
    primary = telemetry.primary
    if set_global and not _global_set:
        if primary.tracer_provider is not None:
            trace.set_tracer_provider(primary.tracer_provider)
        if primary.meter_provider is not None:
            metrics.set_meter_provider(primary.meter_provider)
        _global_set = True
    from taumesh.llm.hooks import add_model_call_hook
    from taumesh.telemetry.genai import model_call_hook

    add_model_call_hook(model_call_hook)  # chat <model> spans around every LLM call of this process (once)
    log.info("telemetry on: traces %s, metrics %s", telemetry.traces, telemetry.metrics)
    return telemetry


def shutdown_telemetry() -> None:
    """Flush and shut down the current telemetry; what follows records nothing."""
    make_current(None).shutdown()
