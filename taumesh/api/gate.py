"""The key is checked before anything of the request is read: an ASGI middleware in front of every route.

FastAPI reads and parses a body before it resolves a route's dependencies, so a dependency would check the key
only after an unauthenticated body was read whole. The gate answers 401 (or 429) from the headers alone, and
never calls ``receive``.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from taumesh.api.caller import Caller
from taumesh.api.errors import ApiError, error_response
from taumesh.api.local_mode import LOCAL_KEY_ID, is_loopback_address
from taumesh.api.security import RateLimiter, presented_token
from taumesh.api.store import Store

PUBLIC_PATHS = frozenset({"/", "/health", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
"""Routes anyone may call; every other path needs a key (an unknown one too: 401 before 404)."""
MISSING_KEY = "an API key is required (Authorization: Bearer or X-API-Key)"
LOCAL_ONLY_LOOPBACK = "; local mode answers without one only to loopback clients"


class AuthGate:
    """Authenticates each request from its headers and puts the :class:`~taumesh.api.caller.Caller` in its state.

    * no key: 401;
    * a key that is not valid: 401, counted against the client address; an address over
      ``auth_failure_limit`` gets 429 with ``Retry-After``, whatever key it sends, until its window frees;
    * a valid key over its own ``rate_limit``: 429.

    In local mode (``settings.local``) a request without a key from a loopback address acts as the local key
    (:mod:`taumesh.api.local_mode`), under the same rate limit; a request with a key is checked as always.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in PUBLIC_PATHS:
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        try:
            caller = await self._authenticate(
                scope, state.store, state.key_limiter, state.failure_limiter, local=state.settings.local
            )
        except ApiError as error:
            await error_response(error)(scope, receive, send)
            return
        request_state = scope.setdefault("state", {})
        request_state["caller"] = caller
        request_state["key_id"] = caller.key_id
        await self.app(scope, receive, send)

    @staticmethod
    async def _authenticate(
        scope: Scope, store: Store, keys: RateLimiter, failures: RateLimiter, local: bool
    ) -> Caller:
        address = scope["client"][0] if scope.get("client") else "unknown"
        if failures.exhausted(address):
            raise failures.refusal(address)
        token = presented_token(Headers(scope=scope))
        if token is None:
            caller = await AuthGate._local_caller(store, address) if local else None
            if caller is None:
                raise ApiError(401, "authentication_error", MISSING_KEY + (LOCAL_ONLY_LOOPBACK if local else ""))
            keys.check(caller.key_id)
            return caller
        caller = await run_in_threadpool(store.verify_key, token)
        if caller is None:
            failures.check(address)  # 429 when this failure is one too many
            raise ApiError(401, "authentication_error", "the API key is not valid")
        keys.check(caller.key_id)
        return caller

    @staticmethod
    async def _local_caller(store: Store, address: str) -> Caller | None:
        """Local mode's key for a loopback client; None for any other client (then 401 as without local mode)."""
        if not is_loopback_address(address):
            return None
        caller = await run_in_threadpool(store.active_key, LOCAL_KEY_ID)
        if caller is None:
            raise ApiError(401, "authentication_error", f"local mode's key {LOCAL_KEY_ID} is revoked: send a key")
        return caller
