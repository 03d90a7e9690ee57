"""Telemetry inside one process, on the SDK's in-memory exporter: the embedded stack still reports five services;
chat spans from the GenAI utility; content opt-in."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import taumesh.telemetry.attributes as A
from taumesh.llm.hooks import ModelCall
from taumesh.models import AgentSettings, ModelSettings, ToolSchema, Usage, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.run.console import print_summary
from taumesh.orchestrator.run.runner import RunSummary
from taumesh.telemetry import activate, setup_telemetry, shutdown_telemetry
from taumesh.telemetry.genai import model_call_hook, provider_name, server_attributes, session_ref
from tests.helpers.telemetry import assert_one_tree, by_trace, received
from tests.telemetry.receiver import ReceivedSpan

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FIVE = {"taumesh-env", "taumesh-user-sim", "taumesh-agent", "taumesh-scorer", "taumesh-orchestrator"}
CONTENT_ATTRIBUTES = {
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.tool.definitions",
    "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result",
}


def embedded_run(v1_data_dir: Path, log_dir: Path, memory: InMemorySpanExporter | None) -> RunSummary:
    config = RunConfig(
        env="retail",
        task_ids=[0, 5],
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        data_dir=v1_data_dir,
        log_dir=log_dir,
        show_progress=False,
    )
    setup_telemetry("orchestrator", set_global=False, span_exporter=memory)
    try:
        return asyncio.run(run_benchmark(config))
    finally:
        shutdown_telemetry()


@pytest.mark.usefixtures("clean_otel_env")
def test_embedded_run_reports_five_services_without_content(
    v1_data_dir: Path, tmp_path: Path, memory: InMemorySpanExporter
) -> None:
    summary = embedded_run(v1_data_dir, tmp_path, memory)
    assert all(r.reward == 1.0 for r in summary.results)
    spans = received(memory.get_finished_spans())
    traces = by_trace(spans)
    episodes = [t for t in traces.values() if any(s.name == "episode" for s in t)]
    assert len(episodes) == 2
    for trace in episodes:
        assert {s.service for s in trace} == FIVE
        assert_one_tree(trace)
    assert {r.info["trace_id"] for r in summary.results} == {t[0].trace_id for t in episodes}
    embedded = {s.service: s.resource.get("taumesh.embedded") for s in spans}
    assert embedded["taumesh-orchestrator"] is False
    assert embedded["taumesh-env"] is True
    leaked = {(s.name, key) for s in spans for key in s.attributes if key in CONTENT_ATTRIBUTES}
    assert not leaked, "content recorded without OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"


@pytest.mark.usefixtures("clean_otel_env")
def test_no_trace_ids_when_tracing_is_off(v1_data_dir: Path, tmp_path: Path) -> None:
    summary = embedded_run(v1_data_dir, tmp_path, None)
    assert len(summary.results) == 2
    assert all("trace_id" not in r.info for r in summary.results)


def test_summary_links_failed_episodes_to_jaeger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rich.console import Console

    from taumesh.orchestrator.results.records import EpisodeError, RunResult

    monkeypatch.setenv("TAUMESH_JAEGER_URL", "http://jaeger.example:16686/")
    ok = RunResult(task_id=1, reward=1.0, info={"trace_id": "a" * 32}, traj=[], trial=0)
    failed = RunResult(task_id=2, reward=0.0, info={"trace_id": "b" * 32}, traj=[], trial=0)
    error = RunResult.from_error(3, 0, EpisodeError(cause="UNAVAILABLE: down", attempts=3))
    error.info["trace_id"] = "c" * 32
    summary = RunSummary(
        results_path=tmp_path / "r.json", results=[ok, failed, error], pass_hat_k={}, average_reward=0.5
    )
    print_summary(summary, Console(width=200))
    out = capsys.readouterr().out
    assert f"http://jaeger.example:16686/trace/{'b' * 32}" in out
    assert f"http://jaeger.example:16686/trace/{'c' * 32}" in out
    assert "a" * 32 not in out


def chat_spans(memory: InMemorySpanExporter) -> list[ReceivedSpan]:
    return [s for s in received(memory.get_finished_spans()) if s.name.startswith("chat ")]


@pytest.mark.usefixtures("clean_otel_env")
def test_chat_span_records_model_tokens_cost_finish_and_opted_in_content(
    memory: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    settings = ModelSettings(
        model="gpt-4o",
        provider="openai",
        temperature=0.0,
        seed=10,
        api_base="https://u:sk-SECRETSECRET@llm.example:8443/v1",
    )
    messages = [{"role": "system", "content": "policy"}, {"role": "user", "content": "hi"}]
    tools = [ToolSchema(name="find_user", description="Find a user.", parameters={"type": "object"})]
    ok = ModelCall(settings=settings, attempt=1, messages=messages, tools=tools)
    failed = ModelCall(settings=settings, attempt=2, messages=messages)
    telemetry = setup_telemetry("orchestrator", set_global=False, span_exporter=memory)
    try:
        with activate(telemetry.service("agent")):
            with model_call_hook(ok):
                ok.usage = Usage(prompt_tokens=120, completion_tokens=7, cost_usd=0.0012, calls=1)
                ok.finish_reason, ok.response_model = "stop", "gpt-4o-2024-08-06"
            with pytest.raises(TimeoutError), model_call_hook(failed):
                raise TimeoutError("model timed out")
    finally:
        shutdown_telemetry()
    done, timed_out = sorted(chat_spans(memory), key=lambda s: s.start_ns)
    assert done.service == "taumesh-agent"
    assert done.name == "chat gpt-4o"
    assert done.kind == 3  # CLIENT
    attributes = done.attributes
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.provider.name"] == "openai"
    assert attributes["gen_ai.system"] == "openai"
    assert attributes["gen_ai.request.model"] == "gpt-4o"
    assert attributes["gen_ai.request.seed"] == 10
    assert attributes["gen_ai.response.model"] == "gpt-4o-2024-08-06"
    assert attributes["gen_ai.usage.input_tokens"] == 120
    assert attributes["gen_ai.usage.output_tokens"] == 7
    assert list(attributes["gen_ai.response.finish_reasons"]) == ["stop"]
    assert attributes["taumesh.cost_usd"] == pytest.approx(0.0012)
    assert attributes["taumesh.llm.attempt"] == 1
    assert attributes["server.address"] == "llm.example"
    assert attributes["server.port"] == 8443
    (asked,) = json.loads(attributes["gen_ai.input.messages"])  # the system message is not among them
    assert (asked["role"], asked["parts"]) == ("user", [{"type": "text", "content": "hi"}])
    assert json.loads(attributes["gen_ai.system_instructions"]) == [{"type": "text", "content": "policy"}]
    assert json.loads(attributes["gen_ai.tool.definitions"])[0]["name"] == "find_user"
    assert "SECRET" not in json.dumps(attributes)
    assert timed_out.attributes["error.type"] == "TimeoutError"
    assert timed_out.attributes["taumesh.llm.attempt"] == 2
    assert timed_out.status_code == 2  # ERROR


@pytest.mark.usefixtures("clean_otel_env")
def test_chat_span_holds_no_content_unless_opted_in(memory: InMemorySpanExporter) -> None:
    call = ModelCall(
        settings=ModelSettings(model="claude-3-5-sonnet-20241022"),
        attempt=1,
        messages=[{"role": "user", "content": "hi"}],
    )
    telemetry = setup_telemetry("user-sim", set_global=False, span_exporter=memory)
    try:
        with activate(telemetry.service("user-sim")), model_call_hook(call):
            call.usage = Usage(prompt_tokens=50, completion_tokens=5, cost_usd=0.001, calls=1)
    finally:
        shutdown_telemetry()
    (span,) = chat_spans(memory)
    assert span.service == "taumesh-user-sim"
    assert span.attributes["gen_ai.provider.name"] == "anthropic"
    assert span.attributes["gen_ai.usage.input_tokens"] == 50
    assert not CONTENT_ATTRIBUTES & set(span.attributes)


def test_provider_and_server_attributes() -> None:
    assert provider_name(ModelSettings(model="gpt-4o")) == "openai"
    assert provider_name(ModelSettings(model="anthropic/claude-3-opus")) == "anthropic"
    assert provider_name(ModelSettings(model="x", provider="vertex_ai")) == "gcp.vertex_ai"
    assert provider_name(ModelSettings(model="Qwen/Qwen2.5-7B", api_base="http://localhost:8000/v1")) == "qwen"
    assert provider_name(ModelSettings(model="my-model", api_base="http://localhost:8000/v1")) == "openai"
    assert provider_name(ModelSettings(model="my-model")) == "_OTHER"
    assert server_attributes("http://user:pw@host.example:9000/v1?key=k") == {
        "server.address": "host.example",
        "server.port": 9000,
    }
    assert server_attributes("") == {}


def test_docs_list_every_name() -> None:
    docs = (PROJECT_ROOT / "docs" / "telemetry.md").read_text(encoding="utf-8")
    names = [value for key, value in vars(A).items() if key.isupper() and isinstance(value, str)]
    missing = [name for name in names if f"`{name}" not in docs and not name.startswith(("OTEL_", "TAUMESH_"))]
    assert not missing, f"docs/telemetry.md lacks {missing}"


@pytest.mark.usefixtures("clean_otel_env")
@pytest.mark.slow  # it imports litellm: seconds of reading modules from disk
def test_llm_client_calls_become_chat_spans(memory: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch) -> None:
    """``setup_telemetry`` hooks ``taumesh.llm``: a real ``complete`` call (litellm's mock response) is traced."""
    client = pytest.importorskip("taumesh.llm.client")
    from taumesh.llm import complete

    secret = "sk-test-SECRET-for-the-llm-hook-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    real = client.litellm.acompletion

    async def mocked(**kwargs: object) -> object:
        return await real(mock_response="Hello there", **kwargs)

    monkeypatch.setattr(client.litellm, "acompletion", mocked)
    telemetry = setup_telemetry("orchestrator", set_global=False, span_exporter=memory)

    async def call() -> object:
        with activate(telemetry.service("agent")):
            return await complete(ModelSettings(model="gpt-4o-mini"), [{"role": "user", "content": "hi"}])

    try:
        asyncio.run(call())
    finally:
        shutdown_telemetry()
    (span,) = chat_spans(memory)
    assert span.service == "taumesh-agent"
    assert span.name == "chat gpt-4o-mini"
    assert span.attributes["gen_ai.provider.name"] == "openai"
    assert span.attributes["gen_ai.usage.input_tokens"] > 0
    assert span.attributes["gen_ai.usage.output_tokens"] > 0
    assert list(span.attributes["gen_ai.response.finish_reasons"]) == ["stop"]
    assert "taumesh.cost_usd" in span.attributes
    assert secret not in json.dumps(span.attributes) + json.dumps(span.resource)


@pytest.mark.usefixtures("clean_otel_env")
def test_failed_episode_is_an_error_trace_with_its_id_in_the_result(
    v1_data_dir: Path, tmp_path: Path, memory: InMemorySpanExporter
) -> None:
    config = RunConfig(
        env="retail",
        task_ids=[3],
        agent=AgentSettings(strategy="no-such-strategy"),  # refused with INVALID_ARGUMENT: not retried
        user=UserSettings(strategy="scripted"),
        data_dir=v1_data_dir,
        log_dir=tmp_path,
        show_progress=False,
    )
    setup_telemetry("orchestrator", set_global=False, span_exporter=memory)
    try:
        summary = asyncio.run(run_benchmark(config))
    finally:
        shutdown_telemetry()
    (result,) = summary.results
    assert result.is_error
    trace = by_trace(received(memory.get_finished_spans()))[result.info["trace_id"]]
    assert_one_tree(trace)
    root = next(s for s in trace if s.name == "episode")
    assert root.status_code == 2  # ERROR
    assert root.attributes["taumesh.outcome"] == "error"
    assert root.attributes["error.type"] == "INVALID_ARGUMENT"
    assert [name for name, _ in root.events] == ["attempt failed"]
    agent_server = next(s for s in trace if s.service == "taumesh-agent")
    assert agent_server.attributes["rpc.grpc.status_code"] == 3  # INVALID_ARGUMENT (a client error: status unset)


@pytest.mark.usefixtures("clean_otel_env")
def test_tool_span_marks_errors_and_crashes(memory: InMemorySpanExporter) -> None:
    from taumesh.telemetry import tool_span

    setup_telemetry("orchestrator", set_global=False, span_exporter=memory)
    try:
        outcomes = {"ok": {}, "bad": {"error": True}, "crash": {"error": True, "done": True, "aborted": True}}
        for name, outcome in outcomes.items():
            with tool_span(name, f"call_{name}", "{}", session_id="s1") as span:
                span.answered("observation", **{"error": False, **outcome})
    finally:
        shutdown_telemetry()
    spans = {s.name: s for s in received(memory.get_finished_spans())}
    ok, bad, crash = spans["execute_tool ok"], spans["execute_tool bad"], spans["execute_tool crash"]
    assert ok.status_code != 2 and ok.attributes["taumesh.tool.error"] is False
    assert ok.attributes["gen_ai.tool.call.id"] == "call_ok"
    assert ok.attributes["taumesh.session.ref"] == session_ref("s1")  # a digest: the id is a bearer token
    assert "gen_ai.tool.call.arguments" not in ok.attributes  # content capture is off
    assert (bad.status_code, bad.attributes["error.type"]) == (2, "tool_error")
    assert (crash.status_code, crash.attributes["error.type"]) == (2, "tool_crash")
    assert crash.attributes["taumesh.tool.aborted"] is True and crash.attributes["taumesh.tool.done"] is True


@pytest.mark.usefixtures("clean_otel_env")
def test_tool_span_records_nothing_when_tracing_is_off() -> None:
    from taumesh.telemetry import tool_span

    setup_telemetry("orchestrator", set_global=False)
    try:
        with tool_span("ok", "call_1", "{}") as span:
            span.answered("observation", error=True)
    finally:
        shutdown_telemetry()
    assert span.tool is None and span.error is None
