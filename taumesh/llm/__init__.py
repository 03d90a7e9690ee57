"""Model access through litellm: one completion per call, retried on transient faults, with usage and cost.

litellm itself is imported only when :func:`complete` is first called, so importing this package, or a module that
imports ``complete`` from it (every model-calling strategy), costs nothing: ``taumesh run`` looks up which strategies
call a model, and says a key is missing, without the seconds litellm takes to import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from taumesh.llm.errors import ContextWindowExceeded, EmptyReply, ModelError, ModelRequestError, ModelUnavailable
from taumesh.llm.hooks import ModelCall, ModelCallHook, add_model_call_hook
from taumesh.llm.parsing import find_json_object

if TYPE_CHECKING:
    from taumesh.llm.client import Completion, complete
    from taumesh.llm.retry import RetryPolicy
else:

    async def complete(*args: Any, **kwargs: Any) -> Any:
        """:func:`taumesh.llm.client.complete`, imported (with litellm) at the first call, not at this import."""
        from taumesh.llm.client import complete as call

        return await call(*args, **kwargs)


_LAZY = {"Completion": "taumesh.llm.client", "RetryPolicy": "taumesh.llm.retry"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Completion",
    "ContextWindowExceeded",
    "EmptyReply",
    "ModelCall",
    "ModelCallHook",
    "ModelError",
    "ModelRequestError",
    "ModelUnavailable",
    "RetryPolicy",
    "add_model_call_hook",
    "complete",
    "find_json_object",
]
