"""What the sync and async clients share: settings, headers, answer decoding and the Retry-After policy."""

from __future__ import annotations

import os
from typing import Any, Literal, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter
from tenacity import RetryCallState, retry_if_exception, stop_after_attempt

from taumesh.client.errors import RateLimitError, error_from_response

API_URL_ENV = "TAUMESH_API_URL"
API_KEY_ENV = "TAUMESH_API_KEY"
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT = httpx.Timeout(300.0, connect=10.0)
"""Generous reads: a synchronous validate-tasks answers only when its run ends."""
STREAM_RECONNECT_WAIT = 1.0
"""Seconds between reconnections of an event stream that broke (doubled each time, at most 10)."""

AuthHeader = Literal["bearer", "x-api-key"]
T = TypeVar("T")


class ClientSettings(BaseModel):
    """Where the API is, how to authenticate, and how patient to be."""

    base_url: str
    api_key: str | None
    auth_header: AuthHeader = "bearer"
    max_retries: int = 3
    """Retries of a request answered 429 (after waiting its Retry-After), and reconnections of a broken stream."""
    max_retry_wait: float = 60.0
    """A 429 asking to wait longer than this is raised at once instead."""

    @classmethod
    def resolve(
        cls,
        base_url: str | None,
        api_key: str | None,
        auth_header: AuthHeader,
        max_retries: int,
        max_retry_wait: float,
    ) -> ClientSettings:
        """Explicit arguments, else ``TAUMESH_API_URL`` / ``TAUMESH_API_KEY``, else the local default."""
        return cls(
            base_url=(base_url or os.environ.get(API_URL_ENV) or DEFAULT_BASE_URL).rstrip("/"),
            api_key=api_key if api_key is not None else os.environ.get(API_KEY_ENV),
            auth_header=auth_header,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
        )

    def headers(self) -> dict[str, str]:
        """The authentication header (none without a key: /health needs none)."""
        if not self.api_key:
            return {}
        if self.auth_header == "x-api-key":
            return {"X-API-Key": self.api_key}
        return {"Authorization": f"Bearer {self.api_key}"}

    def retry_policy(self) -> dict[str, Any]:
        """Tenacity arguments: retry a 429 after its ``retry_after``, ``max_retries`` times at most."""
        return {
            "stop": stop_after_attempt(self.max_retries + 1),
            "wait": wait_retry_after,
            "retry": retry_if_exception(lambda exc: self.should_retry(exc)),
            "reraise": True,
        }

    def should_retry(self, exc: BaseException) -> bool:
        """A rate-limit error whose wait is acceptable."""
        return isinstance(exc, RateLimitError) and (exc.retry_after or 0.0) <= self.max_retry_wait


def wait_retry_after(state: RetryCallState) -> float:
    """The wait the server asked for (1 s when it named none)."""
    exc = state.outcome.exception() if state.outcome else None
    if isinstance(exc, RateLimitError) and exc.retry_after is not None:
        return exc.retry_after
    return 1.0


def raise_for_error(response: httpx.Response) -> None:
    """Raise the typed error of an error answer (its body already read)."""
    if response.is_error:
        raise error_from_response(response)


def decode(response: httpx.Response, model: type[T]) -> T:
    """The answer's body as ``model`` (a pydantic model or a ``list[...]`` of one)."""
    return TypeAdapter(model).validate_json(response.content)


def reconnect_wait(attempt: int) -> float:
    """Seconds before reconnection ``attempt`` (1-based) of a broken event stream."""
    return float(min(STREAM_RECONNECT_WAIT * 2 ** (attempt - 1), 10.0))
