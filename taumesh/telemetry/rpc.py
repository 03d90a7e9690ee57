"""gRPC interceptors: OpenTelemetry's gRPC instrumentation, the trace context, and handlers run as their service's.

The instrumentation gets the service's own tracer provider (so an embedded service reports its own
``service.name``) and records method, status, peer and ``user-agent``. No request or response hook
is installed, so no other metadata (``authorization`` included) and no message reaches a span.
Health checks and reflection get no spans. A call made inside a span that stands for it
(:mod:`taumesh.telemetry.call_spans`) carries the trace context but gets no client span.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import unquote

import grpc
from opentelemetry.context import attach, detach
from opentelemetry.instrumentation.grpc import aio_client_interceptors
from opentelemetry.instrumentation.grpc.version import __version__ as instrumentation_version
from opentelemetry.propagate import extract, inject
from opentelemetry.semconv._incubating.attributes.net_attributes import NET_PEER_IP, NET_PEER_NAME, NET_PEER_PORT
from opentelemetry.semconv._incubating.attributes.rpc_attributes import (
    RPC_GRPC_STATUS_CODE,
    RPC_METHOD,
    RPC_SERVICE,
    RPC_SYSTEM,
)
from opentelemetry.trace import SpanKind, Status, StatusCode, set_span_in_context
from opentelemetry.util.types import AttributeValue

from taumesh.telemetry.call_spans import covered_by_span

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

    Continuation = Callable[[grpc.aio.ClientCallDetails, Any], grpc.aio.UnaryUnaryCall[Any, Any]]

Activation = Callable[[], AbstractContextManager[None]]
"""Runs what is inside as one service's (``taumesh.telemetry.service.activate`` bound to the service): the
interceptors take it as given, so this module needs nothing of the providers that build them."""


INSTRUMENTATION_SCOPE = "opentelemetry.instrumentation.grpc"
"""Scope of the gRPC spans: the instrumentation's own, whose spans taumesh's server spans stand in for."""
SCHEMA_URL = "https://opentelemetry.io/schemas/1.11.0"


def traced(details: Any) -> bool:
    """False for health checks and reflection (``grpc.*``); the instrumentation's own filters cost 10x more."""
    method = getattr(details, "method", "") or ""
    return not (method.decode() if isinstance(method, bytes) else method).startswith("/grpc.")


