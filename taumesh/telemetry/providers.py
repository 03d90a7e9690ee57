"""Tracer and meter providers, one per service, each with its own ``service.name``, built from ``OTEL_*``.

A process holds one :class:`Telemetry`. ``taumesh serve env`` has one service (``taumesh-env``);
``taumesh run`` has ``taumesh-orchestrator`` plus one per service it starts in-process, so an
embedded run still shows five services. (This is why the SDK's own ``configure`` is not enough: it
builds one global provider.) Exporters are chosen by the SDK's registry from
``OTEL_TRACES_EXPORTER``/``OTEL_METRICS_EXPORTER`` and configure themselves from
``OTEL_EXPORTER_OTLP_*``; samplers, batching and resources read their own variables too.

Tracing is off unless something asks for it (the flag, an OTLP endpoint variable, or an exporter
variable): the SDK's default of ``otlp`` to localhost would slow every run down exporting to nobody.
Off, nothing of the SDK is imported and :func:`tracer` hands out the API's no-op tracer.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cached_property
from importlib import metadata
from typing import TYPE_CHECKING, Any, Literal

from opentelemetry import metrics, trace
from opentelemetry.trace import NoOpTracer, Tracer

from taumesh.telemetry import attributes as A
from taumesh.telemetry.metrics import Instruments
from taumesh.telemetry.redact import Scrubber, install_log_scrubber

if TYPE_CHECKING:
    import grpc
    from opentelemetry.sdk.metrics import ExemplarFilter, MeterProvider
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.util.genai.handler import TelemetryHandler

log = logging.getLogger(__name__)

SHUTDOWN_TIMEOUT = 5.0
"""Seconds the end of a run or a graceful server stop waits for the last exports."""

SCOPE = "taumesh"
"""Instrumentation scope of taumesh's own spans and metrics."""

TRUE = ("1", "true", "yes", "on")


def _version() -> str:
    try:
        return metadata.version("taumesh")
    except metadata.PackageNotFoundError:
        return "0"


def normalize_endpoint(endpoint: str) -> str:
    """``host:port`` → ``http://host:port``: a bare address means a plaintext collector, as Jaeger's 4317 is."""
    endpoint = endpoint.strip()
    return endpoint if "://" in endpoint else f"http://{endpoint}"


def wanted(signal: Literal["traces", "metrics"], endpoint: str | None) -> bool:
    """Whether the flag or the ``OTEL_*`` variables ask for ``signal`` to be exported."""
    env = os.environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() in TRUE:
        return False
    chosen = env.get(f"OTEL_{signal.upper()}_EXPORTER", "").strip().lower()
    if chosen:
        return chosen != "none"
    endpoints = ("OTEL_EXPORTER_OTLP_ENDPOINT", f"OTEL_EXPORTER_OTLP_{signal.upper()}_ENDPOINT")
    return bool(endpoint or any(env.get(name) for name in endpoints))


def exporter_classes(signal: Literal["traces", "metrics"]) -> dict[str, type[Any]]:
    """Exporter classes by name, from ``OTEL_<SIGNAL>_EXPORTER`` (default ``otlp``), through the SDK's registry."""
    from opentelemetry.sdk._configuration import _get_exporter_entry_point, _get_exporter_names, _import_exporters

    names = _get_exporter_names(signal) or [_get_exporter_entry_point("otlp", signal)]
    traces, metric_exporters, _ = _import_exporters(*((names, []) if signal == "traces" else ([], names)), [])
    return traces if signal == "traces" else metric_exporters


def exemplar_filter() -> ExemplarFilter | None:
    """No exemplars unless ``OTEL_METRICS_EXEMPLAR_FILTER`` asks for them (None: the SDK reads the variable).

    The SDK's default (``trace_based``) samples every measurement made inside a span into an exemplar reservoir,
    which doubles the cost of each histogram record; taumesh's metrics are read as aggregates, and the trace of any
    episode is one click away from its results entry (``info.trace_id``).
    """
    from opentelemetry.sdk.metrics import AlwaysOffExemplarFilter

    return None if os.environ.get("OTEL_METRICS_EXEMPLAR_FILTER", "").strip() else AlwaysOffExemplarFilter()


