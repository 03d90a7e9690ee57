"""What a user-simulation strategy sees and returns."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Protocol

from pydantic import BaseModel, Field

from taumesh.models import ChatMessage, EpisodeContext, ToolSchema, Usage, UserSettings


class UserTurn(BaseModel):
    """Everything the simulated user needs for one reply; nothing is kept between calls."""

    instruction: str
    conversation: list[ChatMessage] = Field(default_factory=list)
    """User and assistant messages (and the results of the user's own tool calls) so far; empty at the start."""
    settings: UserSettings = Field(default_factory=UserSettings)
    episode: EpisodeContext | None = None
    tools: list[ToolSchema] = Field(default_factory=list)
    """Tools the user may call; empty where only the agent acts."""
    data_dir: Path | None = None
    """τ-bench v1's data folder the service was started with (where τ-bench's user prompts are looked for first)."""


class UserReply(BaseModel):
    """The user's message and the model usage behind it."""

    message: ChatMessage
    usage: Usage = Field(default_factory=Usage)


class UserStrategy(Protocol):
    """A way of playing the user."""

    calls_model: ClassVar[bool]
    """It calls a model with the run's user model settings (``--user-model``): its endpoint must be one the operator
    allowed, and its model is checked before a run starts. The one declaration of it: the services, the REST API and
    ``taumesh run``'s preflight read it through :func:`taumesh.services.user_sim.strategies.calls_model`."""

    async def reply(self, turn: UserTurn) -> UserReply:
        """The user's next message: the opening one when the conversation is empty."""
        ...
