"""Secrets are masked in spans (whoever made them), log lines and texts."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

from taumesh.telemetry.export import ScrubbingSpanExporter
from taumesh.telemetry.redact import REDACTED, Scrubber, install_log_scrubber, secret_values

KEY = "sk-test-SECRET-abcdefghijklmnop"
ODD_KEY = "a1b2c3d4e5f6-not-shaped-like-a-key"


def scrubber() -> Scrubber:
    return Scrubber(env={"OPENAI_API_KEY": KEY, "MY_SERVICE_TOKEN": ODD_KEY, "HOME": "/root", "DEBUG": "true"})


def test_secret_values_come_from_secret_looking_variables() -> None:
    values = secret_values(
        {
            "OPENAI_API_KEY": KEY,
            "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20tok-123456789,x-honeycomb-team=abcdefgh12",
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "SHORT_TOKEN": "1234",
        }
    )
    assert KEY in values
    assert "tok-123456789" in values
    assert "abcdefgh12" in values
    assert "/usr/bin:/bin:/usr/local/bin" not in values
    assert "1234" not in values


@pytest.mark.parametrize(
    ("text", "leak"),
    [
        (f"error: Incorrect API key provided: {KEY}", KEY),
        (f"token {ODD_KEY} rejected", ODD_KEY),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "eyJhbGciOiJIUzI1NiJ9"),
        ("https://api.example.com/v1?api_key=abc123def456&x=1", "abc123def456"),
        ("https://user:hunter2hunter2@proxy.example.com/v1", "hunter2hunter2"),
        ("key sk-ant-api03-AbCdEfGhIjKlMnOp in the message", "sk-ant-api03-AbCdEfGhIjKlMnOp"),
        ('{"api_key": "zzzzzzzzzzzz"}', "zzzzzzzzzzzz"),
        ("AKIAIOSFODNN7EXAMPLE is an AWS key id", "AKIAIOSFODNN7EXAMPLE"),
    ],
)
def test_text_masks_secrets(text: str, leak: str) -> None:
    masked = scrubber().text(text)
    assert leak not in masked
    assert REDACTED in masked


def test_text_leaves_ordinary_content_alone() -> None:
    text = '{"order_id": "#W2378156", "item_ids": ["1151293680"], "payment_method_id": "credit_card_9513926"}'
    assert scrubber().text(text) == text


def test_attributes_by_name_and_value() -> None:
    attributes: dict[str, Any] = {
        "http.request.header.authorization": "Basic Zm9vOmJhcg==",
        "llm.api_key": "whatever-it-is",
        "gen_ai.usage.input_tokens": 12,
        "gen_ai.request.max_tokens": 100,
        "note": f"key={KEY}",
        "list": ["fine", KEY],
    }
    masked = scrubber().attributes(attributes)
    assert masked is not None
    assert masked["http.request.header.authorization"] == REDACTED
    assert masked["llm.api_key"] == REDACTED
    assert masked["gen_ai.usage.input_tokens"] == 12
    assert masked["gen_ai.request.max_tokens"] == 100
    assert KEY not in str(masked["note"])
    assert masked["list"] == ("fine", REDACTED)
    clean = {"gen_ai.tool.name": "get_user_details"}
    assert scrubber().attributes(clean) is clean


def test_exporter_masks_spans_of_any_origin() -> None:
    memory = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "t"}))
    provider.add_span_processor(SimpleSpanProcessor(ScrubbingSpanExporter(memory, scrubber())))
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("call", attributes={"detail": f"Bearer {KEY}"}) as span:
        span.add_event("exception", {"exception.message": f"401: invalid key {KEY}"})
        span.set_status(trace_status_error(f"failed with {KEY}"))
    with tracer.start_as_current_span("clean", attributes={"gen_ai.tool.name": "x"}):
        pass
    provider.shutdown()
    dirty, clean = memory.get_finished_spans()
    assert KEY not in repr(dict(dirty.attributes or {}))
    assert KEY not in repr([dict(e.attributes or {}) for e in dirty.events])
    assert KEY not in (dirty.status.description or "")
    assert dirty.context == dirty.context and dirty.name == "call"
    assert dict(clean.attributes or {}) == {"gen_ai.tool.name": "x"}


@pytest.mark.usefixtures("clean_otel_env")
def test_resource_attributes_are_masked(monkeypatch: pytest.MonkeyPatch, memory: InMemorySpanExporter) -> None:
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry, tracer

    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", f"deployment.environment=test,note={KEY}")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    setup_telemetry("env", set_global=False, span_exporter=memory)
    try:
        with tracer().start_as_current_span("x"):
            pass
    finally:
        shutdown_telemetry()
    (span,) = memory.get_finished_spans()
    assert span.resource.attributes["note"] == REDACTED
    assert span.resource.attributes["deployment.environment"] == "test"
    assert span.resource.attributes["service.name"] == "taumesh-env"


def trace_status_error(description: str) -> Status:
    return Status(StatusCode.ERROR, description)


def test_log_lines_are_masked(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    import taumesh.telemetry.redact as redact_module

    monkeypatch.setattr(redact_module, "_SCRUBBER", scrubber())
    install_log_scrubber()
    with caplog.at_level(logging.INFO):
        logging.getLogger("taumesh.test").warning("model call failed: %s", f"invalid api key {KEY}")
        try:
            raise ValueError(f"Authorization: Bearer {KEY}")
        except ValueError:
            logging.getLogger("taumesh.test").exception("boom")
    assert KEY not in caplog.text
    assert all(KEY not in (r.exc_text or "") for r in caplog.records)
