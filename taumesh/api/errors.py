"""Every error as ``{error_type, message, details, timestamp}``: the API's own, FastAPI's and unexpected ones."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taumesh.api.schemas import ErrorResponse, ErrorType

log = logging.getLogger(__name__)

STATUS_TYPES: dict[int, ErrorType] = {401: "authentication_error", 404: "not_found", 429: "rate_limit_error"}


class ApiError(Exception):
    """An error answered as :class:`ErrorResponse` with ``status``."""

    def __init__(
        self,
        status: int,
        error_type: ErrorType,
        message: str,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.error_type: ErrorType = error_type
        self.message = message
        self.details = details or {}
        self.retry_after = retry_after


def not_found(what: str, ident: str) -> ApiError:
    """A 404 for a missing ``what`` named ``ident``."""
    return ApiError(404, "not_found", f"no {what} {ident!r}", {"resource": what, "id": ident})


def invalid(message: str, field: str) -> ApiError:
    """A 422 naming the offending field."""
    return ApiError(422, "validation_error", message, {"errors": [{"loc": ["body", field], "msg": message}]})


def error_response(error: ApiError) -> JSONResponse:
    """The JSON answer of ``error`` (with ``Retry-After`` and ``WWW-Authenticate`` where they apply)."""
    body = ErrorResponse(
        error_type=error.error_type,
        message=error.message,
        details=error.details,
        timestamp=datetime.now(UTC),
        retry_after=error.retry_after,
    )
    headers = {"WWW-Authenticate": "Bearer"} if error.status == 401 else {}
    if error.retry_after is not None:
        headers["Retry-After"] = str(max(1, round(error.retry_after + 0.499)))
    return JSONResponse(body.model_dump(mode="json", exclude_none=True), status_code=error.status, headers=headers)


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
        for e in exc.errors()
    ]
    return error_response(ApiError(422, "validation_error", "the request is not valid", {"errors": errors}))


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI's "error parsing the body": a body that is not valid, as documented (422)
        return error_response(ApiError(422, "validation_error", f"the body is not valid JSON: {exc.detail}"))
    error_type = STATUS_TYPES.get(exc.status_code, "validation_error")
    response = error_response(ApiError(exc.status_code, error_type, str(exc.detail)))
    response.headers.update(exc.headers or {})  # Allow of a 405
    return response


class UnexpectedErrorMiddleware:
    """Answers an unexpected exception as internal_error (500) and logs it; the caller never sees a stack trace.

    Here rather than as an exception handler, which Starlette re-raises after answering (uvicorn then drops the
    connection).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            log.error("unexpected error: %s", type(exc).__name__, exc_info=exc)
            if started or scope["type"] != "http":
                raise
            error = ApiError(500, "internal_error", "internal error; the server log has the details")
            await error_response(error)(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in the API's one format, stack traces never included (before the audit middleware)."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_middleware(UnexpectedErrorMiddleware)


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "authentication_error: no or wrong API key"},
    422: {
        "model": ErrorResponse,
        "description": "validation_error: a body that is not valid JSON, a body, query or header that is not valid",
    },
    429: {
        "model": ErrorResponse,
        "description": "rate_limit_error (Retry-After header): over the key's limit, or too many failed "
        "authentications from this address",
    },
    500: {"model": ErrorResponse, "description": "internal_error"},
}
"""The error answers every authenticated route documents."""


def as_json(responses: dict[int | str, dict[str, Any]]) -> dict[int | str, dict[str, Any]]:
    """``responses`` documented as ``application/json`` on a route whose own media type is another.

    FastAPI documents a response's ``model`` under the route's media type (``text/event-stream`` for the events
    route), while errors are always JSON.
    """
    documented: dict[int | str, dict[str, Any]] = {}
    for status, response in responses.items():
        model = response["model"]
        schema = {"$ref": f"#/components/schemas/{model.__name__}"}
        documented[status] = {
            "description": response["description"],
            "content": {"application/json": {"schema": schema}},
        }
    return documented
