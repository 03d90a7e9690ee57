"""litellm, imported once and configured for taumesh: local cost map, quiet, no telemetry.

Every module of taumesh that needs litellm imports it from here, so the environment is set first.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import

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

litellm.suppress_debug_info = True
litellm.telemetry = False

__all__ = [
    "APIConnectionError",
    "BadGatewayError",
    "ContextWindowExceededError",
    "InternalServerError",
    "RateLimitError",
    "ServiceUnavailableError",
    "Timeout",
    "litellm",
]
