"""Errors a servicer raises on purpose, the status code each one means, and the ``google.rpc`` details it carries.

Every error leaves with an ``ErrorInfo`` (domain ``taumesh``, a stable ``reason``) so that clients branch on the
reason, never on message text; request mistakes add a ``BadRequest`` naming the fields, and faults a retry may cure
add a ``RetryInfo``. What an error echoes of the request is bounded, so an error never outgrows the metadata limit.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, TypeVar

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from taumesh.convert import ConversionError

log = logging.getLogger(__name__)

ERROR_DOMAIN = "taumesh"
"""The ``ErrorInfo.domain`` of every taumesh error."""

DOMAIN_NOT_RUNNABLE_REASON = "DOMAIN_NOT_RUNNABLE"
"""The reason of the env's FAILED_PRECONDITION for a domain it has but cannot run where it is (a model or sandbox
the domain needs is missing): the caller's configuration to change, not a fault to retry."""

MAX_MESSAGE_BYTES = 800
"""Longest status message in UTF-8 bytes; longer ones (which may echo a request) are cut.

Bytes, not characters: gRPC percent-encodes every non-ASCII byte of the message (3 bytes each on the wire) and
sends it a second time inside the details. A client refuses trailers past 8 KiB (``grpc.max_metadata_size``) as
RESOURCE_EXHAUSTED, which it would then retry: the worst case here stays under 6 KiB.
"""
MAX_DESCRIPTION_BYTES = 200
"""Longest field-violation description (and field path), in UTF-8 bytes."""
MAX_FIELD_VIOLATIONS = 5
"""Field violations sent at most; more are summed up in the last one."""


def wire_text(text: str) -> str:
    """``text`` as protobuf can carry it: lone surrogates (echoed from a caller's input) backslash-escaped."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def clip(text: str, limit: int = MAX_MESSAGE_BYTES) -> str:
    """``text`` cut to ``limit`` UTF-8 bytes, marked when cut, and with lone surrogates made printable."""
    text = wire_text(text)
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    note = f"… ({len(text)} chars)"
    return data[: max(limit - len(note.encode("utf-8")), 0)].decode("utf-8", "ignore") + note


class RpcError(Exception):
    """Base of the errors that map to a gRPC status code.

    ``reason`` is a stable UPPER_SNAKE_CASE identifier of the cause; ``fields`` are (field path, description)
    pairs of a bad request; ``retry_after`` (seconds) says when a retry may succeed.
    """

    code: ClassVar[grpc.StatusCode] = grpc.StatusCode.INTERNAL
    default_reason: ClassVar[str] = "INTERNAL"

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        fields: Sequence[tuple[str, str]] = (),
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason or self.default_reason
        self.fields = list(fields)
        self.retry_after = retry_after

    def status(self) -> status_pb2.Status:
        """The ``google.rpc.Status`` this error is sent as."""
        return build_status(self.code, str(self), self.reason, self.fields, self.retry_after)


class InvalidArgument(RpcError):
    """The request is malformed: INVALID_ARGUMENT."""

    code = grpc.StatusCode.INVALID_ARGUMENT
    default_reason = "INVALID_ARGUMENT"


class PermissionDenied(RpcError):
    """The caller may not ask for this here (a model endpoint or file the operator did not allow): PERMISSION_DENIED."""

    code = grpc.StatusCode.PERMISSION_DENIED
    default_reason = "PERMISSION_DENIED"


class NotFound(RpcError):
    """The request names something that does not exist: NOT_FOUND."""

    code = grpc.StatusCode.NOT_FOUND
    default_reason = "NOT_FOUND"


class Unavailable(RpcError):
    """A dependency of this service failed in a way a retry may fix: UNAVAILABLE."""

    code = grpc.StatusCode.UNAVAILABLE
    default_reason = "UNAVAILABLE"


class ResourceExhausted(RpcError):
    """A limit of this service is reached (too many sessions): RESOURCE_EXHAUSTED."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED
    default_reason = "RESOURCE_EXHAUSTED"


class OutOfRange(RpcError):
    """The request went past a limit (an agent's conversation outgrew its model's context window): OUT_OF_RANGE."""

    code = grpc.StatusCode.OUT_OF_RANGE
    default_reason = "OUT_OF_RANGE"


class FailedPrecondition(RpcError):
    """The request is valid but the system is not in a state to serve it: FAILED_PRECONDITION."""

    code = grpc.StatusCode.FAILED_PRECONDITION
    default_reason = "FAILED_PRECONDITION"


