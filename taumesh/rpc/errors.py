"""Errors a servicer raises on purpose, and the status code each one means on the wire."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from taumesh.convert import ConversionError

log = logging.getLogger(__name__)


class RpcError(Exception):
    """Base of the errors that map to a gRPC status code."""

    code = grpc.StatusCode.INTERNAL


class InvalidArgument(RpcError):
    """The request is malformed: INVALID_ARGUMENT."""

    code = grpc.StatusCode.INVALID_ARGUMENT


class NotFound(RpcError):
    """The request names something that does not exist: NOT_FOUND."""

    code = grpc.StatusCode.NOT_FOUND


class Unavailable(RpcError):
    """A dependency of this service failed in a way a retry may fix: UNAVAILABLE."""

    code = grpc.StatusCode.UNAVAILABLE


class OutOfRange(RpcError):
    """The request went past a limit (an agent's conversation outgrew its model's context window): OUT_OF_RANGE."""

    code = grpc.StatusCode.OUT_OF_RANGE


class FailedPrecondition(RpcError):
    """The request is valid but the system is not in a state to serve it: FAILED_PRECONDITION."""

    code = grpc.StatusCode.FAILED_PRECONDITION


Context = grpc.aio.ServicerContext[Any, Any]
"""The servicer context of any call."""

Request = TypeVar("Request")
Response = TypeVar("Response")
Handler = Callable[[Any, Request, Context], Awaitable[Response]]


def status_codes(handler: Handler[Request, Response]) -> Handler[Request, Response]:
    """Turn :class:`RpcError` and conversion errors into their status; anything else into INTERNAL.

    A bug in one call never takes the server down: the caller gets INTERNAL with the reason.
    """

    @functools.wraps(handler)
    async def wrapper(self: Any, request: Request, context: Context) -> Response:
        try:
            return await handler(self, request, context)
        except RpcError as exc:
            await context.abort(exc.code, str(exc))
        except ConversionError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except Exception as exc:
            if isinstance(exc, grpc.aio.AbortError):
                raise
            log.exception("%s failed", handler.__qualname__)
            await context.abort(grpc.StatusCode.INTERNAL, f"{type(exc).__name__}: {exc}")
        raise AssertionError("unreachable: context.abort raises")

    return wrapper
