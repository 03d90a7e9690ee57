"""Telemetry inside one process: the embedded stack still reports five services; chat spans; content opt-in."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from taumesh.models import AgentSettings, ModelSettings, Usage, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.runner import RunSummary, print_summary, run_benchmark
from taumesh.telemetry import activate, chat_span, setup_telemetry, shutdown_telemetry
from taumesh.telemetry.attributes import REGISTRY
from taumesh.telemetry.genai import model_call_hook, provider_name, server_attributes
from taumesh.telemetry.receiver import OtlpReceiver, ReceivedSpan
from tests.telemetry.conftest import assert_one_tree, by_trace

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FIVE = {"taumesh-env", "taumesh-user-sim", "taumesh-agent", "taumesh-scorer", "taumesh-orchestrator"}
CONTENT_ATTRIBUTES = {spec.name for spec in REGISTRY if spec.opt_in}


def embedded_run(v1_data_dir: Path, log_dir: Path, endpoint: str | None) -> RunSummary:
    config = RunConfig(
        env="retail",
        task_ids=[0, 5],
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        data_dir=v1_data_dir,
        log_dir=log_dir,
        show_progress=False,
    )
    setup_telemetry("orchestrator", endpoint, set_global=False)
    try:
        return asyncio.run(run_benchmark(config))
    finally:
        shutdown_telemetry()


@pytest.mark.usefixtures("clean_otel_env")
def test_embedded_run_reports_five_services_without_content(
    v1_data_dir: Path, tmp_path: Path, receiver: OtlpReceiver
) -> None:
    summary = embedded_run(v1_data_dir, tmp_path, receiver.endpoint)
    assert all(r.reward == 1.0 for r in summary.results)
    spans = receiver.spans()
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

    from taumesh.orchestrator.results import EpisodeError, RunResult

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


def chat_spans(receiver: OtlpReceiver) -> list[ReceivedSpan]:
    return [s for s in receiver.spans() if s.name.startswith("chat ")]


@pytest.mark.usefixtures("clean_otel_env")
def test_chat_span_records_model_tokens_cost_and_finish(
    receiver: OtlpReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    settings = ModelSettings(
        model="gpt-4o",
        provider="openai",
        temperature=0.0,
        seed=10,
        api_base="https://u:sk-SECRETSECRET@llm.example:8443/v1",
    )
    response = SimpleNamespace(
        id="chatcmpl-1",
        model="gpt-4o-2024-08-06",
        usage=SimpleNamespace(prompt_tokens=120, completion_tokens=7),
        choices=[SimpleNamespace(finish_reason="stop", message={"role": "assistant", "content": "Hello!"})],
        _hidden_params={"response_cost": 0.0012},
    )
    telemetry = setup_telemetry("orchestrator", receiver.endpoint, set_global=False)
    try:
        with activate(telemetry.service("agent")):
            messages = [{"role": "system", "content": "policy"}, {"role": "user", "content": "hi"}]
            with chat_span(settings, messages=messages) as chat:
                chat.record_response(response)
            with pytest.raises(TimeoutError), chat_span(settings):
                raise TimeoutError("model timed out")
    finally:
        shutdown_telemetry()
    ok, failed = sorted(chat_spans(receiver), key=lambda s: s.start_ns)
    assert ok.service == "taumesh-agent"
    assert ok.name == "chat gpt-4o"
    assert ok.kind == 3  # CLIENT
    attributes = ok.attributes
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.provider.name"] == "openai"
    assert attributes["gen_ai.system"] == "openai"
    assert attributes["gen_ai.request.model"] == "gpt-4o"
    assert attributes["gen_ai.response.model"] == "gpt-4o-2024-08-06"
    assert attributes["gen_ai.response.id"] == "chatcmpl-1"
    assert attributes["gen_ai.usage.input_tokens"] == 120
    assert attributes["gen_ai.usage.output_tokens"] == 7
    assert attributes["gen_ai.response.finish_reasons"] == ["stop"]
    assert attributes["taumesh.cost_usd"] == pytest.approx(0.0012)
    assert attributes["server.address"] == "llm.example"
    assert json.loads(attributes["gen_ai.input.messages"]) == [
        {"role": "user", "parts": [{"type": "text", "content": "hi"}]}
    ]
    assert json.loads(attributes["gen_ai.system_instructions"]) == [{"type": "text", "content": "policy"}]
    assert json.loads(attributes["gen_ai.output.messages"])[0]["parts"][0]["content"] == "Hello!"
    assert "SECRET" not in json.dumps(attributes)
    assert failed.attributes["error.type"] == "TimeoutError"
    assert failed.status_code == 2  # ERROR
    metrics = receiver.metric_names()["taumesh-agent"]
    assert {"gen_ai.client.token.usage", "gen_ai.client.operation.duration"} <= metrics


@pytest.mark.usefixtures("clean_otel_env")
def test_model_call_hook_makes_chat_spans(receiver: OtlpReceiver) -> None:
    settings = ModelSettings(model="claude-3-5-sonnet-20241022")
    call = SimpleNamespace(settings=settings, attempt=2, usage=None, finish_reason=None, response_model=None)
    telemetry = setup_telemetry("user-sim", receiver.endpoint, set_global=False)
    try:
        with activate(telemetry.service("user-sim")), model_call_hook(call):
            call.usage = Usage(prompt_tokens=50, completion_tokens=5, cost_usd=0.001, calls=1)
            call.finish_reason = "stop"
            call.response_model = "claude-3-5-sonnet-20241022"
    finally:
        shutdown_telemetry()
    (span,) = chat_spans(receiver)
    assert span.service == "taumesh-user-sim"
    assert span.attributes["gen_ai.provider.name"] == "anthropic"
    assert span.attributes["gen_ai.usage.input_tokens"] == 50
    assert span.attributes["gen_ai.usage.output_tokens"] == 5
    assert span.attributes["gen_ai.response.finish_reasons"] == ["stop"]
    assert span.attributes["taumesh.llm.attempt"] == 2
    assert "gen_ai.input.messages" not in span.attributes


def test_provider_and_server_attributes() -> None:
    assert provider_name(ModelSettings(model="gpt-4o")) == "openai"
    assert provider_name(ModelSettings(model="anthropic/claude-3-opus")) == "anthropic"
    assert provider_name(ModelSettings(model="x", provider="vertex_ai")) == "gcp.vertex_ai"
    assert provider_name(ModelSettings(model="Qwen/Qwen2.5-7B", api_base="http://localhost:8000/v1")) == "qwen"
    assert provider_name(ModelSettings(model="my-model", api_base="http://localhost:8000/v1")) == "openai"
    assert server_attributes("http://user:pw@host.example:9000/v1?key=k") == {
        "server.address": "host.example",
        "server.port": 9000,
    }
    assert server_attributes("") == {}


def test_docs_list_every_registered_name() -> None:
    docs = (PROJECT_ROOT / "docs" / "telemetry.md").read_text(encoding="utf-8")
    missing = [spec.name for spec in REGISTRY if f"`{spec.name}`" not in docs]
    assert not missing, f"docs/telemetry.md lacks {missing}"


@pytest.mark.usefixtures("clean_otel_env")
def test_llm_client_calls_become_chat_spans(receiver: OtlpReceiver, monkeypatch: pytest.MonkeyPatch) -> None:
    """``setup_telemetry`` hooks ``taumesh.llm``: a real ``complete`` call (litellm's mock response) is traced."""
    client = pytest.importorskip("taumesh.llm.client")
    from taumesh.llm import complete

    secret = "sk-test-SECRET-for-the-llm-hook-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    real = client.litellm.acompletion

    async def mocked(**kwargs: object) -> object:
        return await real(mock_response="Hello there", **kwargs)

    monkeypatch.setattr(client.litellm, "acompletion", mocked)
    telemetry = setup_telemetry("orchestrator", receiver.endpoint, set_global=False)

    async def call() -> object:
        with activate(telemetry.service("agent")):
            return await complete(ModelSettings(model="gpt-4o-mini"), [{"role": "user", "content": "hi"}])

    try:
        asyncio.run(call())
    finally:
        shutdown_telemetry()
    (span,) = chat_spans(receiver)
    assert span.service == "taumesh-agent"
    assert span.name == "chat gpt-4o-mini"
    assert span.attributes["gen_ai.provider.name"] == "openai"
    assert span.attributes["gen_ai.usage.input_tokens"] > 0
    assert span.attributes["gen_ai.usage.output_tokens"] > 0
    assert span.attributes["gen_ai.response.finish_reasons"] == ["stop"]
    assert "taumesh.cost_usd" in span.attributes
    assert secret not in json.dumps(span.attributes) + json.dumps(span.resource)


@pytest.mark.usefixtures("clean_otel_env")
def test_failed_episode_is_an_error_trace_with_its_id_in_the_result(
    v1_data_dir: Path, tmp_path: Path, receiver: OtlpReceiver
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
    setup_telemetry("orchestrator", receiver.endpoint, set_global=False)
    try:
        summary = asyncio.run(run_benchmark(config))
    finally:
        shutdown_telemetry()
    (result,) = summary.results
    assert result.is_error
    trace = by_trace(receiver.spans())[result.info["trace_id"]]
    assert_one_tree(trace)
    root = next(s for s in trace if s.name == "episode")
    assert root.status_code == 2  # ERROR
    assert root.attributes["taumesh.outcome"] == "error"
    assert root.attributes["error.type"] == "INVALID_ARGUMENT"
    assert [name for name, _ in root.events] == ["attempt failed"]
    agent_server = next(s for s in trace if s.service == "taumesh-agent")
    assert agent_server.attributes["rpc.grpc.status_code"] == 3  # INVALID_ARGUMENT (a client error: status unset)