def build_status(
    code: grpc.StatusCode,
    message: str,
    reason: str,
    fields: Sequence[tuple[str, str]] = (),
    retry_after: float | None = None,
) -> status_pb2.Status:
    """A ``google.rpc.Status`` with ErrorInfo, and BadRequest / RetryInfo where they apply."""
    details = [error_details_pb2.ErrorInfo(reason=reason, domain=ERROR_DOMAIN)]
    if fields:
        details.append(
            error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=clip(field, MAX_DESCRIPTION_BYTES), description=clip(text, MAX_DESCRIPTION_BYTES)
                    )
                    for field, text in _at_most(fields, MAX_FIELD_VIOLATIONS)
                ]
            )
        )
    if retry_after is not None:
        delay = duration_pb2.Duration()
        delay.FromNanoseconds(int(retry_after * 1e9))
        details.append(error_details_pb2.RetryInfo(retry_delay=delay))
    packed = []
    for detail in details:
        holder = any_pb2.Any()
        holder.Pack(detail)
        packed.append(holder)
    return status_pb2.Status(code=code.value[0], message=clip(message), details=packed)


def _at_most(fields: Sequence[tuple[str, str]], count: int) -> list[tuple[str, str]]:
    """The first ``count`` violations; when there are more, the last one says how many were left out."""
    if len(fields) <= count:
        return list(fields)
    return [*fields[: count - 1], ("…", f"{len(fields) - count + 1} more field violations")]


def error_details(error: grpc.RpcError) -> dict[str, Any]:
    """The ``google.rpc`` details of a failed call: ``reason``, ``fields`` and ``retry_after`` when present."""
    found: dict[str, Any] = {}
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except ValueError:
        return found
    for holder in status.details if status is not None else ():
        info, bad, retry = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest(), error_details_pb2.RetryInfo()
        if holder.Unpack(info):
            found["reason"] = info.reason
        elif holder.Unpack(bad):
            found["fields"] = [(v.field, v.description) for v in bad.field_violations]
        elif holder.Unpack(retry):
            found["retry_after"] = retry.retry_delay.ToNanoseconds() / 1e9
    return found


def error_reason(error: grpc.RpcError) -> str:
    """The stable ``ErrorInfo.reason`` of a failed call, or "" when it carries none."""
    reason: str = error_details(error).get("reason", "")
    return reason


_CODES = {code.value[0]: code for code in grpc.StatusCode}

Context = grpc.aio.ServicerContext[Any, Any]
"""The servicer context of any call."""

Request = TypeVar("Request")
Response = TypeVar("Response")
Handler = Callable[[Any, Request, Context], Awaitable[Response]]


def send_status(context: Context, status: status_pb2.Status) -> None:
    """End the call with ``status`` (its details in the trailers, as ``abort_with_status`` sends them) without raising.

    ``context.abort_with_status`` raises ``grpc.aio.AbortError``, which grpc.aio keeps on the call's state: the
    error's traceback holds the handler's frames, they hold the context and the request, and the context holds the
    call's state. Only a full collection frees that cycle, and ``taumesh.rpc.loop`` makes those rare: a refused
    20 MB request stayed in memory for good. Setting the status and returning leaves no exception behind; grpc.aio
    sends no response message when the code is not OK. The code and details also go where the gRPC instrumentation
    reads a span's status.
    """
    wire = rpc_status.to_status(status)
    context.set_code(wire.code)
    context.set_details(wire.details)
    context.set_trailing_metadata(wire.trailing_metadata)


def status_codes(handler: Handler[Request, Response]) -> Handler[Request, Response]:
    """Turn :class:`RpcError` and conversion errors into their status with details; anything else into INTERNAL.

    A bug in one call never takes the server down: the caller gets INTERNAL with the reason. The status is sent
    by :func:`send_status`, so a refused request is freed as soon as the call ends.
    """

    @functools.wraps(handler)
    async def wrapper(self: Any, request: Request, context: Context) -> Response:
        try:
            return await handler(self, request, context)
        except RpcError as exc:
            status = exc.status()
        except ConversionError as exc:
            status = build_status(grpc.StatusCode.INVALID_ARGUMENT, str(exc), "INVALID_ARGUMENT", exc.fields)
        except Exception as exc:
            if isinstance(exc, grpc.aio.AbortError):
                raise
            log.exception("%s failed", handler.__qualname__)
            status = build_status(grpc.StatusCode.INTERNAL, f"{type(exc).__name__}: {exc}", "INTERNAL")
        send_status(context, status)
        return None  # type: ignore[return-value]  # grpc.aio sends no message with a status that is not OK

    return wrapper
