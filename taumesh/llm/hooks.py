"""A seam around every model call, for tracing: hooks wrap each HTTP attempt in a context manager.

The telemetry package registers one with :func:`add_model_call_hook` (or a caller passes ``hook=`` to
:func:`taumesh.llm.complete`); this package imports no telemetry itself. A hook receives a :class:`ModelCall`
before the attempt; when the block exits, ``usage``, ``finish_reason`` and ``response_model`` are filled in on
success, and the exception propagates through the hook's ``__exit__`` on failure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import Any

from pydantic import BaseModel, Field

from taumesh.models import ModelSettings, ToolSchema, Usage


class ModelCall(BaseModel):
    """One HTTP attempt at a chat completion, as hooks see it."""

    settings: ModelSettings
    attempt: int
    """1 for the first try, 2 for the first retry, ..."""
    messages: list[dict[str, Any]] = Field(default_factory=list)
    """The request's messages, in OpenAI chat form (hooks must not change them)."""
    tools: list[ToolSchema] = Field(default_factory=list)
    """The tools offered to the model."""
    usage: Usage | None = None
    finish_reason: str | None = None
    response_model: str | None = None

    @property
    def span_name(self) -> str:
        """The OpenTelemetry GenAI span name: ``chat <model>``."""
        return f"chat {self.settings.model}"


ModelCallHook = Callable[[ModelCall], AbstractContextManager[object]]
"""Given the call about to be made, a context manager entered around it."""

_HOOKS: list[ModelCallHook] = []


def add_model_call_hook(hook: ModelCallHook) -> Callable[[], None]:
    """Wrap every model call of this process in ``hook`` (once, however often it is added); returns its remover."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)

    def remove() -> None:
        if hook in _HOOKS:
            _HOOKS.remove(hook)

    return remove


@contextmanager
def around_call(call: ModelCall, extra: Sequence[ModelCallHook] = ()) -> Iterator[ModelCall]:
    """Enter the registered hooks and ``extra`` around one attempt."""
    with ExitStack() as stack:
        for hook in [*_HOOKS, *extra]:
            stack.enter_context(hook(call))
        yield call
