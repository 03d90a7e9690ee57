"""Server interceptors every taumesh server runs before its servicers: the shared-token check and request decoding."""

from __future__ import annotations

import hmac
import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc

from taumesh.rpc.errors import build_status, send_status
from taumesh.rpc.security import TOKEN_METADATA_KEY

OPEN_METHOD_PREFIXES = ("/grpc.health.v1.Health/",)
"""Methods answered without a token: health checking (load balancers and orchestrators probe it unauthenticated)."""

if TYPE_CHECKING:  # generic in the stubs only
    Handler = grpc.RpcMethodHandler[Any, Any]
    Continuation = Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]]


def _refuse(context: grpc.aio.ServicerContext[Any, Any], code: grpc.StatusCode, message: str, reason: str,
            fields: list[tuple[str, str]] | None = None) -> None:  # fmt: skip
    """End the call with this status, raising nothing (see :func:`taumesh.rpc.errors.send_status`)."""
    send_status(context, build_status(code, message, reason, fields or ()))


def _same_kind(handler: Handler, behavior: Callable[..., Any]) -> Handler:
    """A handler of the same streaming kind as ``handler`` that runs ``behavior`` on undecoded requests."""
    serializer = handler.response_serializer
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(behavior, None, serializer)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(behavior, None, serializer)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(behavior, None, serializer)
    return grpc.unary_unary_rpc_method_handler(behavior, None, serializer)


class RequireToken(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]  # generic in the stubs only
    """Refuses with UNAUTHENTICATED every call without ``authorization: Bearer <token>``, health checks aside.

    The request is not even decoded for a refused call. Tokens are compared in constant time.
    """

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Handler:  # grpc-stubs type it without None; gRPC takes None as "no such method"
        handler = await continuation(handler_call_details)
        if handler is None or handler_call_details.method.startswith(OPEN_METHOD_PREFIXES):
            return handler  # type: ignore[return-value]
        sent = dict(handler_call_details.invocation_metadata or ()).get(TOKEN_METADATA_KEY, "")
        sent_bytes = sent.encode("utf-8", "replace") if isinstance(sent, str) else bytes(sent)
        if hmac.compare_digest(sent_bytes, self._expected):
            return handler

        async def refuse(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            _refuse(
                context,
                grpc.StatusCode.UNAUTHENTICATED,
                "this server requires a token: send metadata 'authorization: Bearer <token>' "
                "(TAUMESH_TOKEN_FILE or TAUMESH_TOKEN on the client)",
                "TOKEN_REQUIRED" if not sent else "TOKEN_INVALID",
            )

        return _same_kind(handler, refuse)


class DecodeRequests(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]  # generic in the stubs only
    """Decodes each unary request inside the call, so undecodable bytes get INVALID_ARGUMENT instead of UNKNOWN.

    gRPC itself decodes before the servicer runs and answers a failure with UNKNOWN, which says nothing about
    whose fault it is. Here the handler receives the raw bytes, parses them, and refuses bad ones with
    INVALID_ARGUMENT, reason ``UNDECODABLE_REQUEST`` and a BadRequest naming the request.
    """

    def __init__(self) -> None:
        self._wrapped: dict[str, tuple[Handler, Handler]] = {}
        """Method → (the handler it had, its decoding wrapper): built once per method, not once per call."""

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Handler:  # grpc-stubs type it without None; gRPC takes None as "no such method"
        handler = await continuation(handler_call_details)
        if handler is None or handler.request_streaming or handler.response_streaming:
            return handler  # type: ignore[return-value]
        known = self._wrapped.get(handler_call_details.method)
        if known is not None and known[0] is handler:
            return known[1]
        wrapped = self._wrap(handler, handler_call_details.method)
        self._wrapped[handler_call_details.method] = (handler, wrapped)
        return wrapped

    @staticmethod
    def _wrap(handler: Handler, method: str) -> Handler:
        decode, inner = handler.request_deserializer, handler.unary_unary
        if decode is None or inner is None:
            return handler

        async def decoded(raw: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            try:
                request = decode(raw)
            except Exception as exc:  # noqa: BLE001 - DecodeError, invalid UTF-8, nesting past protobuf's limit: all the caller's
                _refuse(
                    context,
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"the request is not a valid {method} message: {type(exc).__name__}",
                    "UNDECODABLE_REQUEST",
                    [("request", "not a decodable protobuf message of the method's request type")],
                )
                return None
            answer = inner(request, context)  # type: ignore[arg-type]  # grpc-stubs: the sync context type
            return await answer if inspect.isawaitable(answer) else answer

        return grpc.unary_unary_rpc_method_handler(decoded, None, handler.response_serializer)
