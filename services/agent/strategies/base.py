"""What an agent strategy sees and returns."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, Field

from taumesh.models import AgentSettings, ChatMessage, EpisodeContext, ToolSchema, Usage


class AgentTurn(BaseModel):
    """Everything an agent needs to produce its next message; nothing is kept between calls."""

    episode: EpisodeContext
    policy: str
    tools: list[ToolSchema]
    conversation: list[ChatMessage]
    settings: AgentSettings = Field(default_factory=AgentSettings)


class AgentReply(BaseModel):
    """The agent's next message and the model usage behind it."""

    message: ChatMessage
    usage: Usage = Field(default_factory=Usage)
    system_prompt: str = ""
    """The system message the model was given, recorded as the trajectory's (empty: no model, the policy)."""


class AgentStrategy(Protocol):
    """A way of playing the agent."""

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        """The assistant message that answers the last message of ``turn.conversation``."""
        ...
