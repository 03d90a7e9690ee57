"""The REST API's traces: ``taumesh serve api --otlp-endpoint`` as a real process, runs played over real HTTP, spans
read from an OTLP receiver; and tracing off by default."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import taumesh.telemetry.attributes as A
from taumesh.api.database import make_engine, migrate
from taumesh.api.settings import ApiSettings
from taumesh.api.store import Store
from taumesh.api.telemetry import API_RUN_ID
from taumesh.telemetry.redact import REDACTED
from tests.api.test_api import wait_for_run
from tests.helpers.processes import free_port, wait_for_http
from tests.helpers.telemetry import assert_one_tree, by_trace
from tests.telemetry.receiver import OtlpReceiver, ReceivedSpan

SERVE_API = "from taumesh.cli import main; main()"  # `taumesh serve api …`, as the console script runs it
ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
INTERNAL_KIND, SERVER_KIND, CLIENT_KIND = 1, 2, 3  # OTLP's span kinds
SERVICES = {"taumesh-orchestrator", "taumesh-env", "taumesh-user-sim", "taumesh-agent", "taumesh-scorer"}


def serve_api(root: Path, data_dir: Path, port: int, *flags: str, **env: str) -> subprocess.Popen[bytes]:
    """``taumesh serve api`` in a process of its own, answering /health."""
    command = [sys.executable, "-c", SERVE_API, "serve", "api", "--port", str(port), "--data-root", str(root)]
    command += ["--data-dir", str(data_dir), "--rate-limit", "1000/minute", "--log-level", "warning", *flags]
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_") and not k.startswith("TAUMESH_API_")}
    log = (root / "serve.log").open("wb")
    server = subprocess.Popen(command, env={**clean, **env}, stdout=log, stderr=subprocess.STDOUT)
    wait_for_http(server, f"http://127.0.0.1:{port}/health", root / "serve.log", seconds=90)
    return server


def status_code(span: ReceivedSpan) -> Any:
    """The response status, under the stable HTTP conventions' name or the older default one."""
    return span.attributes.get("http.response.status_code", span.attributes.get("http.status_code"))


def attribute_values(span: ReceivedSpan) -> list[str]:
    events = [value for _, attributes in span.events for value in attributes.values()]
    return [str(value) for value in (*span.attributes.values(), *span.resource.values(), *events)]


