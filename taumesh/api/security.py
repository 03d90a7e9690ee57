"""API keys (``Authorization: Bearer`` or ``X-API-Key``) and rate limits: per key, and of bad keys per address."""

from __future__ import annotations

import time

from fastapi.security import APIKeyHeader, HTTPBearer
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers

from taumesh.api.errors import ApiError

bearer = HTTPBearer(auto_error=False, description="An API key from `taumesh api-keys create`.")
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same key, as a header.")


class RateLimiter:
    """A moving-window limit per name (a key id, a client address), with the ``limits`` library."""

    def __init__(self, rate: str, storage_uri: str, what: str = "this API key") -> None:
        self.item: RateLimitItem = parse(rate)
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))
        self.what = what

    def check(self, name: str) -> None:
        """Count one request of ``name``; a 429 with ``retry_after`` when over the limit."""
        if not self.limiter.hit(self.item, name):
            raise self.refusal(name)

    def exhausted(self, name: str) -> bool:
        """Whether ``name`` has used up its window (nothing counted)."""
        return not self.limiter.test(self.item, name)

    def refusal(self, name: str) -> ApiError:
        """The 429 for ``name``, with the seconds until its window frees a request."""
        stats = self.limiter.get_window_stats(self.item, name)
        retry_after = max(stats.reset_time - time.time(), 0.0)
        return ApiError(
            429,
            "rate_limit_error",
            f"rate limit of {self.item} exceeded for {self.what}",
            {"limit": str(self.item)},
            retry_after=round(retry_after, 3),
        )


def presented_token(headers: Headers) -> str | None:
    """The token of ``Authorization: Bearer`` (scheme in any case), else of ``X-API-Key``; None without one."""
    scheme, _, credentials = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return headers.get("x-api-key") or None
