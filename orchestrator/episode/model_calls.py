"""Calls to the services that call a model (the agent and the user simulator): retried once, with the model timeout."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from taumesh.orchestrator.clients import with_retries

MODEL_RPC_ATTEMPTS = 2
"""Attempts at an agent or user-sim call. Those services already retry their model with backoff, so the
orchestrator retries only once more (a replica that died); retrying a provider that is down several times
over would multiply the load on it."""


async def call_model_service(method: Callable[..., Any], request: Any, timeout: float) -> Any:
    """``method(request)`` with ``timeout`` (a gRPC stub's method), attempted :data:`MODEL_RPC_ATTEMPTS` times."""
    return await with_retries(partial(method, request, timeout=timeout), attempts=MODEL_RPC_ATTEMPTS)
