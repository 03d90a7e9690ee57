"""litellm, imported once, configured for taumesh: local cost map, lean HTTP, quiet, no unheard logging or redirects.

Every module of taumesh that needs litellm imports it from here, so the environment is set first.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import
# litellm's own HTTP handler for OpenAI-style chat, not the OpenAI SDK: the same request body, half the CPU per call
# (the SDK re-walks every message and tool schema against its TypedDicts). "false" brings the SDK path back.
os.environ.setdefault("EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER", "true")

import litellm
import litellm.utils as _litellm_utils
from litellm.exceptions import (
    APIConnectionError,
    BadGatewayError,
    ContextWindowExceededError,
    InternalServerError,
    RateLimitError,
    ServiceUnavailableError,
    Timeout,
)
from litellm.litellm_core_utils.litellm_logging import Logging
from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler, HTTPHandler
from litellm.llms.openai.common_utils import BaseOpenAILLM

OPENAI_HTTP_HANDLER = "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER"
"""litellm's switch between its HTTP handler (``true``, taumesh's default) and the OpenAI SDK for OpenAI chat."""
SKIP_MCP_GATEWAY = "_skip_mcp_handler"
"""The ``completion`` argument (litellm 1.106) by which a call with tools skips litellm proxy's MCP gateway."""

litellm.suppress_debug_info = True
litellm.telemetry = False

PRINT_LOGGING_PAYLOAD = "LITELLM_PRINT_STANDARD_LOGGING_PAYLOAD"
"""litellm's switch to print each call's standard logging payload: a listener of its success logging too."""

_stock_success_logging = _litellm_utils._dispatch_success_logging


def heard(logging_obj: Any) -> bool:
    """Whether anything listens to litellm's success logging of a call: a callback (global or the call's own)."""
    return bool(
        litellm.callbacks
        or litellm.success_callback
        or litellm._async_success_callback
        or getattr(logging_obj, "dynamic_success_callbacks", None)
        or getattr(logging_obj, "dynamic_async_success_callbacks", None)
        or os.environ.get(PRINT_LOGGING_PAYLOAD)
    )


def _success_logging_when_heard(
    logging_obj: Logging,
    result: object,
    start_time: datetime,
    end_time: datetime,
    is_completion_with_fallbacks: bool,
    is_litellm_internal_call: bool,
) -> None:
    """Run litellm's per-call success logging only when something listens (taumesh registers no callbacks).

    It builds the standard logging payload and prices the response a second time (the first, which taumesh reads,
    is in the response's hidden params): about a sixth of litellm's CPU per call, for no listener.
    """
    if heard(logging_obj):
        _stock_success_logging(
            logging_obj, result, start_time, end_time, is_completion_with_fallbacks, is_litellm_internal_call
        )


def lean_success_logging(lean: bool = True) -> None:
    """Skip litellm's success logging of unheard calls (``True``, taumesh's default) or keep litellm's own."""
    _litellm_utils._dispatch_success_logging = _success_logging_when_heard if lean else _stock_success_logging


lean_success_logging()


def _no_redirects(create: Any) -> Any:
    def create_client(self: AsyncHTTPHandler | HTTPHandler, *args: Any, **kwargs: Any) -> Any:
        self.follow_redirects = False
        return create(self, *args, **kwargs)

    create_client.__wrapped__ = create  # type: ignore[attr-defined]
    return create_client


def _sdk_client_without_redirects(get: Any) -> Any:
    def get_client(*args: Any, **kwargs: Any) -> Any:
        client = get(*args, **kwargs)
        if client is not None:
            client.follow_redirects = False
        return client

    return staticmethod(get_client)


def refuse_redirects() -> None:
    """Make every HTTP client litellm creates for a model call answer a redirect with an error, never follow it.

    A model call carries the server's API key in a header (``Authorization``, or anthropic's ``x-api-key``, which
    httpx keeps even across hosts), so an allowed endpoint answering 302 would send the key wherever it points.
    litellm 1.106 builds its clients with ``follow_redirects=True``: its own handlers (OpenAI-style chat through
    its HTTP handler, anthropic and the others) in ``AsyncHTTPHandler``/``HTTPHandler.create_client``, the OpenAI
    SDK's (``EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER=false``) in ``BaseOpenAILLM``'s client getters. Each is
    wrapped here once, at import, before any client exists; the 3xx then fails ``raise_for_status``.
    """
    for handler in (AsyncHTTPHandler, HTTPHandler):
        if not hasattr(handler.create_client, "__wrapped__"):
            handler.create_client = _no_redirects(handler.create_client)  # type: ignore[method-assign]
    for name in ("_get_async_http_client", "_get_sync_http_client"):
        stock = getattr(BaseOpenAILLM, name)
        if not hasattr(stock, "__wrapped__"):
            wrapped = _sdk_client_without_redirects(stock)
            wrapped.__func__.__wrapped__ = stock
            setattr(BaseOpenAILLM, name, wrapped)


refuse_redirects()

__all__ = [
    "OPENAI_HTTP_HANDLER",
    "PRINT_LOGGING_PAYLOAD",
    "SKIP_MCP_GATEWAY",
    "APIConnectionError",
    "BadGatewayError",
    "ContextWindowExceededError",
    "InternalServerError",
    "RateLimitError",
    "ServiceUnavailableError",
    "Timeout",
    "heard",
    "lean_success_logging",
    "litellm",
    "refuse_redirects",
]
