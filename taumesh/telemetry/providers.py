"""Tracer and meter providers: one per service, each with its own ``service.name``.

A process holds one :class:`Telemetry`. ``taumesh serve env`` makes one service (``taumesh-env``);
``taumesh run`` makes ``taumesh-orchestrator`` and, for each service it starts in-process, another
provider with that service's name, so an embedded run still shows five services in Jaeger. Code
that records spans asks :func:`tracer`: inside an RPC handler that is the serving service's tracer
(the server interceptor marks the handler's context), elsewhere the process's primary service's.

When no exporter is configured there is no SDK provider at all: :func:`tracer` hands out the API's
no-op tracer, and no interceptor is installed on any channel or server.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, cached_property
from importlib import metadata as importlib_metadata
from typing import TYPE_CHECKING, Any

from opentelemetry import metrics, trace
from opentelemetry.metrics import Meter, NoOpMeter
from opentelemetry.trace import NoOpTracer, Tracer

from taumesh.telemetry import attributes as A
from taumesh.telemetry.config import TelemetryConfig, resolve
from taumesh.telemetry.metrics import Instruments
from taumesh.telemetry.redact import Scrubber, install_log_scrubber

if TYPE_CHECKING:
    import grpc
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.trace import TracerProvider

log = logging.getLogger(__name__)

SERVICE_NAMES = {
    "orchestrator": "taumesh-orchestrator",
    "env": "taumesh-env",
    "user-sim": "taumesh-user-sim",
    "agent": "taumesh-agent",
    "scorer": "taumesh-scorer",
}
"""Service key → ``service.name``."""

SHUTDOWN_TIMEOUT = 5.0
"""Seconds the end of a run or a graceful server stop waits for the last exports."""

SCOPE = "taumesh"
"""Instrumentation scope of taumesh's own spans and metrics."""


@cache
def _version() -> str:
    try:
        return importlib_metadata.version("taumesh")
    except importlib_metadata.PackageNotFoundError:
        return "0"


class ServiceTelemetry:
    """One service's providers (None when telemetry is off)."""

    def __init__(
        self,
        key: str,
        config: TelemetryConfig,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
    ) -> None:
        self.key = key
        self.config = config
        self.tracer_provider = tracer_provider
        self.meter_provider = meter_provider
        self._tracers: dict[str, Tracer] = {}

    @property
    def enabled(self) -> bool:
        return self.tracer_provider is not None or self.meter_provider is not None

    @property
    def tracing(self) -> bool:
        return self.tracer_provider is not None

    @property
    def capture_content(self) -> bool:
        return self.config.capture_content and self.tracing

    def tracer(self, scope: str = SCOPE) -> Tracer:
        if self.tracer_provider is None:
            return _NOOP_TRACER
        found = self._tracers.get(scope)
        if found is None:
            found = self._tracers[scope] = self.tracer_provider.get_tracer(scope, _version())
        return found

    def meter(self, scope: str = SCOPE) -> Meter:
        if self.meter_provider is None:
            return _NOOP_METER
        return self.meter_provider.get_meter(scope, _version())

    @cached_property
    def instruments(self) -> Instruments:
        return Instruments.create(self.meter())

    def server_interceptors(self) -> list[grpc.aio.ServerInterceptor[Any, Any]]:
        """Interceptors for this service's gRPC server: none when tracing is off."""
        if not self.enabled:
            return []
        from taumesh.telemetry.rpc import server_interceptors

        return server_interceptors(self)

    def client_interceptors(self) -> list[grpc.aio.ClientInterceptor]:
        """Interceptors for channels this service opens: none when tracing is off."""
        if not self.tracing:
            return []
        from taumesh.telemetry.rpc import client_interceptors

        return client_interceptors(self)

    def force_flush(self, timeout_millis: int = 10_000) -> None:
        if self.tracer_provider is not None:
            self.tracer_provider.force_flush(timeout_millis)
        if self.meter_provider is not None:
            self.meter_provider.force_flush(timeout_millis)

    def shutdown(self) -> None:
        """Flush and stop exporting (spans and a last metrics collection)."""
        if self.tracer_provider is not None:
            self.tracer_provider.shutdown()
        if self.meter_provider is not None:
            self.meter_provider.shutdown()


