"""One service's tracer and meter providers, and which service the running code records as.

``taumesh run`` hosts several services in one process (the orchestrator plus each service it starts in-process),
so what runs inside an RPC handler must record as that handler's service: :func:`activate` says which.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cached_property, partial
from importlib import metadata
from typing import TYPE_CHECKING, Any

from opentelemetry import metrics
from opentelemetry.trace import NoOpTracer, Tracer

from taumesh.telemetry.metrics import Instruments

if TYPE_CHECKING:
    import grpc
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.util.genai.handler import TelemetryHandler

SCOPE = "taumesh"
"""Instrumentation scope of taumesh's own spans and metrics."""


def version() -> str:
    """The installed taumesh version, for the scope and ``service.version`` ("0" when not installed)."""
    try:
        return metadata.version("taumesh")
    except metadata.PackageNotFoundError:
        return "0"


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
        return self.tracer_provider.get_tracer(SCOPE, version())

    @cached_property
    def instruments(self) -> Instruments:
        if self.meter_provider is None:
            return Instruments.create(metrics.NoOpMeter(SCOPE))
        return Instruments.create(self.meter_provider.get_meter(SCOPE, version()))

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
            instrumentation_scope_version=version(),
        )

    def server_interceptors(self) -> list[grpc.aio.ServerInterceptor[Any, Any]]:
        """Interceptors for this service's gRPC server: none when telemetry is off."""
        if self.tracer_provider is None and self.meter_provider is None:
            return []
        from taumesh.telemetry.rpc import server_interceptors

        return server_interceptors(partial(activate, self), self.tracer_provider)

    def client_interceptors(self) -> list[grpc.aio.ClientInterceptor]:
        """Interceptors for channels this service opens: none when tracing is off."""
        if self.tracer_provider is None:
            return []
        from taumesh.telemetry.rpc import client_interceptors

        return client_interceptors(self.tracer_provider)

    def shutdown(self) -> None:
        """Flush and stop exporting (spans and a last metrics collection)."""
        for provider in (self.tracer_provider, self.meter_provider):
            if provider is not None:
                provider.shutdown()


_activated: ContextVar[ServiceTelemetry | None] = ContextVar("taumesh_telemetry_service", default=None)


@contextmanager
def activate(service: ServiceTelemetry) -> Iterator[None]:
    """Record what runs inside as ``service``'s (the server interceptor wraps each handler in this)."""
    token = _activated.set(service)
    try:
        yield
    finally:
        _activated.reset(token)


def activated() -> ServiceTelemetry | None:
    """The service whose RPC handler is running, if any."""
    return _activated.get()
