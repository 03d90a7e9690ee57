"""The REST API's telemetry: HTTP server spans as ``taumesh-api``, the runs it plays as ``taumesh-orchestrator``.

Configured like every taumesh process (:func:`taumesh.telemetry.setup_telemetry`: off unless ``--otlp-endpoint`` or
the ``OTEL_*`` variables ask), once per uvicorn worker, because each worker is a process of its own. Requests get
OpenTelemetry's maintained FastAPI instrumentation; the runs the executor plays record the orchestrator's spans on
the ``orchestrator`` service's providers, so a run started over HTTP looks in Jaeger as one ``taumesh run`` started.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

from opentelemetry import trace

from taumesh.telemetry import Telemetry, current, setup_telemetry, shutdown_telemetry

if TYPE_CHECKING:
    from fastapi import FastAPI

API_SERVICE: Final = "api"
"""Telemetry key of the API process itself: ``service.name`` ``taumesh-api``."""
ORCHESTRATOR_SERVICE: Final = "orchestrator"
"""Telemetry key the runs report under, as ``taumesh run`` does."""
API_RUN_ID: Final = "taumesh.api.run_id"
"""The API's id of a run, on its ``taumesh run`` span and on the HTTP spans of requests about it."""

SECRET_HEADERS: Final = ("authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie")
"""Headers whose values are ``[REDACTED]`` should an operator capture headers
(``OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST``); none is captured by default."""
EXCLUDED_URLS: Final = r"/health$"
"""Liveness probes get no spans (as gRPC health checks get none), unless ``OTEL_PYTHON_*EXCLUDED_URLS`` says."""
EXCLUDED_URLS_VARIABLES: Final = ("OTEL_PYTHON_FASTAPI_EXCLUDED_URLS", "OTEL_PYTHON_EXCLUDED_URLS")


def setup_api_telemetry(app: FastAPI, otlp_endpoint: str | None) -> Telemetry:
    """The worker's telemetry, with ``app``'s requests traced when it is on (call before the app starts)."""
    telemetry = setup_telemetry(API_SERVICE, otlp_endpoint)
    if telemetry.enabled:
        _instrument(app, telemetry)
    return telemetry


def _instrument(app: FastAPI, telemetry: Telemetry) -> None:
    """OpenTelemetry's FastAPI instrumentation on the API service's providers: no bodies, no secret headers."""
    from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor
    from opentelemetry.metrics import NoOpMeterProvider
    from opentelemetry.trace import NoOpTracerProvider
    from opentelemetry.util.http import OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SANITIZE_FIELDS, get_custom_headers

    service = telemetry.primary
    operator_excluded = any(os.environ.get(name) for name in EXCLUDED_URLS_VARIABLES)
    FastAPIInstrumentor.instrument_app(
        app,
        tracer_provider=service.tracer_provider or NoOpTracerProvider(),
        meter_provider=service.meter_provider or NoOpMeterProvider(),
        excluded_urls=None if operator_excluded else EXCLUDED_URLS,
        # an explicit list replaces the variable's: keep the operator's fields beside these
        http_capture_headers_sanitize_fields=[
            *SECRET_HEADERS,
            *get_custom_headers(OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SANITIZE_FIELDS),
        ],
        exclude_spans=["receive", "send"],  # one span per request, not one per chunk of a body or an SSE stream
    )


def shutdown_api_telemetry(telemetry: Telemetry) -> None:
    """Flush and stop ``telemetry`` (the worker's last spans: requests and the runs the shutdown interrupted)."""
    if current() is telemetry:
        shutdown_telemetry()
    else:  # another app of this process configured telemetry since (tests)
        telemetry.shutdown()


def tag_request(run_id: str | None) -> None:
    """Name the run a request is about on its HTTP span, so that Jaeger finds the request by the run's id."""
    span = trace.get_current_span()
    if run_id and span.is_recording():
        span.set_attribute(API_RUN_ID, run_id)