_NOOP_TRACER = NoOpTracer()
_NOOP_METER = NoOpMeter(SCOPE)


class Telemetry:
    """The process's telemetry: its primary service, and the services it hosts in-process."""

    def __init__(self, config: TelemetryConfig, primary: str, scrubber: Scrubber | None = None) -> None:
        self.config = config
        self.primary_key = primary
        self.scrubber = scrubber or Scrubber()
        self._services: dict[str, ServiceTelemetry] = {}
        self._shut_down = False

    @property
    def enabled(self) -> bool:
        return self.config.enabled

    @property
    def primary(self) -> ServiceTelemetry:
        return self.service(self.primary_key)

    def service(self, key: str) -> ServiceTelemetry:
        """The providers of service ``key`` (``env``, ``user-sim``, …), created on first use."""
        if key not in self._services:
            self._services[key] = self._build(key)
        return self._services[key]

    def _build(self, key: str) -> ServiceTelemetry:
        if not self.config.enabled or self._shut_down:
            return ServiceTelemetry(key, self.config)
        from taumesh.telemetry.export import scrub_resource

        resource = scrub_resource(self.scrubber, self._resource(key))
        tracer_provider = self._tracer_provider(resource) if self.config.traces else None
        meter_provider = self._meter_provider(resource) if self.config.metrics else None
        return ServiceTelemetry(key, self.config, tracer_provider, meter_provider)

    def _resource(self, key: str) -> Any:
        from opentelemetry.sdk.resources import Resource

        name = SERVICE_NAMES.get(key, f"taumesh-{key}")
        if key == self.primary_key:
            name = os.environ.get("OTEL_SERVICE_NAME") or name  # the standard override, for this process's own service
        return Resource.create(
            {
                A.SERVICE_NAME: name,
                A.SERVICE_NAMESPACE: "taumesh",
                A.SERVICE_VERSION: _version(),
                A.SERVICE_INSTANCE_ID: uuid.uuid4().hex,
                A.TAUMESH_EMBEDDED: key != self.primary_key,
            }
        )

    def _tracer_provider(self, resource: Any) -> TracerProvider:
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

        from taumesh.telemetry.export import ScrubbingSpanExporter

        provider = TracerProvider(resource=resource, shutdown_on_exit=False)  # Telemetry.shutdown flushes
        for name in self.config.traces:
            if name == "otlp":
                from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

                exporter: Any = (
                    OTLPSpanExporter(endpoint=self.config.endpoint) if self.config.endpoint else OTLPSpanExporter()
                )
            else:
                exporter = ConsoleSpanExporter()
            provider.add_span_processor(BatchSpanProcessor(ScrubbingSpanExporter(exporter, self.scrubber)))
        return provider

    def _meter_provider(self, resource: Any) -> MeterProvider:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import ConsoleMetricExporter, PeriodicExportingMetricReader

        readers = []
        for name in self.config.metrics:
            if name == "otlp":
                from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter

                exporter: Any = (
                    OTLPMetricExporter(endpoint=self.config.endpoint) if self.config.endpoint else OTLPMetricExporter()
                )
            else:
                exporter = ConsoleMetricExporter()
            readers.append(PeriodicExportingMetricReader(exporter))
        return MeterProvider(metric_readers=readers, resource=resource, shutdown_on_exit=False)

    def shutdown(self, timeout: float = SHUTDOWN_TIMEOUT) -> None:
        """Flush and shut down every provider, in parallel and within about ``timeout`` seconds.

        An unreachable collector must not hold the end of a run for long: what is not exported by
        then is dropped. Later :meth:`service` calls get no-op providers.
        """
        self._shut_down = True

        def stop(service: ServiceTelemetry) -> None:
            try:
                service.shutdown()
            except Exception:
                log.warning("telemetry shutdown of %s failed", service.key, exc_info=True)

        threads = [
            threading.Thread(target=stop, args=(s,), name=f"telemetry-shutdown-{s.key}", daemon=True)
            for s in self._services.values()
            if s.enabled
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(thread.is_alive() for thread in threads):
            log.warning("telemetry: gave up flushing after %.0fs (is the OTLP endpoint reachable?)", timeout)


class ExporterNoise(logging.Filter):
    """Tames the OTLP exporter's logging: one line per kind of trouble per minute, saying what to do.

    Metrics refused with UNIMPLEMENTED (Jaeger takes traces only) become a hint to set
    ``OTEL_METRICS_EXPORTER=none``; an unreachable endpoint is reported once a minute, not on every retry.
    """

    INTERVAL = 60.0

    def __init__(self) -> None:
        super().__init__()
        self._last: dict[str, float] = {}

    def _due(self, kind: str) -> bool:
        now = time.monotonic()
        if now - self._last.get(kind, -self.INTERVAL) < self.INTERVAL:
            return False
        self._last[kind] = now
        return True

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "metrics" in message and "UNIMPLEMENTED" in message:
            if kind_due := self._due("metrics-refused"):
                record.msg = (
                    "the OTLP endpoint does not accept metrics (Jaeger stores traces only); "
                    "set OTEL_METRICS_EXPORTER=none, or send to an OpenTelemetry Collector"
                )
                record.args = ()
                record.levelno, record.levelname = logging.WARNING, "WARNING"
            return kind_due
        if "UNAVAILABLE" in message:
            if kind_due := self._due("unavailable"):
                record.msg = f"telemetry: cannot reach the OTLP endpoint; dropping what cannot be sent ({message})"
                record.args = ()
                record.levelno, record.levelname = logging.WARNING, "WARNING"
            return kind_due
        return True


logging.getLogger("opentelemetry.exporter.otlp.proto.grpc.exporter").addFilter(ExporterNoise())

_DISABLED = Telemetry(TelemetryConfig(), "orchestrator")
_current: Telemetry = _DISABLED
_global_set = False
_active: ContextVar[ServiceTelemetry | None] = ContextVar("taumesh_telemetry_service", default=None)


def setup_telemetry(service: str, otlp_endpoint: str | None = None, *, set_global: bool = True) -> Telemetry:
    """Configure this process's telemetry for ``service`` (``orchestrator``, ``env``, …) and make it current.

    ``otlp_endpoint`` (the ``--otlp-endpoint`` flag) wins over ``OTEL_EXPORTER_OTLP_ENDPOINT``. With
    ``set_global`` the primary service's providers also become OpenTelemetry's global ones (for
    third-party instrumentation such as litellm's); that happens once per process.
    """
    global _current, _global_set
    install_log_scrubber()
    config = resolve(otlp_endpoint)
    telemetry = Telemetry(config, service)
    _current = telemetry
    if telemetry.enabled and set_global and not _global_set:
        primary = telemetry.primary
        if primary.tracer_provider is not None:
            trace.set_tracer_provider(primary.tracer_provider)
        if primary.meter_provider is not None:
            metrics.set_meter_provider(primary.meter_provider)
        _global_set = True
    if telemetry.enabled:
        from taumesh.telemetry.genai import install_model_call_hook

        install_model_call_hook()  # chat <model> spans around every LLM call of this process
        log.info("telemetry on: traces %s, metrics %s", list(config.traces), list(config.metrics))
    return telemetry


def shutdown_telemetry() -> None:
    """Flush and shut down the current telemetry; what follows records nothing."""
    global _current
    telemetry, _current = _current, _DISABLED
    telemetry.shutdown()


def current() -> Telemetry:
    """The process's telemetry (a disabled one before :func:`setup_telemetry`)."""
    return _current


def active_service() -> ServiceTelemetry:
    """The service whose RPC handler is running, else the process's primary service."""
    return _active.get() or _current.primary


@contextmanager
def activate(service: ServiceTelemetry) -> Iterator[None]:
    """Record what runs inside as ``service``'s (the server interceptor wraps each handler in this)."""
    token = _active.set(service)
    try:
        yield
    finally:
        _active.reset(token)


def tracer(scope: str = SCOPE) -> Tracer:
    """The tracer of the active service (the API's no-op tracer when tracing is off)."""
    return active_service().tracer(scope)


def meter(scope: str = SCOPE) -> Meter:
    """The meter of the active service."""
    return active_service().meter(scope)


def instruments() -> Instruments:
    """The active service's metric instruments."""
    return active_service().instruments


def capture_content() -> bool:
    """Whether message and tool-argument contents may be recorded (opt-in, and only when tracing)."""
    return active_service().capture_content