def _resource_hashed_once(attributes: Mapping[str, Any], schema_url: str) -> Resource:
    """An SDK ``Resource`` that computes its hash once.

    The OTLP encoder groups every exported span by resource, and ``Resource.__hash__`` serialises all the
    attributes to JSON each time: about a sixth of the cost of encoding a span. A resource never changes.
    """
    from opentelemetry.sdk.resources import Resource

    class HashedOnce(Resource):
        @cached_property
        def _hash(self) -> int:
            return super().__hash__()

        def __hash__(self) -> int:
            return self._hash

    return HashedOnce(attributes, schema_url)


class ServiceTelemetry:
    """One service's providers (None when its signal is off)."""

    def __init__(
        self, key: str, tracer_provider: TracerProvider | None = None, meter_provider: MeterProvider | None = None
    ) -> None:
        self.key = key
        self.tracer_provider = tracer_provider
        self.meter_provider = meter_provider

    @property
    def tracing(self) -> bool:
        return self.tracer_provider is not None

    @cached_property
    def tracer(self) -> Tracer:
        if self.tracer_provider is None:
            return NoOpTracer()
        return self.tracer_provider.get_tracer(SCOPE, _version())

    @cached_property
    def instruments(self) -> Instruments:
        if self.meter_provider is None:
            return Instruments.create(metrics.NoOpMeter(SCOPE))
        return Instruments.create(self.meter_provider.get_meter(SCOPE, _version()))

    @cached_property
    def genai(self) -> TelemetryHandler:
        """OpenTelemetry's GenAI handler on this service's providers (``chat`` and ``execute_tool`` spans)."""
        from opentelemetry.metrics import NoOpMeterProvider
        from opentelemetry.trace import NoOpTracerProvider
        from opentelemetry.util.genai.handler import TelemetryHandler

        return TelemetryHandler(
            tracer_provider=self.tracer_provider or NoOpTracerProvider(),
            meter_provider=self.meter_provider or NoOpMeterProvider(),
            instrumentation_scope_name=SCOPE,
            instrumentation_scope_version=_version(),
        )

    def server_interceptors(self) -> list[grpc.aio.ServerInterceptor[Any, Any]]:
        """Interceptors for this service's gRPC server: none when telemetry is off."""
        if self.tracer_provider is None and self.meter_provider is None:
            return []
        from taumesh.telemetry.rpc import server_interceptors

        return server_interceptors(self)

    def client_interceptors(self) -> list[grpc.aio.ClientInterceptor]:
        """Interceptors for channels this service opens: none when tracing is off."""
        if self.tracer_provider is None:
            return []
        from taumesh.telemetry.rpc import client_interceptors

        return client_interceptors(self)

    def shutdown(self) -> None:
        """Flush and stop exporting (spans and a last metrics collection)."""
        for provider in (self.tracer_provider, self.meter_provider):
            if provider is not None:
                provider.shutdown()


