"""gRPC interceptors: OpenTelemetry's gRPC instrumentation, the trace context, and handlers run as their service's.

The instrumentation gets the service's own tracer provider (so an embedded service reports its own
``service.name``) and records method, status, peer and ``user-agent``. No request or response hook
is installed, so no other metadata (``authorization`` included) and no message reaches a span.
Health checks and reflection get no spans. A call made inside a span that stands for it
(:mod:`taumesh.telemetry.call_spans`) carries the trace context but gets no client span.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc
from opentelemetry.instrumentation.grpc import aio_client_interceptors, aio_server_interceptor
from opentelemetry.propagate import inject

from taumesh.telemetry.call_spans import covered_by_span
from taumesh.telemetry.providers import activate

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

    from taumesh.telemetry.providers import ServiceTelemetry

    Continuation = Callable[[grpc.aio.ClientCallDetails, Any], Awaitable[grpc.aio.UnaryUnaryCall[Any, Any]]]


def traced(details: Any) -> bool:
    """False for health checks and reflection (``grpc.*``); the instrumentation's own filters cost 10x more."""
    method = getattr(details, "method", "") or ""
    return not (method.decode() if isinstance(method, bytes) else method).startswith("/grpc.")


class ActivateService(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Runs each unary handler as its service's: spans and metrics inside go to that service's providers."""

    def __init__(self, service: ServiceTelemetry) -> None:
        self.service = service

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        handler = await continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        behavior: Callable[[Any, Any], Awaitable[Any]] = handler.unary_unary
        service = self.service

        async def unary_unary(request: Any, context: Any) -> Any:
            with activate(service):
                return await behavior(request, context)

        return handler._replace(unary_unary=unary_unary)  # type: ignore[attr-defined, no-any-return]


def server_interceptors(service: ServiceTelemetry) -> list[grpc.aio.ServerInterceptor[Any, Any]]:
    """The server span (continuing the caller's trace), then the handler run as ``service``."""
    interceptors: list[grpc.aio.ServerInterceptor[Any, Any]] = []
    if service.tracer_provider is not None:
        interceptors.append(aio_server_interceptor(tracer_provider=service.tracer_provider, filter_=traced))  # type: ignore[no-untyped-call]
    return [*interceptors, ActivateService(service)]


class ClientSpans(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """OpenTelemetry's client span for each call, except for a call a taumesh span stands for.

    That call only carries the trace context (the ``traceparent`` of the current span), so its server span is the
    taumesh span's child.
    """

    def __init__(self, tracer_provider: TracerProvider) -> None:
        self.instrumentation: grpc.aio.UnaryUnaryClientInterceptor = aio_client_interceptors(  # type: ignore[no-untyped-call]
            tracer_provider=tracer_provider, filter_=traced
        )[0]

    async def intercept_unary_unary(
        self, continuation: Continuation, client_call_details: grpc.aio.ClientCallDetails, request: Any
    ) -> Any:
        if not covered_by_span():
            return await self.instrumentation.intercept_unary_unary(continuation, client_call_details, request)
        metadata = grpc.aio.Metadata(*(client_call_details.metadata or ()))
        inject(metadata)  # the configured propagators (W3C trace context and baggage by default)
        return await continuation(client_call_details._replace(metadata=metadata), request)


def client_interceptors(service: ServiceTelemetry) -> list[grpc.aio.ClientInterceptor]:
    """The client spans (or just the trace context, see :class:`ClientSpans`) of the calls ``service`` makes."""
    if service.tracer_provider is None:
        return []
    return [ClientSpans(service.tracer_provider)]
