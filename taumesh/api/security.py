"""API-key authentication (``Authorization: Bearer`` or ``X-API-Key``) and the per-key rate limit."""

from __future__ import annotations

import time

from fastapi import Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from taumesh.api.errors import ApiError
from taumesh.api.store import Store

bearer = HTTPBearer(auto_error=False, description="An API key from `taumesh api-keys create`.")
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same key, as a header.")


class RateLimiter:
    """A moving-window limit per API key (the ``limits`` library)."""

    def __init__(self, rate: str, storage_uri: str) -> None:
        self.item: RateLimitItem = parse(rate)
        self.limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))

    def check(self, key_id: str) -> None:
        """Count one request of ``key_id``; a 429 with ``retry_after`` when over the limit."""
        if self.limiter.hit(self.item, key_id):
            return
        stats = self.limiter.get_window_stats(self.item, key_id)
        retry_after = max(stats.reset_time - time.time(), 0.0)
        raise ApiError(
            429,
            "rate_limit_error",
            f"rate limit of {self.item} exceeded for this API key",
            {"limit": str(self.item)},
            retry_after=round(retry_after, 3),
        )


def authenticate(request: Request, store: Store, bearer_token: str | None, header_key: str | None) -> str:
    """The caller's key id, recorded for the audit log; 401 when the key is missing, unknown or revoked."""
    token = bearer_token or header_key
    if not token:
        raise ApiError(401, "authentication_error", "an API key is required (Authorization: Bearer or X-API-Key)")
    key_id = store.verify_key(token)
    if key_id is None:
        raise ApiError(401, "authentication_error", "the API key is not valid")
    request.state.key_id = key_id
    return key_id


def bearer_value(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if any."""
    return credentials.credentials if credentials is not None else None
