"""What a user-simulation strategy sees and returns."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal, Protocol

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


TurnProblem = Literal["leaked_goal", "invented_facts", "stopped_early"]
"""What the strict user's check can find in a candidate message (the user-simulator faults ``taumesh analyze``
names, but breaking the instruction, which one turn rarely shows)."""


class TurnCheck(BaseModel):
    """What the strict user's check of one message found, and what it spent (``TurnCheck`` of the proto)."""

    usage: Usage = Field(default_factory=Usage)
    """The check calls alone: kept apart from the user's own usage, so the user's cost stays comparable."""
    checks: int = 0
    """1: the first candidate passed; 2: it failed and its redraw was checked; 0: nothing to check."""
    redrawn: bool = False
    """The first candidate failed and the message sent is its redraw."""
    sent_failing: bool = False
    """The redraw failed its check too and was sent anyway (there is no third draft)."""
    problems: list[TurnProblem] = Field(default_factory=list)
    """What the failed checks found, in the order of the checks."""
    reasons: list[str] = Field(default_factory=list)
    """The failed checks' reasons, one per failed check."""


class UserReply(BaseModel):
    """The user's message and the model usage behind it."""

    message: ChatMessage
    usage: Usage = Field(default_factory=Usage)
    check: TurnCheck | None = None
    """The strict user's check of ``message``; None for strategies that check nothing."""


class UserStrategy(Protocol):
    """A way of playing the user."""

    calls_model: ClassVar[bool]
    """It calls a model with the run's user model settings (``--user-model``): its endpoint must be one the operator
    allowed, and its model is checked before a run starts. The one declaration of it: the services, the REST API and
    ``taumesh run``'s preflight read it through :func:`taumesh.services.user_sim.strategies.calls_model`."""

    async def reply(self, turn: UserTurn) -> UserReply:
        """The user's next message: the opening one when the conversation is empty."""
        ...
