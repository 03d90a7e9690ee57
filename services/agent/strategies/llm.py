"""Helpers shared by the agent strategies that call a model."""

from __future__ import annotations

from collections.abc import Sequence

from taumesh.gateway.signing import ROLLOUT_HEADER
from taumesh.llm.access import current_grants
from taumesh.models import ChatMessage, EpisodeContext, ModelSettings
from taumesh.rpc.errors import InvalidArgument


def require_model(settings: ModelSettings, strategy: str) -> None:
    """INVALID_ARGUMENT unless a model is configured; PERMISSION_DENIED unless the operator allows its endpoint."""
    if not settings.model:
        raise InvalidArgument(f"agent strategy {strategy!r} needs a model (--model)")
    current_grants().check_api_base(settings.api_base, "config.model.api_base")


def next_call_id(conversation: Sequence[ChatMessage]) -> str:
    """A tool call id unique within the episode: counts the calls made so far (stateless)."""
    made = sum(len(m.tool_calls) for m in conversation if m.role == "assistant")
    return f"call_{made}"


def rollout_headers(episode: EpisodeContext) -> dict[str, str] | None:
    """The model gateway's ``X-Taumesh-Rollout`` header: the episode's signed rollout id, forwarded unchanged.

    None (no header, as upstream) when the orchestrator signed none.
    """
    return {ROLLOUT_HEADER: episode.rollout_token} if episode.rollout_token else None
