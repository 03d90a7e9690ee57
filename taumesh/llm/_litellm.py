"""litellm, imported once and configured for taumesh: local cost map, its lean HTTP path, quiet, no telemetry.

Every module of taumesh that needs litellm imports it from here, so the environment is set first.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import
# litellm's own HTTP handler for OpenAI-style chat, not the OpenAI SDK: the same request body, half the CPU per call
# (the SDK re-walks every message and tool schema against its TypedDicts). "false" brings the SDK path back.
os.environ.setdefault("EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER", "true")

import litellm
from litellm.exceptions import (
    APIConnectionError,
    BadGatewayError,
    ContextWindowExceededError,
    InternalServerError,
    RateLimitError,
    ServiceUnavailableError,
    Timeout,
)

OPENAI_HTTP_HANDLER = "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER"
"""litellm's switch between its HTTP handler (``true``, taumesh's default) and the OpenAI SDK for OpenAI chat."""
SKIP_MCP_GATEWAY = "_skip_mcp_handler"
"""The ``completion`` argument (litellm 1.106) by which a call with tools skips litellm proxy's MCP gateway."""

litellm.suppress_debug_info = True
litellm.telemetry = False

__all__ = [
    "OPENAI_HTTP_HANDLER",
    "SKIP_MCP_GATEWAY",
    "APIConnectionError",
    "BadGatewayError",
    "ContextWindowExceededError",
    "InternalServerError",
    "RateLimitError",
    "ServiceUnavailableError",
    "Timeout",
    "litellm",
]
