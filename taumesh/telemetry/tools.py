"""``execute_tool <name>`` spans, recorded by the orchestrator (the call) and the env service (the run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from taumesh.telemetry import attributes as A
from taumesh.telemetry.content import truncate
from taumesh.telemetry.providers import capture_content, tracer


class ToolSpan:
    """Records how one tool call ended."""

    def __init__(self, span: Span, capture: bool) -> None:
        self.span = span
        self._capture = capture

    def answered(
        self, observation: str, *, error: bool, done: bool = False, aborted: bool = False, replayed: bool | None = None
    ) -> None:
        span = self.span
        if not span.is_recording():
            return
        span.set_attribute(A.TAUMESH_TOOL_ERROR, error)
        if done:
            span.set_attribute(A.TAUMESH_TOOL_DONE, True)
        if aborted:
            span.set_attribute(A.TAUMESH_TOOL_ABORTED, True)
        if replayed is not None:
            span.set_attribute(A.TAUMESH_TOOL_REPLAYED, replayed)
        if self._capture:
            span.set_attribute(A.GEN_AI_TOOL_CALL_RESULT, truncate(observation))
        if error or aborted:
            span.set_attribute(A.ERROR_TYPE, "tool_crash" if aborted else "tool_error")
            span.set_status(Status(StatusCode.ERROR, "the tool crashed" if aborted else "the tool reported an error"))


@contextmanager
def tool_span(
    name: str, call_id: str, arguments: str, *, kind: SpanKind = SpanKind.INTERNAL, session_id: str = ""
) -> Iterator[ToolSpan]:
    """A span around running tool ``name`` (GenAI ``execute_tool``); arguments only when content capture is on."""
    attributes: dict[str, str] = {
        A.GEN_AI_OPERATION_NAME: A.OP_EXECUTE_TOOL,
        A.GEN_AI_TOOL_NAME: name,
        A.GEN_AI_TOOL_CALL_ID: call_id,
        A.GEN_AI_TOOL_TYPE: "function",
    }
    if session_id:
        attributes[A.TAUMESH_SESSION_ID] = session_id
    with tracer().start_as_current_span(f"{A.OP_EXECUTE_TOOL} {name}", kind=kind, attributes=attributes) as span:
        capture = span.is_recording() and capture_content()
        if capture:
            span.set_attribute(A.GEN_AI_TOOL_CALL_ARGUMENTS, truncate(arguments))
        yield ToolSpan(span, capture)