class ActivateService(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Runs each unary handler as its service's: spans and metrics inside go to that service's providers."""

    def __init__(self, activation: Activation) -> None:
        self.activation = activation

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        handler = await continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        behavior: Callable[[Any, Any], Awaitable[Any]] = handler.unary_unary
        activation = self.activation

        async def unary_unary(request: Any, context: Any) -> Any:
            with activation():
                return await behavior(request, context)

        return handler._replace(unary_unary=unary_unary)  # type: ignore[attr-defined, no-any-return]


SERVER_ERROR_CODES = frozenset(
    {
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNIMPLEMENTED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
"""Codes that mark a server span as an error (the others are the caller's fault), as OpenTelemetry's gRPC
instrumentation and the RPC semantic conventions have it."""


def peer_attributes(peer: str) -> dict[str, AttributeValue]:
    """``net.peer.ip``/``net.peer.port`` (and ``net.peer.name`` on loopback) of a gRPC peer.

    Peers read like ``ipv4:127.0.0.1:57284`` or ``ipv6:[::1]:57284``; a Unix socket or an unreadable peer gives none.
    """
    if not peer or peer.startswith("unix:"):
        return {}
    address = peer.split(",", 1)[0].split(":", 1)[-1]
    ip, _, port = address.rpartition(":")
    if not ip:
        return {}
    ip = unquote(ip)
    attributes: dict[str, AttributeValue] = {NET_PEER_IP: ip, NET_PEER_PORT: port}
    if ip in ("[::1]", "127.0.0.1"):
        attributes[NET_PEER_NAME] = "localhost"
    return attributes


class ServerSpans(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """The server span of each unary call, continuing the caller's trace, with the handler run as its service's.

    Records what OpenTelemetry's aio server interceptor records (span name = method, kind SERVER,
    ``rpc.system``/``rpc.service``/``rpc.method``, ``rpc.grpc.status_code``, ``rpc.user_agent``, ``net.peer.*``, the
    exception; error status for the server-fault codes), in one layer instead of three: no proxy around the
    servicer context, one context attach, and the service activated with it. It runs on every call of every
    service, so the difference is a good part of the cost of tracing an offline run.
    """

    def __init__(self, activation: Activation, tracer_provider: TracerProvider) -> None:
        self.activation = activation
        self.tracer = tracer_provider.get_tracer(INSTRUMENTATION_SCOPE, instrumentation_version, schema_url=SCHEMA_URL)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        handler = await continuation(handler_call_details)
        if handler is None or handler.unary_unary is None or not traced(handler_call_details):
            return handler
        behavior: Callable[[Any, Any], Awaitable[Any]] = handler.unary_unary
        activation, tracer, method = self.activation, self.tracer, handler_call_details.method
        metadata = dict(handler_call_details.invocation_metadata or ())
        rpc_service, _, rpc_method = method.lstrip("/").partition("/")

        async def unary_unary(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            parent = extract(metadata)
            attributes: dict[str, AttributeValue] = {
                RPC_SYSTEM: "grpc",
                RPC_GRPC_STATUS_CODE: grpc.StatusCode.OK.value[0],
                RPC_METHOD: rpc_method,
                RPC_SERVICE: rpc_service,
            }
            if "user-agent" in metadata:
                attributes["rpc.user_agent"] = metadata["user-agent"]
            attributes.update(peer_attributes(context.peer()))
            span = tracer.start_span(method, parent, SpanKind.SERVER, attributes)
            token = attach(set_span_in_context(span, parent))
            try:
                with activation():
                    return await behavior(request, context)
            except Exception as error:
                if type(error) is not Exception:
                    span.record_exception(error)
                raise
            finally:
                detach(token)
                code = context.code()
                if isinstance(code, grpc.StatusCode) and code is not grpc.StatusCode.OK:
                    span.set_attribute(RPC_GRPC_STATUS_CODE, code.value[0])
                    if code in SERVER_ERROR_CODES:
                        span.set_status(Status(StatusCode.ERROR, f"{code}:{context.details()}"))
                span.end()

        return handler._replace(unary_unary=unary_unary)  # type: ignore[attr-defined, no-any-return]


def server_interceptors(
    activation: Activation, tracer_provider: TracerProvider | None
) -> list[grpc.aio.ServerInterceptor[Any, Any]]:
    """The server span (continuing the caller's trace) and the handler run inside ``activation``.

    Without tracing (no ``tracer_provider``), only the latter (for metrics). Health checks and reflection get no span.
    """
    if tracer_provider is not None:
        return [ServerSpans(activation, tracer_provider)]
    return [ActivateService(activation)]


class ClientSpans(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]  # generic in the stubs only
    """OpenTelemetry's client span for each call, except for a call a taumesh span stands for.

    That call only carries the trace context (the ``traceparent`` of the current span), so its server span is the
    taumesh span's child.
    """

    def __init__(self, tracer_provider: TracerProvider) -> None:
        self.instrumentation: grpc.aio.UnaryUnaryClientInterceptor[Any, Any] = aio_client_interceptors(  # type: ignore[no-untyped-call]
            tracer_provider=tracer_provider, filter_=traced
        )[0]

    async def intercept_unary_unary(
        self, continuation: Continuation, client_call_details: grpc.aio.ClientCallDetails, request: Any
    ) -> Any:
        if not covered_by_span():
            return await self.instrumentation.intercept_unary_unary(continuation, client_call_details, request)
        metadata = grpc.aio.Metadata(*(client_call_details.metadata or ()))
        inject(metadata)  # the configured propagators (W3C trace context and baggage by default)
        details = client_call_details._replace(metadata=metadata)  # type: ignore[attr-defined]  # a namedtuple
        return await continuation(details, request)


def client_interceptors(tracer_provider: TracerProvider) -> list[grpc.aio.ClientInterceptor]:
    """The client spans (or just the trace context, see :class:`ClientSpans`) of the calls a service makes."""
    return [cast("grpc.aio.ClientInterceptor", ClientSpans(tracer_provider))]
