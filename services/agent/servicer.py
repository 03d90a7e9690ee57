"""AgentService over gRPC: dispatches each call to the configured built-in strategy."""

from __future__ import annotations

import asyncio
import importlib.metadata

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import (
    agent_settings_from_proto,
    episode_from_proto,
    message_to_proto,
    messages_from_proto,
    tool_schema_from_proto,
    usage_to_proto,
)
from taumesh.domains import Catalog
from taumesh.llm.status import model_errors_as_status
from taumesh.rpc.errors import Context, InvalidArgument, status_codes
from taumesh.rpc.server import Service
from taumesh.services.agent.strategies import STRATEGIES, AgentStrategy
from taumesh.services.agent.strategies.base import AgentTurn

AGENT_NAME = "taumesh"
"""What the built-in service calls itself in Describe: the strategy is chosen per request, so it names none."""


def taumesh_version() -> str:
    """The installed taumesh version ("unknown" when run from a tree that is not installed)."""
    try:
        return importlib.metadata.version("taumesh")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class AgentServicer(agent_pb2_grpc.AgentServiceServicer):
    """Serves the built-in agent strategies."""

    def __init__(self, catalog: Catalog, reply_latency_ms: float = 0.0) -> None:
        self.catalog = catalog
        self.reply_latency_ms = reply_latency_ms
        self._strategies: dict[str, AgentStrategy] = {}

    def strategy(self, name: str) -> AgentStrategy:
        if name not in STRATEGIES:
            raise InvalidArgument(f"unknown agent strategy {name!r}; known: {sorted(STRATEGIES)}")
        if name not in self._strategies:
            self._strategies[name] = STRATEGIES[name](self.catalog)
        return self._strategies[name]

    @status_codes
    async def Describe(self, request: agent_pb2.DescribeRequest, context: Context) -> agent_pb2.DescribeResponse:
        # DescribeRequest carries no AgentConfig: the strategy and model of a call are in each NextMessage
        return agent_pb2.DescribeResponse(
            name=AGENT_NAME,
            version=taumesh_version(),
            description=f"taumesh built-in agent strategies ({', '.join(STRATEGIES)}), chosen per request",
        )

    @status_codes
    async def NextMessage(
        self, request: agent_pb2.NextMessageRequest, context: Context
    ) -> agent_pb2.NextMessageResponse:
        settings = agent_settings_from_proto(request.config)
        strategy = self.strategy(settings.strategy)
        turn = AgentTurn(
            episode=episode_from_proto(request.episode),
            policy=request.policy,
            tools=[tool_schema_from_proto(t) for t in request.tools],
            conversation=messages_from_proto(request.conversation),
            settings=settings,
        )
        if not turn.conversation:
            raise InvalidArgument("conversation is empty: the agent needs the user's first message")
        with model_errors_as_status(context, malformed_is_callers=True):  # the agent's malformed call
            reply = await strategy.next_message(turn)
        if self.reply_latency_ms > 0:
            await asyncio.sleep(self.reply_latency_ms / 1000)
        return agent_pb2.NextMessageResponse(
            message=message_to_proto(reply.message),
            usage=usage_to_proto(reply.usage),
            system_prompt=reply.system_prompt,
        )


def agent_service(catalog: Catalog, reply_latency_ms: float = 0.0) -> Service:
    """AgentService with the built-in strategies (the oracle reads tasks from ``catalog``).

    Every NextMessage answers ``reply_latency_ms`` later (0: at once), simulating a remote model for benchmarks.
    """
    return Service(
        name=agent_pb2.DESCRIPTOR.services_by_name["AgentService"].full_name,
        register=agent_pb2_grpc.add_AgentServiceServicer_to_server,
        servicer=AgentServicer(catalog, reply_latency_ms),
    )
