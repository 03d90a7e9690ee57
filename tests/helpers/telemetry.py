"""Reading spans: SDK spans in the receiver's form, traces grouped by id, a trace checked to be one tree."""

from __future__ import annotations

from collections import defaultdict

from opentelemetry.sdk.trace import ReadableSpan

from tests.telemetry.receiver import ReceivedSpan


def received(spans: tuple[ReadableSpan, ...]) -> list[ReceivedSpan]:
    """SDK spans in the receiver's flat form, so the same helpers read both."""
    return [
        ReceivedSpan(
            service=str(span.resource.attributes.get("service.name", "")),
            name=span.name,
            trace_id=f"{span.context.trace_id:032x}" if span.context else "",
            span_id=f"{span.context.span_id:016x}" if span.context else "",
            parent_span_id=f"{span.parent.span_id:016x}" if span.parent else "",
            kind=span.kind.value + 1,  # OTLP numbers kinds from 1 (internal)
            attributes=dict(span.attributes or {}),
            resource=dict(span.resource.attributes),
            events=[(e.name, dict(e.attributes or {})) for e in span.events],
            links=[(f"{link.context.trace_id:032x}", f"{link.context.span_id:016x}") for link in span.links],
            status_code=span.status.status_code.value,
            start_ns=span.start_time or 0,
        )
        for span in spans
    ]


def by_trace(spans: list[ReceivedSpan]) -> dict[str, list[ReceivedSpan]]:
    traces: dict[str, list[ReceivedSpan]] = defaultdict(list)
    for span in spans:
        traces[span.trace_id].append(span)
    return dict(traces)


def assert_one_tree(spans: list[ReceivedSpan]) -> ReceivedSpan:
    """Every span's parent is in the trace and there is exactly one root; returns the root."""
    ids = {s.span_id for s in spans}
    assert len(ids) == len(spans), "span ids repeat"
    roots = [s for s in spans if not s.parent_span_id]
    assert len(roots) == 1, f"{len(roots)} roots: {[r.name for r in roots]}"
    orphans = [(s.service, s.name) for s in spans if s.parent_span_id and s.parent_span_id not in ids]
    assert not orphans, f"spans whose parent is not in the trace: {orphans}"
    return roots[0]


def walk_up(span: ReceivedSpan, spans: list[ReceivedSpan]) -> list[ReceivedSpan]:
    """``span``'s ancestors, nearest first."""
    index = {s.span_id: s for s in spans}
    out = []
    while span.parent_span_id:
        span = index[span.parent_span_id]
        out.append(span)
    return out
