"""Spans that stand for exactly one gRPC call, so the call needs no client span of its own.

``invoke_agent`` (one ``NextMessage``), ``simulate_user`` (one ``StartConversation`` or ``Reply``) and
``execute_tool`` (one ``CallTool``) each wrap a single call. Inside :func:`call_span`, the client
interceptor only puts the trace context in the call's metadata: the service's server span becomes
the child of the taumesh span, with no ``/taumesh…/Method`` client span between them (a third of an
episode's spans, and the most expensive part of the gRPC instrumentation). Calls outside such a span
(``OpenSession``, ``GetFinalState``, …) keep their client spans. Loads no OpenTelemetry SDK.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from opentelemetry.trace import Span, get_current_span

_call_span: ContextVar[Span | None] = ContextVar("taumesh_call_span", default=None)


@contextmanager
def call_span(span: Span) -> Iterator[None]:
    """Inside, gRPC calls made while ``span`` is the current span get no client span: ``span`` stands for them."""
    token = _call_span.set(span)
    try:
        yield
    finally:
        _call_span.reset(token)


def covered_by_span() -> bool:
    """Whether the current span is one that stands for the gRPC call being made."""
    span = _call_span.get()
    return span is not None and span is get_current_span()
