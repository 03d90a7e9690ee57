"""Telemetry configuration: off by default (no SDK, no exporter, no interceptors), on by flag or OTEL_* variables."""

from __future__ import annotations

import pytest
from opentelemetry import metrics, trace
from opentelemetry.trace import NoOpTracer

import taumesh.telemetry.providers as providers
import taumesh.telemetry.setup as telemetry_setup
from taumesh.telemetry import current, setup_telemetry, shutdown_telemetry, tracer
from taumesh.telemetry.providers import exporter_classes, normalize_endpoint, wanted


class ExporterCreated(AssertionError):
    pass


@pytest.fixture
def no_exporters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Creating any OTLP exporter fails the test."""
    from opentelemetry.exporter.otlp.proto.grpc import metric_exporter, trace_exporter

    def refuse(*args: object, **kwargs: object) -> None:
        raise ExporterCreated("an exporter was created")

    monkeypatch.setattr(trace_exporter.OTLPSpanExporter, "__init__", refuse)
    monkeypatch.setattr(metric_exporter.OTLPMetricExporter, "__init__", refuse)


@pytest.mark.usefixtures("clean_otel_env", "no_exporters")
def test_no_endpoint_means_no_exporter_and_no_sdk() -> None:
    telemetry = setup_telemetry("orchestrator", None)
    try:
        assert not telemetry.enabled
        for key in ("orchestrator", "env", "user-sim", "agent", "scorer"):
            service = telemetry.service(key)
            assert service.tracer_provider is None
            assert service.meter_provider is None
            assert service.server_interceptors() == []
            assert service.client_interceptors() == []
        assert isinstance(tracer(), NoOpTracer)
        with tracer().start_as_current_span("episode") as span:
            assert not span.is_recording()
            assert not span.get_span_context().is_valid
        # the global providers are still the API's defaults (proxies to no-ops)
        assert type(trace.get_tracer_provider()).__name__ == "ProxyTracerProvider"
        assert type(metrics.get_meter_provider()).__name__ == "_ProxyMeterProvider"
        assert not telemetry_setup._global_set
    finally:
        shutdown_telemetry()


@pytest.mark.usefixtures("clean_otel_env", "no_exporters")
def test_sdk_disabled_wins_over_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    telemetry = setup_telemetry("env", "http://127.0.0.1:4317")
    try:
        assert not telemetry.enabled
        assert telemetry.primary.server_interceptors() == []
    finally:
        shutdown_telemetry()
    assert not current().enabled


@pytest.mark.usefixtures("clean_otel_env")
def test_what_is_exported_follows_the_flag_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not wanted("traces", None) and not wanted("metrics", None)  # the SDK would export to localhost
    assert wanted("traces", "localhost:4317") and wanted("metrics", "localhost:4317")
    monkeypatch.setenv("OTEL_METRICS_EXPORTER", "none")
    assert wanted("traces", "localhost:4317") and not wanted("metrics", "localhost:4317")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://x:4317")
    assert wanted("traces", None)
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "console")
    assert wanted("traces", None)
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert not wanted("traces", "localhost:4317")


@pytest.mark.usefixtures("clean_otel_env")
def test_exporters_come_from_the_sdk_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter

    assert list(exporter_classes("traces").values()) == [OTLPSpanExporter]
    assert list(exporter_classes("metrics").values()) == [OTLPMetricExporter]
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "console,otlp")
    assert list(exporter_classes("traces").values()) == [ConsoleSpanExporter, OTLPSpanExporter]


def test_normalize_endpoint() -> None:
    assert normalize_endpoint("localhost:4317") == "http://localhost:4317"
    assert normalize_endpoint("https://otel.example.com:4317") == "https://otel.example.com:4317"
    assert normalize_endpoint(" http://127.0.0.1:4317 ") == "http://127.0.0.1:4317"


@pytest.mark.usefixtures("clean_otel_env")
def test_content_capture_true_means_span_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`` keeps working with the GenAI utility."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    telemetry = setup_telemetry("orchestrator", set_global=False, span_exporter=InMemorySpanExporter())
    try:
        assert telemetry.primary.genai.should_capture_content()
    finally:
        shutdown_telemetry()


def test_off_loads_no_sdk() -> None:
    """With telemetry off, a process never even imports the OpenTelemetry SDK or the gRPC instrumentation."""
    import os
    import subprocess
    import sys

    from tests.helpers.environment import OTEL_VARIABLES

    code = (
        "import sys\n"
        "import taumesh.orchestrator.run.runner, taumesh.orchestrator.run.stack, taumesh.services.env.servicer\n"
        "from taumesh.telemetry import setup_telemetry, current\n"
        "t = setup_telemetry('orchestrator', None)\n"
        "assert not t.enabled and t.service('env').server_interceptors() == []\n"
        "print(sorted(m for m in sys.modules if m.startswith(('opentelemetry.sdk', 'opentelemetry.instrumentation',"
        " 'opentelemetry.exporter'))))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in OTEL_VARIABLES}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


@pytest.mark.usefixtures("clean_otel_env")
def test_histograms_record_no_exemplars_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A measurement inside a sampled span keeps no exemplar by default; OTEL_METRICS_EXEMPLAR_FILTER still works."""
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider

    def exemplars() -> int:
        reader = InMemoryMetricReader()
        meters = MeterProvider(metric_readers=[reader], exemplar_filter=providers.exemplar_filter())
        histogram = meters.get_meter("test").create_histogram("taumesh.turn.duration")
        with TracerProvider().get_tracer("test").start_as_current_span("turn"):
            histogram.record(0.5)
        data = reader.get_metrics_data()
        assert data is not None
        metric = data.resource_metrics[0].scope_metrics[0].metrics[0]
        return len(metric.data.data_points[0].exemplars)

    assert exemplars() == 0
    monkeypatch.setenv("OTEL_METRICS_EXEMPLAR_FILTER", "trace_based")
    assert exemplars() == 1
