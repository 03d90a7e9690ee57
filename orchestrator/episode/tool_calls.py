"""The tool calls of one episode: run in its env session, each traced, counted, and answered in the transcript."""

from __future__ import annotations

from typing import TYPE_CHECKING

from taumesh.convert import tool_call_from_proto, tool_call_to_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import ChatMessage, ToolCall
from taumesh.orchestrator import tracing
from taumesh.orchestrator.episode.env_session import EpisodeSession
from taumesh.orchestrator.episode.progress import Progress
from taumesh.orchestrator.episode.transcript import Transcript
from taumesh.rpc.errors import clip

if TYPE_CHECKING:  # the gateway imports the MCP SDK: only runs that serve MCP load it
    from taumesh.orchestrator.episode.mcp_gateway import RecordedCall

CALL_ID_RULE = "The call was not run: give every tool call an id unique within the episode."
"""The end of the observation answering an agent's tool call whose id is empty or repeated."""


class ToolCalls:
    """Runs the agent's and the user's tool calls in the episode's env session, each one a step for the agent's.

    ``count`` numbers the calls run (a call's request id, so a retried call runs once); ``call_ids`` holds the
    agent's call ids so far, each of which must be new.
    """

    def __init__(self, env: EpisodeSession, transcript: Transcript, progress: Progress) -> None:
        self.env, self.transcript, self.progress = env, transcript, progress
        self.count = 0
        self.call_ids: set[str] = set()

    async def run_agents(self, calls: list[ToolCall]) -> None:
        """Run the agent's tool calls in order, each one step, until one ends the episode."""
        progress = self.progress
        for call in calls:
            if not progress.steps_left:
                return
            progress.step(call.name)
            problem = self.call_id_problem(call.id)
            if problem:  # the agent's mistake: answered like a bad argument, never run
                self.transcript.tool_answered(
                    ChatMessage(role="tool", content=problem, tool_call_id=call.id, name=call.name)
                )
                continue
            self.transcript.tool_answered(await self.run(call))
            if progress.termination is not None:
                return

    def call_id_problem(self, call_id: str) -> str:
        """Why an agent's tool call id is unusable (empty, or used before in this episode), or ""."""
        if not call_id:
            return f"Error: tool call id is empty. {CALL_ID_RULE}"
        if call_id in self.call_ids:
            return f"Error: tool call id {clip(call_id, 64)!r} was already used in this episode. {CALL_ID_RULE}"
        self.call_ids.add(call_id)
        return ""

    async def run(self, call: ToolCall) -> ChatMessage:
        """Run one tool call in the env session (for its requestor); a tool that ends the episode says so."""
        self.count += 1
        tool_call = tool_call_to_proto(call)
        request_id = f"{self.env.episode_id}:{self.count}"  # a retried call runs once
        with tracing.tool_call(call, self.env.session_id) as span:
            result = await self.env.call_tool(tool_call, request_id)
            status = result.status
            span.answered(
                result.observation,
                error=status == env_pb2.TOOL_CALL_STATUS_ERROR,
                done=status == env_pb2.TOOL_CALL_STATUS_TERMINATED,
                aborted=status == env_pb2.TOOL_CALL_STATUS_ABORTED,
            )
        self.progress.took(status)
        return ChatMessage(role="tool", content=result.observation, tool_call_id=call.id, name=call.name)

    def ran_over_mcp(self, recorded: list[RecordedCall]) -> None:
        """The calls the agent made over MCP while answering: each one step, in the trajectory in the order it ran."""
        for one in recorded:
            call = tool_call_from_proto(one.tool_call)
            self.progress.step(call.name)
            self.count += 1
            self.call_ids.add(call.id)
            self.env.ran(one.tool_call, one.answer)
            self.transcript.agent_said(ChatMessage(role="assistant", tool_calls=[call]))
            self.transcript.tool_answered(
                ChatMessage(role="tool", content=one.answer.observation, tool_call_id=call.id, name=call.name)
            )
            self.progress.took(one.answer.status)
