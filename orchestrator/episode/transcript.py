"""The record of one episode's conversation: the four views the turn loop keeps in step, and their protobuf form."""

from __future__ import annotations

from pydantic import BaseModel, Field

from taumesh.common.v1 import common_pb2
from taumesh.convert import message_to_proto
from taumesh.models import ChatMessage


class Transcript(BaseModel):
    """The four views of one conversation the loop keeps in step."""

    agent: list[ChatMessage] = Field(default_factory=list)
    """What the agent sees: user turns (without the user's private reasoning), its own turns, tool results."""
    user: list[ChatMessage] = Field(default_factory=list)
    """What the user simulator sees: its own turns (with reasoning) and the agent's texts."""
    traj: list[ChatMessage] = Field(default_factory=list)
    """τ-bench's trajectory: the system prompt (the agent's, else the policy), then everything the agent saw."""
    scored: list[ChatMessage] = Field(default_factory=list)
    """What the scorer replays: everything in time order, the user's own tool calls and their results too."""

    def continue_from(self, history: list[ChatMessage]) -> set[str]:
        """Start from a task's message history, each side seeing what τ² gives it (``get_init_state``).

        The agent (and ``traj``) sees the assistant's messages, the user's texts and the results of the assistant's
        calls; the user its own messages, the assistant's texts and the results of its own calls; the scorer all.
        Returns the ids of the user's own calls in it.
        """
        users_calls: set[str] = set()
        for message in history:
            if message.role == "user" and message.tool_calls:
                users_calls.update(call.id for call in message.tool_calls)
                self.user_acted(message, [])
            elif message.role == "user":
                self.user_said(message)
            elif message.role == "tool" and message.tool_call_id in users_calls:
                self.user_acted(message, [])
            elif message.role == "tool":
                self.tool_answered(message)
            else:
                self.agent_said(message)
                if not message.tool_calls:
                    self.agent_told_user(message)
        return users_calls

    def user_said(self, message: ChatMessage) -> None:
        self.user.append(message)
        visible = ChatMessage(role="user", content=message.content)
        self.agent.append(visible)
        self.traj.append(visible)
        self.scored.append(visible)

    def user_acted(self, message: ChatMessage, results: list[ChatMessage]) -> None:
        """The user called its own tools: only the user (and the scorer) see the calls and their results."""
        self.user += [message, *results]
        self.scored += [message.model_copy(update={"reasoning": ""}), *results]

    def agent_said(self, message: ChatMessage) -> None:
        self.agent.append(message)
        self.traj.append(message)
        self.scored.append(message)

    def agent_told_user(self, message: ChatMessage) -> None:
        self.user.append(ChatMessage(role="assistant", content=message.content))

    def tool_answered(self, message: ChatMessage) -> None:
        self.agent.append(message)
        self.traj.append(message)
        self.scored.append(message)


class WireMessages:
    """Messages as protobuf, each converted once per episode: every call resends the whole conversation."""

    def __init__(self) -> None:
        self._converted: dict[int, tuple[ChatMessage, common_pb2.Message]] = {}

    def __call__(self, messages: list[ChatMessage]) -> list[common_pb2.Message]:
        converted = []
        for message in messages:
            known = self._converted.get(id(message))
            if known is None or known[0] is not message:  # an id is reused only once its message is gone
                known = self._converted[id(message)] = (message, message_to_proto(message))
            converted.append(known[1])
        return converted
