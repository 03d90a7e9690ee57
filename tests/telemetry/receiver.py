"""A minimal in-process OTLP/gRPC receiver, for the tests that need the real wire and for bench/tracing_overhead.py.

It keeps every trace and metrics export request it is sent; :meth:`OtlpReceiver.spans` flattens
them to :class:`ReceivedSpan` records (service name, ids, parent, attributes, events, links).
"""

from __future__ import annotations

import threading
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


def any_value(value: AnyValue) -> Any:
    """An OTLP ``AnyValue`` as a Python value."""
    which = value.WhichOneof("value")
    if which is None:
        return None
    if which == "array_value":
        return [any_value(v) for v in value.array_value.values]
    if which == "kvlist_value":
        return attributes_dict(value.kvlist_value.values)
    return getattr(value, which)


def attributes_dict(attributes: Any) -> dict[str, Any]:
    """Repeated OTLP ``KeyValue`` as a dict."""
    out: dict[str, Any] = {}
    item: KeyValue
    for item in attributes:
        out[item.key] = any_value(item.value)
    return out


@dataclass
class ReceivedSpan:
    """One exported span, flattened."""

    service: str
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str
    kind: int
    attributes: dict[str, Any]
    resource: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    """(trace id, span id) of each link."""
    status_code: int = 0
    status_message: str = ""
    start_ns: int = 0


class _Traces(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self, receiver: OtlpReceiver) -> None:
        self.receiver = receiver

    def Export(
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: Any
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        with self.receiver.lock:
            self.receiver.trace_requests.append(request)
        return trace_service_pb2.ExportTraceServiceResponse()


class _Metrics(metrics_service_pb2_grpc.MetricsServiceServicer):
    def __init__(self, receiver: OtlpReceiver) -> None:
        self.receiver = receiver

    def Export(
        self, request: metrics_service_pb2.ExportMetricsServiceRequest, context: Any
    ) -> metrics_service_pb2.ExportMetricsServiceResponse:
        with self.receiver.lock:
            self.receiver.metric_requests.append(request)
        return metrics_service_pb2.ExportMetricsServiceResponse()


class OtlpReceiver:
    """Receives OTLP traces and metrics on ``HOST:PORT`` (loopback, a free port by default) until :meth:`stop`."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.lock = threading.Lock()
        self.trace_requests: list[trace_service_pb2.ExportTraceServiceRequest] = []
        self.metric_requests: list[metrics_service_pb2.ExportMetricsServiceRequest] = []
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(_Traces(self), self.server)  # type: ignore[no-untyped-call]
        metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(_Metrics(self), self.server)  # type: ignore[no-untyped-call]
        self.port = self.server.add_insecure_port(f"{host}:{port}")
        self.server.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.stop(grace=None)

    def clear(self) -> None:
        with self.lock:
            self.trace_requests.clear()
            self.metric_requests.clear()

    def span_count(self) -> int:
        """How many spans were received (cheaper than :meth:`spans`)."""
        with self.lock:
            return sum(
                len(scope.spans)
                for request in self.trace_requests
                for resource in request.resource_spans
                for scope in resource.scope_spans
            )

    def spans(self) -> list[ReceivedSpan]:
        """Every span received so far."""
        with self.lock:
            requests = list(self.trace_requests)
        out: list[ReceivedSpan] = []
        for request in requests:
            for resource_spans in request.resource_spans:
                resource = attributes_dict(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        out.append(
                            ReceivedSpan(
                                service=str(resource.get("service.name", "")),
                                name=span.name,
                                trace_id=span.trace_id.hex(),
                                span_id=span.span_id.hex(),
                                parent_span_id=span.parent_span_id.hex(),
                                kind=span.kind,
                                attributes=attributes_dict(span.attributes),
                                resource=resource,
                                events=[(e.name, attributes_dict(e.attributes)) for e in span.events],
                                links=[(link.trace_id.hex(), link.span_id.hex()) for link in span.links],
                                status_code=span.status.code,
                                status_message=span.status.message,
                                start_ns=span.start_time_unix_nano,
                            )
                        )
        return out

    def metric_names(self) -> dict[str, set[str]]:
        """service.name → names of the metrics it exported."""
        with self.lock:
            requests = list(self.metric_requests)
        out: dict[str, set[str]] = {}
        for request in requests:
            for resource_metrics in request.resource_metrics:
                service = str(attributes_dict(resource_metrics.resource.attributes).get("service.name", ""))
                for scope in resource_metrics.scope_metrics:
                    out.setdefault(service, set()).update(m.name for m in scope.metrics)
        return out