@pytest.mark.slow
def test_rest_run_is_traced_like_a_cli_run_without_secrets(
    v1_data_dir: Path, tmp_path: Path, receiver: OtlpReceiver
) -> None:
    store = Store(make_engine(f"sqlite:///{tmp_path / 'taumesh-api.db'}"))  # the default URL under --data-root
    migrate(store.engine)
    token = store.create_key("tracing")[1]
    port = free_port()
    server = serve_api(
        tmp_path,
        v1_data_dir,
        port,
        "--otlp-endpoint",
        receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY="600000",  # nothing leaves before the graceful stop flushes it
        OTEL_METRICS_EXPORTER="none",
        OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST=".*",  # an operator capturing every header
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=120) as bearer:
            waited = bearer.post("/api/v1/validate-tasks", json={**ORACLE, "task_ids": [0]})
            assert waited.status_code == 200, waited.text
            waited_run = waited.json()["run_id"]
        with httpx.Client(base_url=base, headers={"X-API-Key": token}, timeout=120) as keyed:
            queued = keyed.post("/api/v1/validate-tasks", json={**ORACLE, "task_ids": [1], "wait": False})
            assert queued.status_code == 202, queued.text
            queued_run = queued.json()["run_id"]
            assert wait_for_run(keyed, queued_run)["status"] == "completed"
        assert receiver.span_count() == 0, "spans left before the stop: the flush below proves nothing"
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    # uvicorn re-raises the signal once its graceful shutdown (lifespan included) is done
    assert server.returncode in (0, -signal.SIGTERM), (tmp_path / "serve.log").read_text()[-3000:]

    spans = receiver.spans()
    http = [s for s in spans if s.service == "taumesh-api" and s.kind == SERVER_KIND]
    routes = {(s.attributes.get("http.route"), status_code(s)) for s in http}
    assert ("/api/v1/validate-tasks", 200) in routes and ("/api/v1/validate-tasks", 202) in routes, routes
    assert ("/api/v1/runs/{run_id}", 200) in routes, routes
    assert all(s.attributes.get("http.route") != "/health" for s in http), "health probes are not traced"
    internal = [s.name for s in spans if s.service == "taumesh-api" and s.kind == INTERNAL_KIND]
    assert not internal, "one span per request, no receive/send spans"
    posts = {s.attributes.get(API_RUN_ID): s for s in http if s.attributes["http.route"] == "/api/v1/validate-tasks"}
    assert set(posts) == {waited_run, queued_run}, "each request names its run"

    # each run: a `taumesh run` span of the orchestrator; the waited one inside its request's trace
    runs = {s.attributes[API_RUN_ID]: s for s in spans if s.name == A.SPAN_RUN}
    assert set(runs) == {waited_run, queued_run}
    assert {s.service for s in runs.values()} == {"taumesh-orchestrator"}
    assert runs[waited_run].trace_id == posts[waited_run].trace_id
    assert runs[waited_run].parent_span_id == posts[waited_run].span_id
    assert runs[queued_run].trace_id not in {p.trace_id for p in posts.values()}
    assert runs[queued_run].attributes[A.TAUMESH_RUN_EPISODES] == 1

    # each episode: its own trace of the five services, linked to its run's span, as `taumesh run` makes them
    traces = by_trace(spans)
    episodes = [s for s in spans if s.name == A.SPAN_EPISODE]
    assert len(episodes) == 2
    for episode in episodes:
        trace = traces[episode.trace_id]
        assert assert_one_tree(trace) is episode
        assert episode.service == "taumesh-orchestrator"
        # the run's gRPC client spans (calls no taumesh span stands for: OpenSession, ScoreEpisode, ...) too
        assert {s.service for s in trace} == SERVICES
        clients = {s.name.rsplit("/", 1)[1] for s in trace if s.kind == CLIENT_KIND and s.name.startswith("/taumesh.")}
        assert {"OpenSession", "GetFinalState", "ScoreEpisode"} <= clients
        names = {s.name for s in trace}
        assert {"turn 1", A.SPAN_SIMULATE_USER, A.SPAN_SCORE} <= names, names
        assert any(name.startswith("execute_tool ") for name in names), names
        run = next(r for r in runs.values() if (r.trace_id, r.span_id) in episode.links)
        (stored,) = store.results(run.attributes[API_RUN_ID])
        assert stored.info["trace_id"] == episode.trace_id
        assert stored.reward == 1.0

    # no key anywhere, although every request header was captured
    captured = [s for s in http if "http.request.header.user_agent" in s.attributes]
    assert captured, "headers were captured (else the check below proves nothing)"
    leaked = [(s.service, s.name) for s in spans if any(token in value for value in attribute_values(s))]
    assert not leaked, f"the API key reached spans: {leaked}"
    for header in ("http.request.header.authorization", "http.request.header.x_api_key"):
        values = [span.attributes[header] for span in captured if header in span.attributes]
        assert values, f"no request sent {header}"
        assert all(value in (REDACTED, [REDACTED]) for value in values), values


@pytest.mark.slow  # the app's services and /health's model lists (litellm's import): seconds
@pytest.mark.usefixtures("clean_otel_env")
def test_tracing_is_off_without_an_endpoint(v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from taumesh.api.app import create_app
    from taumesh.telemetry import current, providers

    def no_exporter(signal: str) -> dict[str, type[Any]]:
        raise AssertionError(f"a {signal} exporter was created with tracing off")

    monkeypatch.setattr(providers, "exporter_classes", no_exporter)
    settings = ApiSettings(data_root=tmp_path, data_dir=v1_data_dir)
    app = create_app(settings)
    assert not getattr(app, "_is_instrumented_by_opentelemetry", False)
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
        telemetry = current()
        assert not telemetry.enabled
        assert telemetry.primary.tracer_provider is None
        assert app.state.executor.telemetry.tracer_provider is None
