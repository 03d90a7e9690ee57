"""The client's exceptions: one per ``error_type`` of the API, each carrying the API's error body."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
from pydantic import ValidationError

from taumesh.client.models import ErrorBody


class TaumeshError(Exception):
    """Base of every error the client raises on purpose."""


class ApiError(TaumeshError):
    """The API answered with an error: ``error_type``, ``message``, ``details`` and, for 429, ``retry_after``."""

    def __init__(
        self,
        status_code: int,
        error_type: str,
        message: str,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(f"{status_code} {error_type}: {message}")
        self.status_code = status_code
        self.error_type = error_type
        self.message = message
        self.details = details or {}
        self.retry_after = retry_after
        self.request_id = request_id

    def explain(self) -> str:
        """The message, followed by each invalid field and why (``details.errors``)."""
        problems = [
            f"{'.'.join(str(part) for part in error.get('loc', []))}: {error.get('msg', '')}"
            for error in self.details.get("errors", [])
            if isinstance(error, dict)
        ]
        return "; ".join([self.message, *problems])


class AuthenticationError(ApiError):
    """401 ``authentication_error``: no key, an unknown key or a revoked key."""


class InvalidRequestError(ApiError):
    """422 or 405 ``validation_error``: a field is not valid or names something the operator did not allow."""


class NotFoundError(ApiError):
    """404 ``not_found``: no such run, domain, split or route."""


class RateLimitError(ApiError):
    """429 ``rate_limit_error``: over the key's limit; ``retry_after`` says how long to wait."""


class InternalServerError(ApiError):
    """500 ``internal_error`` (or any other 5xx): the server log has the details."""


ERROR_CLASSES: dict[str, type[ApiError]] = {
    "authentication_error": AuthenticationError,
    "validation_error": InvalidRequestError,
    "not_found": NotFoundError,
    "rate_limit_error": RateLimitError,
    "internal_error": InternalServerError,
}


def retry_after_header(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def error_from_response(response: httpx.Response) -> ApiError:
    """The exception of an error answer (the response body must have been read)."""
    header_wait = retry_after_header(response.headers.get("retry-after"))
    request_id = response.headers.get("x-request-id")
    try:
        body = ErrorBody.model_validate_json(response.content)
    except ValidationError:
        # not the API's format (a proxy's page, say): classify by status alone
        error_type = {401: "authentication_error", 404: "not_found", 429: "rate_limit_error"}.get(
            response.status_code, "internal_error" if response.status_code >= 500 else "validation_error"
        )
        body = ErrorBody(error_type=error_type, message=response.text[:500] or response.reason_phrase)
    cls = ERROR_CLASSES.get(body.error_type, ApiError)
    retry_after = body.retry_after if body.retry_after is not None else header_wait
    return cls(response.status_code, body.error_type, body.message, body.details, retry_after, request_id)
