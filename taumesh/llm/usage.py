"""Tokens and cost of one completion, as the provider reported them and litellm prices them."""

from __future__ import annotations

import logging
from typing import Any

from taumesh.llm._litellm import litellm
from taumesh.models import Usage

log = logging.getLogger(__name__)


def cost_of(response: Any) -> float:
    """The response's cost in US dollars: litellm's ``response_cost`` (None: unpriced, 0.0), else its price table."""
    hidden = getattr(response, "_hidden_params", None) or {}
    if isinstance(hidden, dict) and "response_cost" in hidden:  # litellm priced it, or found no price: not twice
        cost = hidden["response_cost"]
        if cost is None:
            return 0.0
    else:
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception as exc:  # noqa: BLE001 - an unpriced model (a self-hosted one) costs nothing known
            log.debug("no price for model %s: %s", getattr(response, "model", "?"), exc)
            return 0.0
    try:
        return float(cost)
    except (TypeError, ValueError):
        return 0.0


def usage_of(response: Any) -> Usage:
    """Usage of one successful call: tokens from the response, cost from litellm, ``calls=1``."""
    reported = getattr(response, "usage", None)
    prompt = getattr(reported, "prompt_tokens", None) or 0
    completion = getattr(reported, "completion_tokens", None) or 0
    return Usage(prompt_tokens=int(prompt), completion_tokens=int(completion), cost_usd=cost_of(response), calls=1)
