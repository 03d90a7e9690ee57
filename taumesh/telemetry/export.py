"""The span exporter wrapper that masks secrets in every span before it leaves the process.

Loaded only when tracing is on (it needs the OpenTelemetry SDK).
"""

from __future__ import annotations

from collections.abc import Sequence

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import Link, Status

from taumesh.telemetry.redact import Scrubber


def scrub_resource(scrubber: Scrubber, resource: Resource) -> Resource:
    """``resource``, or a copy of it with its secrets masked (``OTEL_RESOURCE_ATTRIBUTES`` may hold some)."""
    attributes = scrubber.attributes(resource.attributes)
    return resource if attributes is resource.attributes else Resource(attributes or {}, resource.schema_url)


def _event(scrubber: Scrubber, event: Event) -> Event:
    name, attributes = scrubber.text(event.name), scrubber.attributes(event.attributes)
    if name == event.name and attributes is event.attributes:
        return event
    return Event(name, attributes, event.timestamp)


def scrub_span(scrubber: Scrubber, span: ReadableSpan, resource: Resource | None = None) -> ReadableSpan:
    """``span``, or a copy of it with its secrets masked (name, attributes, events, links, status, resource)."""
    name = scrubber.text(span.name)
    attributes = scrubber.attributes(span.attributes)
    events = [_event(scrubber, e) for e in span.events]
    links = [
        link if (masked := scrubber.attributes(link.attributes)) is link.attributes else Link(link.context, masked)
        for link in span.links
    ]
    status = span.status
    if status.description and scrubber.text(status.description) != status.description:
        status = Status(status.status_code, scrubber.text(status.description))
    resource = resource or scrub_resource(scrubber, span.resource)
    unchanged = (
        name == span.name
        and attributes is span.attributes
        and all(a is b for a, b in zip(events, span.events, strict=True))
        and all(a is b for a, b in zip(links, span.links, strict=True))
        and status is span.status
        and resource is span.resource
    )
    if unchanged:
        return span
    return ReadableSpan(
        name=name,
        context=span.context,
        parent=span.parent,
        resource=resource,
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
        self._resources: dict[int, tuple[Resource, Resource]] = {}

    def _resource(self, resource: Resource) -> Resource:
        cached = self._resources.get(id(resource))
        if cached is None or cached[0] is not resource:
            cached = self._resources[id(resource)] = (resource, scrub_resource(self.scrubber, resource))
        return cached[1]

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return self.inner.export([scrub_span(self.scrubber, s, self._resource(s.resource)) for s in spans])

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)
