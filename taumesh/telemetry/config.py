"""Which exporters to build, from the standard ``OTEL_*`` variables and the ``--otlp-endpoint`` flag.

Tracing is off unless something asks for it: the flag, an OTLP endpoint variable, or an explicit
``OTEL_TRACES_EXPORTER`` / ``OTEL_METRICS_EXPORTER``. (The OpenTelemetry default exporter is
``otlp`` to localhost; we would rather not slow every run down by exporting to nobody.)
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

from taumesh.telemetry.attributes import ENV_CAPTURE_CONTENT

log = logging.getLogger(__name__)

KNOWN_EXPORTERS = frozenset({"otlp", "console"})


@dataclass(frozen=True)
class TelemetryConfig:
    """What to export, and where."""

    traces: tuple[str, ...] = ()
    """Span exporters: ``otlp`` and/or ``console``; empty: no tracing."""
    metrics: tuple[str, ...] = ()
    """Metric exporters, likewise."""
    endpoint: str | None = None
    """OTLP/gRPC endpoint from the flag; None: the exporters read ``OTEL_EXPORTER_OTLP_*`` themselves."""
    capture_content: bool = False
    """Record message and tool-argument contents (``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``)."""

    @property
    def enabled(self) -> bool:
        return bool(self.traces or self.metrics)


def normalize_endpoint(endpoint: str) -> str:
    """``host:port`` → ``http://host:port``: a bare address means a plaintext collector, as Jaeger's 4317 is.

    (The OTLP exporter would otherwise read a scheme-less address as needing TLS.)
    """
    endpoint = endpoint.strip()
    return endpoint if "://" in endpoint else f"http://{endpoint}"


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _exporters(variable: str, env: Mapping[str, str], default: tuple[str, ...]) -> tuple[str, ...]:
    raw = env.get(variable)
    if raw is None or not raw.strip():
        return default
    names = tuple(dict.fromkeys(n.strip().lower() for n in raw.split(",") if n.strip()))
    if "none" in names:
        return ()
    unknown = [n for n in names if n not in KNOWN_EXPORTERS]
    if unknown:
        log.warning("%s: ignoring unsupported exporters %s (taumesh ships otlp and console)", variable, unknown)
    return tuple(n for n in names if n in KNOWN_EXPORTERS)


def resolve(otlp_endpoint: str | None = None, env: Mapping[str, str] | None = None) -> TelemetryConfig:
    """The telemetry the flag and the environment ask for."""
    env = os.environ if env is None else env
    capture = _truthy(env.get(ENV_CAPTURE_CONTENT))
    if _truthy(env.get("OTEL_SDK_DISABLED")):
        return TelemetryConfig(capture_content=capture)
    protocol = env.get("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc").strip().lower()
    if protocol not in ("", "grpc"):
        log.warning("OTEL_EXPORTER_OTLP_PROTOCOL=%s: taumesh exports OTLP over gRPC only", protocol)
    endpoint = normalize_endpoint(otlp_endpoint) if otlp_endpoint else None
    any_endpoint = bool(endpoint or env.get("OTEL_EXPORTER_OTLP_ENDPOINT"))
    traces_default = ("otlp",) if any_endpoint or env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") else ()
    metrics_default = ("otlp",) if any_endpoint or env.get("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") else ()
    return TelemetryConfig(
        traces=_exporters("OTEL_TRACES_EXPORTER", env, traces_default),
        metrics=_exporters("OTEL_METRICS_EXPORTER", env, metrics_default),
        endpoint=endpoint,
        capture_content=capture,
    )
