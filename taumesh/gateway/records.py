"""What the gateway records per model call: :class:`ModelCallTrace` (a proto mirrors these names)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ModelCallTrace(BaseModel):
    """One model call through the gateway, token-faithful: what the policy saw and produced, token by token."""

    rollout_id: str
    """The signed rollout id the call carried (the episode id), or ``unattributed``."""
    index: int
    """0-based order of the call within its rollout."""
    model: str
    """The model the request named (as the backend was asked)."""
    request: dict[str, Any]
    """The request body as the caller sent it (before the gateway asked for token data)."""
    response: dict[str, Any]
    """The response body as the caller received it (the token data the gateway asked for removed)."""
    prompt_token_ids: list[int] = Field(default_factory=list)
    """The rendered prompt's token ids, as the backend reported them (empty when it did not)."""
    completion_token_ids: list[int] = Field(default_factory=list)
    """The first choice's generated token ids (empty when the backend returned none)."""
    completion_logprobs: list[float] = Field(default_factory=list)
    """The log-probability of each generated token, aligned with ``completion_token_ids`` (empty when none)."""
    loss_mask: list[int] = Field(default_factory=list)
    """Aligned with ``prompt_token_ids + completion_token_ids``: 0 for a prompt token, 1 for one the policy produced."""
    weight_version: str = ""
    """The policy's weight version: the backend's when it reports one, else the caller's
    ``X-Taumesh-Weight-Version``; empty when unknown."""
    latency_s: float = 0.0
    """Seconds the backend took to answer."""
    system_fingerprint: str = ""
    """The backend's ``system_fingerprint`` for the call (the configuration that served it); empty when it gave none."""
