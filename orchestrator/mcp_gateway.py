"""The env's tools over MCP (Streamable HTTP, the official ``mcp`` SDK), one endpoint per episode.

Each bound episode gets ``/episodes/{token}/mcp``, a random token standing for its env session (the session id, a
bearer token of the env, never leaves this process). The endpoint lists exactly the domain's agent tools with their
schemas; a ``tools/call`` runs as the agent's action in that env session over the env's gRPC ``CallTool``.

Idempotency, as ``CallTool``'s: a call is keyed by its JSON-RPC request id (with the ``Mcp-Session-Id`` when the
client has one) and by the call itself (name and arguments). A request repeated with the same id and the same call
is a retry: it gets the first answer and runs nothing. The same id with another call is a new call (SDK clients
number their requests from 0 on each connection). Calls of one episode run one at a time, in arrival order, and
are recorded in that order (:attr:`EpisodeTools.calls`) for the trajectory.

Standalone (``taumesh serve mcp``), two plain HTTP routes open and finish episodes (:func:`gateway_app`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from taumesh.common.v1 import common_pb2
from taumesh.convert import task_ref_to_proto
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import TaskRef
from taumesh.orchestrator.clients import with_retries
from taumesh.rpc.balancing import AFFINITY_HEADER

UNKNOWN_ENDPOINT = -32001
"""JSON-RPC error code of a call to an endpoint no episode is bound to (finished, or never opened)."""
ENDED = "The episode has ended (a tool ended it): no further tool calls run."


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

    def __init__(self, env: env_pb2_grpc.EnvServiceAsyncStub, rpc_timeout: float = 60.0) -> None:
        self.env = env
        self.rpc_timeout = rpc_timeout
        self.episodes: dict[str, EpisodeTools] = {}
        self.server: Server[Any] = Server("taumesh-env", on_list_tools=self._list_tools, on_call_tool=self._call_tool)
        self.manager = StreamableHTTPSessionManager(app=self.server)

    def bind(self, session_id: str, episode_id: str, tools: list[common_pb2.ToolSchema]) -> str:
        """A new endpoint token for this env session."""
        token = secrets.token_urlsafe(24)
        self.episodes[token] = EpisodeTools(session_id, episode_id, [mcp_tool(t) for t in tools])
        return token

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
            recorded = episode.by_key.get(key)
            if recorded is None:
                if episode.ended:
                    return types.CallToolResult(content=[types.TextContent(text=ENDED)], is_error=True)
                tool_call = common_pb2.ToolCall(
                    id=f"mcp_{len(episode.calls)}",
                    name=params.name,
                    arguments_json=arguments,
                    requestor=common_pb2.REQUESTOR_ASSISTANT,
                )
                answer = await self._run(episode, tool_call, key)
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

    def routes(self) -> list[Route]:
        """The MCP endpoint route (mount them in an app whose lifespan runs :meth:`running`)."""
        return [Route("/episodes/{token}/mcp", endpoint=StreamableHTTPASGIApp(self.manager))]

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with self.manager.run():
            yield


class OpenEpisode(BaseModel):
    """Body of ``POST /episodes``: the task whose env session the new endpoint acts in."""

    domain: str
    split: str = "test"
    task_id: str


def gateway_app(gateway: McpGateway) -> Starlette:
    """``taumesh serve mcp``'s app: the MCP endpoints plus ``POST /episodes`` and ``POST /episodes/{token}/finish``."""

    async def open_episode(request: Request) -> JSONResponse:
        try:
            body = OpenEpisode.model_validate_json(await request.body())
        except ValidationError as exc:
            return JSONResponse({"error": exc.errors(include_input=False, include_url=False)}, status_code=400)
        episode_id = secrets.token_hex(16)
        ref = TaskRef(domain=body.domain, split=body.split, task_id=body.task_id)
        try:
            opened: env_pb2.OpenSessionResponse = await gateway.env.OpenSession(
                env_pb2.OpenSessionRequest(task=task_ref_to_proto(ref)),
                timeout=gateway.rpc_timeout,
                metadata=((AFFINITY_HEADER, episode_id),),
            )
        except grpc.aio.AioRpcError as exc:  # the env's refusal (unknown domain or task) goes back as it came
            status = 404 if exc.code() == grpc.StatusCode.NOT_FOUND else 502
            return JSONResponse({"error": exc.details() or exc.code().name}, status_code=status)
        token = gateway.bind(opened.session_id, episode_id, list(opened.tools))
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
        episode = gateway.unbind(request.path_params["token"])
        if episode is None:
            return JSONResponse({"error": "no episode at this endpoint"}, status_code=404)
        final: env_pb2.GetFinalStateResponse = await gateway.env.GetFinalState(
            env_pb2.GetFinalStateRequest(session_id=episode.session_id, close_session=True),
            timeout=gateway.rpc_timeout,
            metadata=((AFFINITY_HEADER, episode.episode_id),),
        )
        calls = [
            {"name": c.tool_call.name, "arguments": c.tool_call.arguments_json, "observation": c.answer.observation}
            for c in episode.calls
        ]
        return JSONResponse(
            {"data_hash": final.data_hash, "env_tool_call_count": final.tool_call_count, "tool_calls": calls}
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with gateway.running():
            yield

    routes = [
        Route("/episodes", endpoint=open_episode, methods=["POST"]),
        Route("/episodes/{token}/finish", endpoint=finish_episode, methods=["POST"]),
        *gateway.routes(),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