class Telemetry:
    """The process's telemetry: its primary service, and the services it hosts in-process."""

    def __init__(self, primary: str, endpoint: str | None = None, span_exporter: SpanExporter | None = None) -> None:
        self.primary_key = primary
        self.endpoint = endpoint
        self.span_exporter = span_exporter
        self.traces = span_exporter is not None or wanted("traces", endpoint)
        self.metrics = wanted("metrics", endpoint)
        self.scrubber = Scrubber()
        self._services: dict[str, ServiceTelemetry] = {}
        self._shut_down = False

    @property
    def enabled(self) -> bool:
        return self.traces or self.metrics

    @property
    def primary(self) -> ServiceTelemetry:
        return self.service(self.primary_key)

    def service(self, key: str) -> ServiceTelemetry:
        """The providers of service ``key`` (``env``, ``user-sim``, …), created on first use."""
        if key not in self._services:
            self._services[key] = self._build(key) if self.enabled and not self._shut_down else ServiceTelemetry(key)
        return self._services[key]

    def _build(self, key: str) -> ServiceTelemetry:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
        from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

        from taumesh.telemetry.export import ScrubbingSpanExporter

        resource = self._resource(key)
        tracer_provider = meter_provider = None
        if self.traces:
            tracer_provider = TracerProvider(resource=resource, shutdown_on_exit=False)  # Telemetry.shutdown flushes
            processor: type[SpanProcessor]
            if self.span_exporter is not None:  # a given exporter is handed each span at once, in order
                exporters, processor = [self.span_exporter], SimpleSpanProcessor
            else:
                exporters = [cls(**self._arguments(name)) for name, cls in exporter_classes("traces").items()]
                processor = BatchSpanProcessor
            for exporter in exporters:
                tracer_provider.add_span_processor(processor(ScrubbingSpanExporter(exporter, self.scrubber)))
        if self.metrics:
            readers = [
                cls() if issubclass(cls, MetricReader) else PeriodicExportingMetricReader(cls(**self._arguments(name)))
                for name, cls in exporter_classes("metrics").items()
            ]
            meter_provider = MeterProvider(
                metric_readers=readers, resource=resource, exemplar_filter=exemplar_filter(), shutdown_on_exit=False
            )
        return ServiceTelemetry(key, tracer_provider, meter_provider)

    def _arguments(self, exporter_name: str) -> dict[str, Any]:
        """The ``--otlp-endpoint`` flag, for OTLP exporters (it wins over the variables)."""
        if self.endpoint and exporter_name.startswith("otlp"):
            return {"endpoint": normalize_endpoint(self.endpoint)}
        return {}

    def _resource(self, key: str) -> Resource:
        """``service.name`` and friends over ``OTEL_RESOURCE_ATTRIBUTES``, with secrets masked."""
        from opentelemetry.sdk.resources import Resource

        name = f"taumesh-{key}"  # taumesh-orchestrator, -env, -user-sim, -agent, -scorer
        if key == self.primary_key:
            name = os.environ.get("OTEL_SERVICE_NAME") or name  # the standard override, for this process's own service
        resource = Resource.create(
            {
                A.SERVICE_NAME: name,
                A.SERVICE_NAMESPACE: "taumesh",
                A.SERVICE_VERSION: _version(),
                A.SERVICE_INSTANCE_ID: uuid.uuid4().hex,
                A.TAUMESH_EMBEDDED: key != self.primary_key,
            }
        )
        return _resource_hashed_once(self.scrubber.attributes(resource.attributes) or {}, resource.schema_url)

    def shutdown(self, timeout: float = SHUTDOWN_TIMEOUT) -> None:
        """Flush and shut down every provider, in parallel, waiting about ``timeout`` seconds at most.

        An unreachable collector must not hold the end of a run for long: what is not exported by
        then is dropped. Later :meth:`service` calls get no-op providers.
        """
        self._shut_down = True
        threads = [threading.Thread(target=s.shutdown, daemon=True) for s in self._services.values()]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(thread.is_alive() for thread in threads):
            log.warning("telemetry: gave up flushing after %.0fs (is the OTLP endpoint reachable?)", timeout)


_DISABLED = Telemetry("orchestrator")
_current: Telemetry = _DISABLED
_global_set = False
_active: ContextVar[ServiceTelemetry | None] = ContextVar("taumesh_telemetry_service", default=None)


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
    global _current, _global_set
    install_log_scrubber()
    _normalize_content_capture()
    telemetry = _current = Telemetry(service, otlp_endpoint, span_exporter)
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
