"""gRPC server interceptors: OpenTelemetry's gRPC instrumentation, then the handler run as its service's.

The instrumentation gets the service's own tracer provider (so an embedded service reports its own
``service.name``) and records method, status, peer and ``user-agent``. No request or response hook
is installed, so no other metadata (``authorization`` included) and no message reaches a span.
Health checks and reflection get no spans.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc
from opentelemetry.instrumentation.grpc import aio_server_interceptor

from taumesh.telemetry.providers import activate

if TYPE_CHECKING:
    from taumesh.telemetry.providers import ServiceTelemetry


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
