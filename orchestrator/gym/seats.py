"""The Gym caller's seat at the table: an AgentService or UserSimService whose answers come from ``step``.

The orchestrator's turn loop calls the seat over gRPC as it calls any agent or user simulator. The seat hands
each call to the Gym side as a :class:`Turn` (what the seat sees) and answers with the message the caller's action
stands for, however long the caller takes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import message_from_proto, message_to_proto, messages_from_proto, tool_schema_from_proto
from taumesh.models import STOP_TOKEN, ChatMessage, ToolSchema
from taumesh.rpc.errors import Context
from taumesh.rpc.server import Service
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc

SEAT_NAME = "taumesh-gym"
"""What the agent seat says it is (AgentService.Describe), so results name the Gym caller."""


@dataclass
class Turn:
    """A call of the turn loop waiting for the caller: what the seat sees, and where its answer goes."""

    conversation: list[ChatMessage]
    """The seat's view of the conversation, oldest first."""
    brief: str
    """The agent's policy, or the user's instruction."""
    tools: list[ToolSchema]
    """The tools the seat may call."""
    answer: asyncio.Future[ChatMessage] = field(repr=False)


class Seat:
    """The queue of turns between the seat's gRPC handlers and the Gym environment (one event loop)."""

    def __init__(self) -> None:
        self.turns: asyncio.Queue[Turn] = asyncio.Queue()

    async def wait_for_caller(
        self, conversation: list[ChatMessage], brief: str, tools: list[ToolSchema]
    ) -> ChatMessage:
        """Queue a turn and wait for the caller's message."""
        turn = Turn(conversation, brief, tools, asyncio.get_running_loop().create_future())
        await self.turns.put(turn)
        return await turn.answer

    def abandon(self) -> None:
        """Cancel every turn still queued (the episode they belong to was given up)."""
        while not self.turns.empty():
            self.turns.get_nowait().answer.cancel()


class AgentSeat(agent_pb2_grpc.AgentServiceServicer):
    """AgentService played by the Gym caller."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    async def Describe(self, request: agent_pb2.DescribeRequest, context: Context) -> agent_pb2.DescribeResponse:
        return agent_pb2.DescribeResponse(name=SEAT_NAME, description="an agent played through taumesh's Gym interface")

    async def NextMessage(
        self, request: agent_pb2.NextMessageRequest, context: Context
    ) -> agent_pb2.NextMessageResponse:
        tools = [tool_schema_from_proto(tool) for tool in request.tools]
        message = await self.seat.wait_for_caller(messages_from_proto(request.conversation), request.policy, tools)
        return agent_pb2.NextMessageResponse(message=message_to_proto(message))


class UserSeat(user_sim_pb2_grpc.UserSimServiceServicer):
    """UserSimService played by the Gym caller: its text with ``###STOP###`` ends the conversation."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    async def _reply(
        self,
        conversation: list[ChatMessage],
        request: user_sim_pb2.StartConversationRequest | user_sim_pb2.ReplyRequest,
    ) -> ChatMessage:
        tools = [tool_schema_from_proto(tool) for tool in request.tools]
        return await self.seat.wait_for_caller(conversation, request.instruction, tools)

    async def StartConversation(
        self, request: user_sim_pb2.StartConversationRequest, context: Context
    ) -> user_sim_pb2.StartConversationResponse:
        message = await self._reply([], request)
        stop = not message.tool_calls and STOP_TOKEN in message.content
        return user_sim_pb2.StartConversationResponse(message=message_to_proto(message), stop=stop)

    async def Reply(self, request: user_sim_pb2.ReplyRequest, context: Context) -> user_sim_pb2.ReplyResponse:
        conversation = [message_from_proto(message) for message in request.conversation]
        message = await self._reply(conversation, request)
        stop = not message.tool_calls and STOP_TOKEN in message.content
        return user_sim_pb2.ReplyResponse(message=message_to_proto(message), stop=stop)


def agent_seat_service(seat: Seat) -> Service:
    """The agent seat as a service to start."""
    return Service(
        name=agent_pb2.DESCRIPTOR.services_by_name["AgentService"].full_name,
        register=agent_pb2_grpc.add_AgentServiceServicer_to_server,
        servicer=AgentSeat(seat),
    )


def user_seat_service(seat: Seat) -> Service:
    """The user seat as a service to start."""
    return Service(
        name=user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name,
        register=user_sim_pb2_grpc.add_UserSimServiceServicer_to_server,
        servicer=UserSeat(seat),
    )
