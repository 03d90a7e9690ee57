"""Trace ids as they appear in results files, and where to open a trace in Jaeger."""

from __future__ import annotations

import os

from opentelemetry.trace import Span, format_trace_id

from taumesh.telemetry.attributes import ENV_JAEGER_URL

DEFAULT_JAEGER_URL = "http://localhost:16686"


def trace_id_of(span: Span) -> str | None:
    """The 32-hex-digit trace id of ``span``, or None when it is not being traced."""
    context = span.get_span_context()
    return format_trace_id(context.trace_id) if context.is_valid else None


def jaeger_url(trace_id: str) -> str:
    """Jaeger's page for ``trace_id`` (base URL from ``TAUMESH_JAEGER_URL``, default localhost:16686)."""
    base = os.environ.get(ENV_JAEGER_URL, "").strip() or DEFAULT_JAEGER_URL
    return f"{base.rstrip('/')}/trace/{trace_id}"
