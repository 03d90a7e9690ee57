"""The orchestrator's MCP agent mode (``taumesh run --agent-tools mcp``): the agent under test takes its tools over MCP.

For the run, one :class:`~taumesh.orchestrator.episode.mcp_gateway.McpGateway` serves on loopback; each episode
binds its
env session to an endpoint and sends its URL in ``NextMessageRequest.mcp_url`` (with no ``tools``). The calls the
agent made over MCP while answering are taken into the trajectory, in the order they ran, before the agent's own
message (:meth:`McpEpisode.new_calls`). The gateway is found through a context variable that the runner sets, so
the episodes of the run (tasks created inside it) see it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2_grpc

if TYPE_CHECKING:  # the gateway imports the MCP SDK (~1 s per process): only runs that serve MCP load it
    from taumesh.orchestrator.episode.mcp_gateway import EpisodeTools, McpGateway, RecordedCall

_CURRENT: ContextVar[McpService | None] = ContextVar("taumesh_mcp_service", default=None)


@dataclass
class McpService:
    """The run's gateway and the base URL it answers at."""

    gateway: McpGateway
    base_url: str


@dataclass
class McpEpisode:
    """One episode's endpoint and how many of its calls the trajectory holds already."""

    service: McpService
    token: str
    taken: int = 0

    @property
    def url(self) -> str:
        return self.service.base_url + self.service.gateway.path(self.token)

    @property
    def tools(self) -> EpisodeTools:
        return self.service.gateway.episodes[self.token]

    def follow(self, session_id: str) -> None:
        """Act in ``session_id`` from now on (the env session was rebuilt on another replica): no longer expired."""
        self.tools.session_id = session_id
        self.tools.expired = False

    def new_calls(self) -> list[RecordedCall]:
        """The calls the agent made since the last time, in the order they ran."""
        calls = self.tools.take_new_calls(self.taken)
        self.taken += len(calls)
        return calls

    def close(self) -> None:
        self.service.gateway.unbind(self.token)


def bind_episode(session_id: str, episode_id: str, tools: list[common_pb2.ToolSchema]) -> McpEpisode | None:
    """An endpoint for this episode when the run serves tools over MCP, else None."""
    service = _CURRENT.get()
    if service is None:
        return None
    return McpEpisode(service, service.gateway.bind(session_id, episode_id, tools))


@asynccontextmanager
async def serving_mcp(env: env_pb2_grpc.EnvServiceAsyncStub, rpc_timeout: float) -> AsyncIterator[McpService]:
    """Serve the gateway on 127.0.0.1 (any free port) for the enclosed episodes."""
    import uvicorn  # here: only a run with --agent-tools mcp serves the gateway

    from taumesh.orchestrator.episode.mcp_gateway import McpGateway

    gateway = McpGateway(env, rpc_timeout)  # loopback names and pages only, as ``serve mcp`` by default
    server = uvicorn.Server(uvicorn.Config(gateway.app(), host="127.0.0.1", port=0, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            serving.result()  # raises why it could not start
        await asyncio.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    service = McpService(gateway, f"http://127.0.0.1:{port}")
    token = _CURRENT.set(service)
    try:
        yield service
    finally:
        _CURRENT.reset(token)
        server.should_exit = True
        await serving
