"""The agent's turn: the agent under test answers the conversation it sees, with its tools or its MCP endpoint."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.convert import agent_settings_to_proto, episode_to_proto, message_from_proto, usage_from_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import ChatMessage, EpisodeContext, Usage
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode.mcp_agent import McpEpisode, bind_episode
from taumesh.orchestrator.episode.model_calls import call_model_service

if TYPE_CHECKING:  # the gateway imports the MCP SDK: only runs that serve MCP load it
    from taumesh.orchestrator.episode.mcp_gateway import RecordedCall


class AgentAnswer(NamedTuple):
    """One answer of the agent: its message, what it spent, and what else it did while answering."""

    message: ChatMessage
    usage: Usage
    system_prompt: str
    """The prompt the agent gave its model ("" when it did not say): τ-bench records it, not the bare policy."""
    mcp_calls: list[RecordedCall]
    """The tool calls it made over MCP while answering, in the order they ran (none without ``--agent-tools mcp``)."""


class AgentTurn:
    """Asks the agent service for the agent's next message; ``steps`` counts the answers asked for."""

    def __init__(self, clients: ServiceClients, config: RunConfig, context: EpisodeContext) -> None:
        self.clients, self.config, self.context = clients, config, context
        self.steps = 0
        self.mcp: McpEpisode | None = None  # the episode's MCP endpoint, with --agent-tools mcp
        self._base: tuple[env_pb2.OpenSessionResponse | None, agent_pb2.NextMessageRequest] = (
            None,
            agent_pb2.NextMessageRequest(),
        )
        """The request's policy and tools, for the session they came from: copied in C, not rebuilt, on each call."""

    async def answer(self, session: env_pb2.OpenSessionResponse, conversation: list[common_pb2.Message]) -> AgentAnswer:
        """The agent's next message, given the whole conversation so far, in env session ``session``."""
        if self._base[0] is not session:  # a new (or rebuilt) session: its policy and tools
            base = agent_pb2.NextMessageRequest(
                episode=episode_to_proto(self.context),
                policy=session.policy,
                tools=session.tools,
                config=agent_settings_to_proto(self.config.agent),
            )
            self._base = (session, base)
        request = agent_pb2.NextMessageRequest()
        request.CopyFrom(self._base[1])
        request.conversation.extend(conversation)
        if self.config.agent_tools == "mcp":
            self.serve_tools_over_mcp(session, request)
        self.steps += 1
        with tracing.agent_step(self.config.agent, self.context, self.steps) as span:
            answer: agent_pb2.NextMessageResponse = await call_model_service(
                self.clients.agent.NextMessage, request, self.config.model_timeout
            )
            for call in answer.message.tool_calls:
                call.requestor = common_pb2.REQUESTOR_ASSISTANT  # the agent's calls are the agent's
            message = message_from_proto(answer.message, role="assistant")  # whatever role an agent sent
            span.answered(message, usage_from_proto(answer.usage))
        mcp_calls = self.mcp.new_calls() if self.mcp is not None else []
        return AgentAnswer(message, usage_from_proto(answer.usage), answer.system_prompt, mcp_calls)

    def serve_tools_over_mcp(self, session: env_pb2.OpenSessionResponse, request: agent_pb2.NextMessageRequest) -> None:
        """Give the agent its episode's MCP endpoint instead of the tools (bound at its first turn)."""
        if self.mcp is None:
            self.mcp = bind_episode(session.session_id, self.context.episode_id, list(session.tools))
            if self.mcp is None:
                raise RuntimeError("--agent-tools mcp needs the run's MCP gateway (mcp_agent.serving_mcp)")
        self.mcp.follow(session.session_id)  # a rebuilt session has a new id
        del request.tools[:]
        request.mcp_url = self.mcp.url

    def close(self) -> None:
        """Unbind the episode's MCP endpoint, if it had one."""
        if self.mcp is not None:
            self.mcp.close()
