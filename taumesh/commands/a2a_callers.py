"""Who is calling ``taumesh serve a2a``: operator-set caller keys over HTTP and gRPC, or loopback callers only.

The operator names each caller and its key (``--caller-key NAME=TOKEN``, repeatable, or
``TAUMESH_A2A_CALLER_KEYS="NAME=TOKEN,NAME=TOKEN"``); a caller sends ``Authorization: Bearer TOKEN`` (gRPC: the
``authorization`` metadata). The caller's name becomes the A2A ``ServerCallContext.user``, and the SDK's task store
keeps each user's tasks apart: ListTasks, GetTask, CancelTask and SubscribeToTask see the caller's own tasks only.

Without keys the server takes loopback callers only, all as the one caller ``local`` (the default: the green agent
runs beside the evaluation's driver), and refuses to listen beyond loopback. The agent card stays public.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import grpc
from a2a.auth.user import User
from a2a.server.context import ServerCallContext
from a2a.server.request_handlers import GrpcServerCallContextBuilder
from pydantic import BaseModel
from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    AuthenticationError,
    BaseUser,
    SimpleUser,
)
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response

from taumesh.rpc.interceptors import _refuse, _same_kind  # a refusal of the refused method's own streaming kind

if TYPE_CHECKING:
    from taumesh.rpc.interceptors import Continuation, Handler

CALLER_KEYS_ENV = "TAUMESH_A2A_CALLER_KEYS"
"""Environment variable: ``NAME=TOKEN`` pairs, separated by commas or spaces."""
LOCAL_CALLER = "local"
"""The one caller of a server without keys: any process on loopback."""
MIN_TOKEN_LENGTH = 16
PUBLIC_PATHS = ("/.well-known/",)
"""HTTP paths open to anyone: the agent card."""
_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")


class CallerKeys(BaseModel, frozen=True):
    """The operator's callers by token (empty: loopback callers only, as ``local``)."""

    names_by_token: dict[str, str] = {}

    @classmethod
    def parse(cls, pairs: Iterable[str]) -> CallerKeys:
        """From ``NAME=TOKEN`` texts; ValueError naming the bad one (a missing ``=``, a short token, a repeat)."""
        names_by_token: dict[str, str] = {}
        for pair in pairs:
            if not pair.strip():
                continue
            name, sep, token = pair.strip().partition("=")
            if not sep or not _NAME.match(name):
                raise ValueError(f"caller key {name!r}...: write NAME=TOKEN, NAME of letters, digits, _.@-")
            if len(token) < MIN_TOKEN_LENGTH:
                raise ValueError(f"caller {name!r}: the token must be at least {MIN_TOKEN_LENGTH} characters")
            if token in names_by_token or name in names_by_token.values():
                raise ValueError(f"caller {name!r}: each caller needs its own name and its own token")
            names_by_token[token] = name
        return cls(names_by_token=names_by_token)

    @classmethod
    def from_sources(cls, flags: Iterable[str], environ_value: str) -> CallerKeys:
        """The ``--caller-key`` flags and the environment's pairs together."""
        return cls.parse([*flags, *re.split(r"[,\s]+", environ_value)])

    def caller(self, authorization: str | None, peer_host: str | None) -> str | None:
        """The caller's name, or None when it is not one (no key, a wrong key, a remote peer without keys)."""
        if not self.names_by_token:
            return LOCAL_CALLER if is_loopback(peer_host) else None
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            return None
        sent = token.strip().encode("utf-8", "replace")
        found = None
        for known, name in self.names_by_token.items():  # every key compared, in constant time each
            if hmac.compare_digest(sent, known.encode("utf-8")):
                found = name
        return found


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback."""
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Caller(SimpleUser):
    """An authenticated caller: its name is the owner of its tasks."""


class BearerCallers(AuthenticationBackend):
    """Starlette authentication: the caller of each HTTP request, or a 401 (the agent card aside)."""

    def __init__(self, keys: CallerKeys) -> None:
        self.keys = keys

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if conn.url.path.startswith(PUBLIC_PATHS):
            return None
        name = self.keys.caller(conn.headers.get("authorization"), conn.client.host if conn.client else None)
        if name is None:
            raise AuthenticationError(refusal(self.keys, bool(conn.headers.get("authorization"))))
        return AuthCredentials(["evaluate"]), Caller(name)


def refusal(keys: CallerKeys, sent: bool) -> str:
    """Why a caller was refused."""
    if not keys.names_by_token:
        return "this green agent takes loopback callers only (its operator set no caller keys)"
    if sent:
        return "the caller key is not one this green agent's operator set"
    return "this green agent needs a caller key: send 'Authorization: Bearer <token>'"


def unauthorized(conn: HTTPConnection, exc: AuthenticationError) -> Response:
    """The HTTP answer to a refused caller: 401 with a JSON-RPC error body saying why."""
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": f"unauthenticated: {exc}"}}
    return JSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})


class NamedUser(User):
    """An A2A user of a gRPC call."""

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def user_name(self) -> str:
        return self._name


def _authorization(metadata: Iterable[Any] | None) -> str | None:
    for key, value in metadata or ():
        if key == "authorization":
            return value if isinstance(value, str) else bytes(value).decode("utf-8", "replace")
    return None


def _peer_host(peer: str) -> str | None:
    """``ipv4:127.0.0.1:5000`` / ``ipv6:[::1]:5000`` → the address; None for any other kind of peer."""
    kind, _, rest = peer.partition(":")
    if kind not in {"ipv4", "ipv6"}:
        return None
    return rest.rsplit(":", 1)[0].strip("[]")


class GrpcCallers(GrpcServerCallContextBuilder):
    """The A2A call context of a gRPC call: its caller as the user (the interceptor has refused strangers)."""

    def __init__(self, keys: CallerKeys) -> None:
        self.keys = keys

    def build(self, context: grpc.aio.ServicerContext[Any, Any]) -> ServerCallContext:
        name = self.keys.caller(_authorization(context.invocation_metadata()), _peer_host(context.peer()))
        return ServerCallContext(user=NamedUser(name or ""), state={"grpc_context": context})


class RequireCaller(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]  # generic in the stubs only
    """Refuses with UNAUTHENTICATED every gRPC call of no known caller, before its request is read."""

    def __init__(self, keys: CallerKeys) -> None:
        self.keys = keys

    async def intercept_service(
        self, continuation: Continuation, details: grpc.HandlerCallDetails
    ) -> Handler:  # grpc-stubs type it without None; gRPC takes None as "no such method"
        handler = await continuation(details)
        if handler is None:
            return handler  # type: ignore[return-value]
        authorization = _authorization(details.invocation_metadata)
        if not self.keys.names_by_token or self.keys.caller(authorization, None) is not None:
            return handler  # without keys the server listens on loopback only; the peer is checked again in build

        async def refuse(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            reason = "CALLER_KEY_INVALID" if authorization else "CALLER_KEY_REQUIRED"
            _refuse(context, grpc.StatusCode.UNAUTHENTICATED, refusal(self.keys, authorization is not None), reason)

        return _same_kind(handler, refuse)
