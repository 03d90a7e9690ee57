"""Helpers shared by the agent strategies that call a model."""

from __future__ import annotations

from collections.abc import Sequence

from taumesh.models import ChatMessage, ModelSettings
from taumesh.rpc.errors import InvalidArgument


def require_model(settings: ModelSettings, strategy: str) -> None:
    """INVALID_ARGUMENT unless a model is configured."""
    if not settings.model:
        raise InvalidArgument(f"agent strategy {strategy!r} needs a model (--model)")


def next_call_id(conversation: Sequence[ChatMessage]) -> str:
    """A tool call id unique within the episode: counts the calls made so far (stateless)."""
    made = sum(len(m.tool_calls) for m in conversation if m.role == "assistant")
    return f"call_{made}"
