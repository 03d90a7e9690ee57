"""The process's tracer and meter providers, one set per service, each with its own ``service.name``, from ``OTEL_*``.

A process holds one :class:`Telemetry`. ``taumesh serve env`` has one service (``taumesh-env``);
``taumesh run`` has ``taumesh-orchestrator`` plus one per service it starts in-process, so an
embedded run still shows five services. (This is why the SDK's own ``configure`` is not enough: it
builds one global provider.) Exporters are chosen by the SDK's registry from
``OTEL_TRACES_EXPORTER``/``OTEL_METRICS_EXPORTER`` and configure themselves from
``OTEL_EXPORTER_OTLP_*``; samplers, batching and resources read their own variables too.

Tracing is off unless something asks for it (the flag, an OTLP endpoint variable, or an exporter
variable): the SDK's default of ``otlp`` to localhost would slow every run down exporting to nobody.
Off, nothing of the SDK is imported and the services hand out the API's no-op tracer.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from taumesh.telemetry import attributes as A
from taumesh.telemetry.redact import Scrubber
from taumesh.telemetry.service import ServiceTelemetry, version

if TYPE_CHECKING:
    from opentelemetry.sdk.metrics import ExemplarFilter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace.export import SpanExporter

log = logging.getLogger(__name__)

SHUTDOWN_TIMEOUT = 5.0
"""Seconds the end of a run or a graceful server stop waits for the last exports."""

TRUE = ("1", "true", "yes", "on")


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
                A.SERVICE_VERSION: version(),
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
