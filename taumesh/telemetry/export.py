"""The span exporter wrapper that masks secrets in every span before it leaves the process.

Whoever made the span (taumesh, the gRPC instrumentation's exception events, the GenAI utility)
its name, attributes, events, links and status pass the scrubber. Resources are masked once, when
a service's providers are built. Loaded only when tracing is on (it needs the SDK).
"""

from __future__ import annotations

from collections.abc import Sequence

from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import Link, Status

from taumesh.telemetry.redact import Scrubber


def _event(scrubber: Scrubber, event: Event) -> Event:
    name, attributes = scrubber.text(event.name), scrubber.attributes(event.attributes)
    return event if name == event.name and attributes is event.attributes else Event(name, attributes, event.timestamp)


def _link(scrubber: Scrubber, link: Link) -> Link:
    attributes = scrubber.attributes(link.attributes)
    return link if attributes is link.attributes else Link(link.context, attributes)


def scrub_span(scrubber: Scrubber, span: ReadableSpan) -> ReadableSpan:
    """``span``, or a copy of it with its secrets masked (the same span when it holds none: the common case)."""
    name, attributes = scrubber.text(span.name), scrubber.attributes(span.attributes)
    events = [_event(scrubber, e) for e in span.events] if span.events else []
    links = [_link(scrubber, link) for link in span.links] if span.links else []
    status = span.status
    if status.description and scrubber.text(status.description) != status.description:
        status = Status(status.status_code, scrubber.text(status.description))
    unchanged = all(a is b for a, b in zip(events, span.events, strict=True)) and all(
        a is b for a, b in zip(links, span.links, strict=True)
    )
    if name == span.name and attributes is span.attributes and status is span.status and unchanged:
        return span
    return ReadableSpan(
        name=name,
        context=span.context,
        parent=span.parent,
        resource=span.resource,
        attributes=attributes,
        events=events,
        links=links,
        kind=span.kind,
        status=status,
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
    )


class ScrubbingSpanExporter(SpanExporter):
    """Masks secrets in every span, then hands the spans to ``inner``."""

    def __init__(self, inner: SpanExporter, scrubber: Scrubber) -> None:
        self.inner = inner
        self.scrubber = scrubber

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return self.inner.export([scrub_span(self.scrubber, s) for s in spans])

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)
