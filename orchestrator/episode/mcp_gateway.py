"""The env's tools over MCP (Streamable HTTP, the official ``mcp`` SDK), one endpoint per episode.

Each bound episode gets ``/episodes/{token}/mcp``, a random token standing for its env session (the session id, a
bearer token of the env, never leaves this process). The endpoint lists exactly the domain's agent tools with their
schemas; a ``tools/call`` runs as the agent's action in that env session over the env's gRPC ``CallTool``.

Idempotency, as ``CallTool``'s: a call is keyed by its JSON-RPC request id (with the ``Mcp-Session-Id`` when the
client has one) and by the call itself (name and arguments). A request repeated with the same id and the same call
is a retry: it gets the first answer and runs nothing. The same id with another call is a new call (SDK clients
number their requests from 0 on each connection). Calls of one episode run one at a time, in arrival order, and
are recorded in that order (:attr:`EpisodeTools.calls`) for the trajectory.

Standalone (``taumesh serve mcp``), two plain HTTP routes open and finish episodes (:func:`gateway_app`), within
:class:`GatewayLimits`: a cap on the episodes each client (its address) and all clients hold open, and on request
bodies. Every route answers only loopback names and pages (:mod:`taumesh.rpc.http_guard`) unless the operator
allows more. An episode whose env session expired (the env reaps sessions left unused) keeps the calls it recorded:
a call to it is a JSON-RPC error :data:`EPISODE_EXPIRED`, and finishing it answers 410 with those calls.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from taumesh.common.v1 import common_pb2
from taumesh.convert import task_ref_to_proto
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import TaskRef
from taumesh.orchestrator.clients import sent_by_a_service, with_retries
from taumesh.rpc.balancing import AFFINITY_HEADER
from taumesh.rpc.errors import clip
from taumesh.rpc.http_guard import BodyLimit, HostGuard, HostPolicy, too_large_handler
from taumesh.rpc.server import TOOL_CALL_REQUEST_BYTES
from taumesh.services.env.sessions import DEFAULT_IDLE_TIMEOUT

log = logging.getLogger(__name__)

UNKNOWN_ENDPOINT = -32001
"""JSON-RPC error code of a call to an endpoint no episode is bound to (finished, or never opened)."""
EPISODE_EXPIRED = -32002
"""JSON-RPC error code of a call to an episode whose env session is gone (expired unused, or closed)."""
ENV_FAILED = -32003
"""JSON-RPC error code of a call the env did not run (unreachable, or it refused): the message says why."""
ENDED = "The episode has ended (a tool ended it): no further tool calls run."
EXPIRED = (
    "the episode has expired: its env session is gone (left unused past the env's idle timeout, or closed). "
    "Finish it (POST /episodes/{episode}/finish) for the calls it recorded, and open a new one to play again"
)


class GatewayLimits(BaseModel, use_attribute_docstrings=True):
    """What one gateway serves at most (``taumesh serve mcp``'s flags)."""

    max_body_bytes: int = Field(default=TOOL_CALL_REQUEST_BYTES, ge=1024)
    """Bytes of one request body (an open request, an MCP message): more is refused with 413. The env takes a tool
    call of at most this size too."""
    max_episodes_per_client: int = Field(default=256, ge=1)
    """Episodes one client (one peer address) holds open at once; over it, 429 until one is finished or expires."""
    max_episodes: int = Field(default=1024, ge=1)
    """Episodes all clients hold open at once: the env's session table (2,000 by default) keeps room for others."""
    idle_timeout: float = Field(default=DEFAULT_IDLE_TIMEOUT, gt=0)
    """Seconds after which an unused episode no longer counts as open (the env's own idle timeout, by default: its
    session has expired by then). Its recorded calls are kept as long again for a late finish."""


def env_failure(exc: grpc.aio.AioRpcError) -> str:
    """Why the env did not answer, in words.

    A service's own message, or only the status name: never the channel's text or the error's repr, which name
    addresses and internals.
    """
    if sent_by_a_service(exc):
        return f"{exc.code().name}: {clip(exc.details() or '', 300)}"
    return f"the env could not be reached ({exc.code().name}); try again"


@dataclass
class RecordedCall:
    """One tool call the endpoint ran, with the env's answer."""

    key: str
    tool_call: common_pb2.ToolCall
    answer: env_pb2.CallToolResponse


@dataclass
class EpisodeTools:
    """One episode's endpoint: its env session, its tools, and the calls it ran in order."""

    session_id: str
    episode_id: str
    tools: list[types.Tool]
    calls: list[RecordedCall] = field(default_factory=list)
    by_key: dict[str, RecordedCall] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ended: bool = False
    client: str | None = None
    """Who opened it over ``POST /episodes`` (its address), counted against its cap; None: bound by a run."""
    last_used: float = 0.0
    expired: bool = False
    """The env said its session is gone: calls are refused without asking it again."""

    def take_new_calls(self, since: int) -> list[RecordedCall]:
        """The calls recorded after the first ``since``."""
        return self.calls[since:]


def mcp_tool(schema: common_pb2.ToolSchema) -> types.Tool:
    """A wire tool schema as an MCP tool."""
    parameters = json.loads(schema.parameters_json) if schema.parameters_json else {}
    return types.Tool(
        name=schema.name,
        description=schema.description,
        input_schema=parameters or {"type": "object", "properties": {}},
    )


class McpGateway:
    """Serves bound episodes' tools over MCP; calls the env at ``env`` with ``rpc_timeout`` per attempt."""

    def __init__(
        self,
        env: env_pb2_grpc.EnvServiceAsyncStub,
        rpc_timeout: float = 60.0,
        *,
        limits: GatewayLimits | None = None,
        policy: HostPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.env = env
        self.rpc_timeout = rpc_timeout
        self.limits = limits or GatewayLimits()
        self.policy = policy or HostPolicy()
        self.clock = clock
        self.episodes: dict[str, EpisodeTools] = {}
        self.opening: Counter[str] = Counter()
        """Episodes being opened, by client: counted before the env answers, so that concurrent opens keep the cap."""
        self.server: Server[Any] = Server("taumesh-env", on_list_tools=self._list_tools, on_call_tool=self._call_tool)
        self.manager = StreamableHTTPSessionManager(app=self.server, max_request_body_size=self.limits.max_body_bytes)

    def bind(
        self, session_id: str, episode_id: str, tools: list[common_pb2.ToolSchema], client: str | None = None
    ) -> str:
        """A new endpoint token for this env session (opened by ``client``, when a client opened it)."""
        token = secrets.token_urlsafe(24)
        episode = EpisodeTools(session_id, episode_id, [mcp_tool(t) for t in tools], client=client)
        episode.last_used = self.clock()
        self.episodes[token] = episode
        return token

    def open_count(self, client: str | None = None) -> int:
        """Episodes opened over HTTP and still open, by ``client`` (or by anyone).

        Open: used within the idle timeout and its session not known to be gone; or being opened.
        """
        since = self.clock() - self.limits.idle_timeout
        live = [e.client for e in self.episodes.values() if e.client and not e.expired and e.last_used > since]
        if client is None:
            return len(live) + sum(self.opening.values())
        return live.count(client) + self.opening[client]

    def frees_in(self, client: str | None = None) -> float:
        """Seconds until the oldest-used open episode (of ``client``, or of anyone) stops counting."""
        since = self.clock() - self.limits.idle_timeout
        used = [
            e.last_used
            for e in self.episodes.values()
            if e.client is not None and (client is None or e.client == client) and e.last_used > since
        ]
        return max(min(used, default=since) - since, 1.0)

    def forget_stale(self) -> int:
        """Drop the episodes opened over HTTP and unused for twice the idle timeout; returns how many.

        Their recorded calls go with them: a finish was awaited as long as the session lived, and as long again.
        """
        stale = self.clock() - 2 * self.limits.idle_timeout
        gone = [t for t, e in self.episodes.items() if e.client is not None and e.last_used <= stale]
        for token in gone:
            del self.episodes[token]
        return len(gone)

    def unbind(self, token: str) -> EpisodeTools | None:
        return self.episodes.pop(token, None)

    @staticmethod
    def path(token: str) -> str:
        return f"/episodes/{token}/mcp"

    def _episode(self, ctx: ServerRequestContext[Any]) -> EpisodeTools:
        request = ctx.request
        token = request.path_params.get("token", "") if isinstance(request, Request) else ""
        episode = self.episodes.get(token)
        if episode is None:
            raise MCPError(UNKNOWN_ENDPOINT, "no episode at this endpoint (finished, or never opened)")
        return episode

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._episode(ctx).tools)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        episode = self._episode(ctx)
        arguments = json.dumps(params.arguments or {})
        request = ctx.request
        mcp_session = request.headers.get("mcp-session-id", "-") if isinstance(request, Request) else "-"
        digest = hashlib.sha256(f"{params.name}\0{arguments}".encode()).hexdigest()[:16]
        key = f"{mcp_session}:{ctx.request_id}:{digest}"
        async with episode.lock:
            episode.last_used = self.clock()
            recorded = episode.by_key.get(key)
            if recorded is None:
                if episode.ended:
                    return types.CallToolResult(content=[types.TextContent(text=ENDED)], is_error=True)
                if episode.expired:
                    raise MCPError(EPISODE_EXPIRED, EXPIRED)
                tool_call = common_pb2.ToolCall(
                    id=f"mcp_{len(episode.calls)}",
                    name=params.name,
                    arguments_json=arguments,
                    requestor=common_pb2.REQUESTOR_ASSISTANT,
                )
                try:
                    answer = await self._run(episode, tool_call, key)
                except grpc.aio.AioRpcError as exc:
                    raise self._refusal(episode, exc) from None
                recorded = RecordedCall(key, tool_call, answer)
                episode.calls.append(recorded)
                episode.by_key[key] = recorded
                if answer.status in (env_pb2.TOOL_CALL_STATUS_TERMINATED, env_pb2.TOOL_CALL_STATUS_ABORTED):
                    episode.ended = True
        answer = recorded.answer
        return types.CallToolResult(
            content=[types.TextContent(text=answer.observation)],
            is_error=answer.status != env_pb2.TOOL_CALL_STATUS_OK,
        )

    @staticmethod
    def _refusal(episode: EpisodeTools, exc: grpc.aio.AioRpcError) -> MCPError:
        """The JSON-RPC error of a call the env did not run: a gone session expires the episode."""
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            episode.expired = True
            return MCPError(EPISODE_EXPIRED, EXPIRED)
        log.warning("the env did not run an MCP tool call: %s", env_failure(exc))
        return MCPError(ENV_FAILED, f"the env did not run the call: {env_failure(exc)}")

    async def _run(self, episode: EpisodeTools, tool_call: common_pb2.ToolCall, key: str) -> env_pb2.CallToolResponse:
        request = env_pb2.CallToolRequest(
            session_id=episode.session_id, tool_call=tool_call, request_id=f"{episode.episode_id}:mcp:{key}"
        )
        metadata = ((AFFINITY_HEADER, episode.episode_id),)

        async def call() -> env_pb2.CallToolResponse:
            answer: env_pb2.CallToolResponse = await self.env.CallTool(
                request, timeout=self.rpc_timeout, metadata=metadata
            )
            return answer

        return await with_retries(call)

    def app(self, routes: list[Route] | None = None) -> Starlette:
        """The MCP endpoints (plus ``routes``) as an app.

        Host and Origin are checked and bodies bounded before any route runs; the session manager runs for the
        app's life.
        """

        @asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            async with self.manager.run():
                yield

        endpoint = Route("/episodes/{token}/mcp", endpoint=StreamableHTTPASGIApp(self.manager))
        return Starlette(
            routes=[*(routes or []), endpoint],
            middleware=[
                Middleware(HostGuard, policy=self.policy),
                Middleware(BodyLimit, max_body_bytes=self.limits.max_body_bytes),
            ],
            exception_handlers=too_large_handler(self.limits.max_body_bytes),
            lifespan=lifespan,
        )


class OpenEpisode(BaseModel):
    """Body of ``POST /episodes``: the task whose env session the new endpoint acts in."""

    domain: str
    split: str = "test"
    task_id: str


def gateway_app(gateway: McpGateway) -> Starlette:
    """``taumesh serve mcp``'s app: the MCP endpoints plus ``POST /episodes`` and ``POST /episodes/{token}/finish``."""

    async def open_episode(request: Request) -> JSONResponse:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return JSONResponse({"error": "POST /episodes takes application/json"}, status_code=415)
        try:
            body = OpenEpisode.model_validate_json(await request.body())
        except ValidationError as exc:
            return JSONResponse({"error": exc.errors(include_input=False, include_url=False)}, status_code=400)
        client = request.client.host if request.client else "-"
        refused = _over_cap(gateway, client)
        if refused is not None:
            return refused
        episode_id = secrets.token_hex(16)
        ref = TaskRef(domain=body.domain, split=body.split, task_id=body.task_id)
        gateway.opening[client] += 1
        try:
            opened: env_pb2.OpenSessionResponse = await gateway.env.OpenSession(
                env_pb2.OpenSessionRequest(task=task_ref_to_proto(ref)),
                timeout=gateway.rpc_timeout,
                metadata=((AFFINITY_HEADER, episode_id),),
            )
        except grpc.aio.AioRpcError as exc:  # the env's refusal (unknown domain or task) goes back as it came
            status = 404 if exc.code() == grpc.StatusCode.NOT_FOUND else 502
            error = (exc.details() or exc.code().name) if sent_by_a_service(exc) else env_failure(exc)
            return JSONResponse({"error": error}, status_code=status)
        finally:
            gateway.opening[client] -= 1
            if not gateway.opening[client]:
                del gateway.opening[client]
        token = gateway.bind(opened.session_id, episode_id, list(opened.tools), client=client)
        return JSONResponse(
            {
                "episode": token,
                "mcp_path": gateway.path(token),
                "instruction": opened.user_instruction,
                "policy": opened.policy,
                "initial_data_hash": opened.initial_data_hash,
            }
        )

    async def finish_episode(request: Request) -> JSONResponse:
        token = request.path_params["token"]
        episode = gateway.episodes.get(token)
        if episode is None:
            return JSONResponse({"error": "no episode at this endpoint"}, status_code=404)
        async with episode.lock:  # a call in flight is recorded before the session closes
            if gateway.episodes.get(token) is not episode:  # finished meanwhile
                return JSONResponse({"error": "no episode at this endpoint"}, status_code=404)
            calls = [
                {"name": c.tool_call.name, "arguments": c.tool_call.arguments_json, "observation": c.answer.observation}
                for c in episode.calls
            ]
            if episode.expired:
                gateway.unbind(token)
                return JSONResponse({"error": EXPIRED, "expired": True, "tool_calls": calls}, status_code=410)
            try:
                final: env_pb2.GetFinalStateResponse = await gateway.env.GetFinalState(
                    env_pb2.GetFinalStateRequest(session_id=episode.session_id, close_session=True),
                    timeout=gateway.rpc_timeout,
                    metadata=((AFFINITY_HEADER, episode.episode_id),),
                )
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.NOT_FOUND:  # the env reaped it: the calls are all there is
                    gateway.unbind(token)
                    return JSONResponse({"error": EXPIRED, "expired": True, "tool_calls": calls}, status_code=410)
                # the env did not answer: the episode stays, so that the finish can be tried again
                return JSONResponse({"error": env_failure(exc), "tool_calls": calls}, status_code=502)
            gateway.unbind(token)
        return JSONResponse(
            {"data_hash": final.data_hash, "env_tool_call_count": final.tool_call_count, "tool_calls": calls}
        )

    return gateway.app(
        [
            Route("/episodes", endpoint=open_episode, methods=["POST"]),
            Route("/episodes/{token}/finish", endpoint=finish_episode, methods=["POST"]),
        ]
    )


def _over_cap(gateway: McpGateway, client: str) -> JSONResponse | None:
    """A 429 saying what to do when ``client``, or everyone, holds the most open episodes allowed; else None."""
    gateway.forget_stale()
    limits = gateway.limits
    finish = (
        "finish one (POST /episodes/{episode}/finish) before opening another; an episode unused for "
        f"{limits.idle_timeout:g} s stops counting"
    )
    if gateway.open_count(client) >= limits.max_episodes_per_client:
        message = (
            f"this client holds {limits.max_episodes_per_client} open episodes, the most one client may "
            f"(--max-episodes-per-client): {finish}"
        )
        wait = gateway.frees_in(client)
    elif gateway.open_count() >= limits.max_episodes:
        message = (
            f"the gateway holds {limits.max_episodes} open episodes, the most it serves (--max-episodes): {finish}"
        )
        wait = gateway.frees_in()
    else:
        return None
    return JSONResponse({"error": message}, status_code=429, headers={"Retry-After": str(math.ceil(wait))})
