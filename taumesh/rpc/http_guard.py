"""Which browsers' requests taumesh's small HTTP servers (``serve mcp``, ``view``) answer, and how large a body.

A server on loopback is still reachable from a web page the machine's browser shows, in two ways: DNS rebinding
(another site's name made to resolve to 127.0.0.1, so the request carries that name as its ``Host``) and plain
cross-site requests (a page posting to ``http://127.0.0.1:PORT``, its ``Origin`` the other site's). A page can send
``text/plain``, form and multipart bodies to any origin without a CORS preflight. So, by default:

- the ``Host`` header must name loopback (``localhost``, ``127.0.0.1``, ``[::1]``; any port, so that a container's
  mapped port still works), or a name the operator allowed (Starlette's ``TrustedHostMiddleware``: 400 otherwise);
- an ``Origin`` header, when sent, must be a page of an allowed host (any port) or an origin the operator allowed
  (403 otherwise, ``null`` included);
- a request with a body of a type a page may send cross-site without asking (``text/plain``, forms) is refused
  (415): the JSON endpoints take ``application/json`` only;
- a body longer than the server's limit is refused (413, naming the limit), counted as it arrives.

The checks run before any route does. Each server may exempt paths that read nothing (a health probe answers
any ``Host``: Kubernetes probes send the pod's address).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Collection
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator
from starlette.datastructures import Headers
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""Host names every server answers: this machine."""
SIMPLE_BODY_TYPES = ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data")
"""Content types a browser sends to another origin without a preflight (the CORS "simple" ones)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_HOST_PATTERN = re.compile(r"^(\*|(\*\.)?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?|\[[0-9a-f:.]+\])$")
_SHOWN = 100
"""Characters of a refused header echoed in the answer."""


class HostPolicy(BaseModel):
    """The host names and browser origins a server answers beyond loopback (``--allowed-host/-origin``)."""

    allowed_hosts: list[str] = Field(default_factory=list)
    """Host names answered besides the loopback ones, without a port (any port matches): ``viewer.internal``,
    ``*.example.com``; ``*`` answers any name (no DNS-rebinding check: behind a proxy that checks it)."""
    allowed_origins: list[str] = Field(default_factory=list)
    """Origins (``scheme://host[:port]``) whose pages may call the server, besides pages of an allowed host."""

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts(cls, hosts: list[str]) -> list[str]:
        cleaned = [host.strip().lower() for host in hosts]
        for host in cleaned:
            if not _HOST_PATTERN.match(host):
                raise ValueError(
                    f"allowed host {host[:_SHOWN]!r} is not a host name: give a name or address without scheme, "
                    "port or path (viewer.internal, 10.0.0.5, [fd00::1], *.example.com, or * for any)"
                )
        return cleaned

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, origins: list[str]) -> list[str]:
        cleaned = []
        for origin in origins:
            normal = _origin(origin)
            if normal is None:
                raise ValueError(
                    f"allowed origin {origin[:_SHOWN]!r} is not an origin: give scheme://host[:port] with no path "
                    "(https://console.example, http://localhost:3000)"
                )
            cleaned.append(normal)
        return cleaned

    @property
    def hosts(self) -> list[str]:
        """Every host name answered: loopback's and the allowed ones."""
        return [*LOOPBACK_HOSTS, *self.allowed_hosts]

    def origin_allowed(self, origin: str) -> bool:
        """Whether a page of ``origin`` may call the server."""
        normal = _origin(origin)
        if normal is None:
            return False  # "null" (a sandboxed frame, a file) and anything unparseable
        if normal in self.allowed_origins:
            return True
        host = _bracketed(urlsplit(normal).hostname or "")
        for pattern in self.hosts:
            if pattern == "*":
                continue  # "any host" is no licence for any page: origins are named one by one
            if host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
                return True
        return False


def _origin(text: str) -> str | None:
    """``text`` as a normal origin (lower case, no trailing slash), or None when it is not one."""
    try:
        parts = urlsplit(text.strip().lower())
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username or parts.password:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def _bracketed(host: str) -> str:
    """An IPv6 address as a Host header writes it (in brackets)."""
    return f"[{host}]" if ":" in host else host


class OriginCheck:
    """Refuses an ``Origin`` the policy does not allow (403) and a cross-site-sendable body type (415)."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self.refusal(headers, scope.get("method", "GET"))
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await refusal(scope, receive, send)

    def refusal(self, headers: Headers, method: str) -> Response | None:
        origin = headers.get("origin")
        if origin is not None and not self.policy.origin_allowed(origin):
            return PlainTextResponse(
                f"Origin {origin[:_SHOWN]!r} is not allowed: pages of another site may not call this server "
                "(the operator may allow one with --allowed-origin)",
                status_code=403,
            )
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if method not in SAFE_METHODS and content_type in SIMPLE_BODY_TYPES:
            return PlainTextResponse(
                f"Content-Type {content_type} is not accepted: this endpoint takes application/json", status_code=415
            )
        return None


class HostGuard:
    """``app`` behind the Host check (Starlette's ``TrustedHostMiddleware``) and :class:`OriginCheck`.

    ``exempt`` paths read with a safe method go straight to ``app``: a health probe that reads nothing.
    """

    def __init__(self, app: ASGIApp, policy: HostPolicy, exempt: Collection[str] = ()) -> None:
        self.app = app
        self.checked = TrustedHostMiddleware(OriginCheck(app, policy), allowed_hosts=policy.hosts, www_redirect=False)
        self.exempt = frozenset(exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("path") in self.exempt and scope.get("method") in SAFE_METHODS:
            await self.app(scope, receive, send)
        else:
            await self.checked(scope, receive, send)


class BodyLimit:
    """Refuses a request body over ``max_body_bytes`` with a 413 naming the limit, before the app reads it.

    A declared ``Content-Length`` over the limit is refused at once; a body sent without one is counted as it arrives
    by Starlette's ``RequestBodyLimitMiddleware`` (its 413 names the limit where the app has :func:`too_large_handler`).
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = RequestBodyLimitMiddleware(app, max_body_bytes)
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = Headers(scope=scope).get("content-length", "") if scope["type"] == "http" else ""
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            await _too_large(self.max_body_bytes)(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def _too_large(limit: int) -> Response:
    message = f"request body too large: this server takes at most {limit} bytes"
    return Response(json.dumps({"error": message}), status_code=413, media_type="application/json")


def too_large_handler(limit: int) -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """Exception handlers that name the limit in the 413 of a body counted too large as it arrived."""

    async def too_large(request: Request, exc: Exception) -> Response:
        return _too_large(limit)

    return {413: too_large}
