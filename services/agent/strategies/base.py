"""What an agent strategy sees and returns."""

from __future__ import annotations

from typing import ClassVar, Protocol

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

    calls_model: ClassVar[bool]
    """It calls a model provider with the run's model settings (``--model``): before a run starts, the model must be
    named, its provider known and its credentials set, and its calls take that provider's rate limits. The one
    declaration of it: the services, the REST API and ``taumesh run``'s preflight read it through
    :func:`taumesh.services.agent.strategies.calls_model`."""

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        """The assistant message that answers the last message of ``turn.conversation``."""
        ...
