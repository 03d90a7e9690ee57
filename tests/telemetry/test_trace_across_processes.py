"""The four services as separate OS processes plus the orchestrator, exporting to an OTLP receiver here.

One run (retail test tasks 0 and 5, oracle agent, scripted user) with a fake API key in every
process's environment and content capture on; the tests then read what reached the receiver.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from taumesh.testing.processes import ServerProcess, serve_argv, stop_all, taumesh_executable
from tests.helpers.environment import OTEL_VARIABLES
from tests.helpers.telemetry import assert_one_tree, by_trace, walk_up
from tests.telemetry.receiver import OtlpReceiver, ReceivedSpan

TASK_IDS = (0, 5)
SECRET = "sk-test-SECRET-0123456789abcdefDO-NOT-LEAK"
SERVICES = {"env": "env", "user-sim": "user", "agent": "agent", "scorer": "scorer"}
"""``taumesh serve`` name → ``taumesh run --<name>-addr`` flag."""
pytestmark = pytest.mark.slow  # five processes and a run before the first test
FIVE = {"taumesh-env", "taumesh-user-sim", "taumesh-agent", "taumesh-scorer", "taumesh-orchestrator"}


@dataclass
class TracedRun:
    spans: list[ReceivedSpan]
    metrics: dict[str, set[str]]
    results: list[dict[str, Any]]
    outputs: dict[str, str]
    gold: dict[int, list[str]]


@pytest.fixture(scope="module")
def traced_run(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TracedRun]:
    receiver = OtlpReceiver()
    env = {k: v for k, v in os.environ.items() if k not in OTEL_VARIABLES}
    env.update(
        {
            "OPENAI_API_KEY": SECRET,
            "ANTHROPIC_API_KEY": SECRET,
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
            # the key also sits in headers sent to the collector and in the resource attributes
            "OTEL_EXPORTER_OTLP_HEADERS": f"authorization=Bearer%20{SECRET}",
            "OTEL_RESOURCE_ATTRIBUTES": f"deployment.environment=test,leaky.note={SECRET}",
            "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true",
            "OTEL_BSP_SCHEDULE_DELAY": "200",
        }
    )
    log_dir = tmp_path_factory.mktemp("traced-run")
    services: dict[str, ServerProcess] = {}
    outputs: dict[str, str] = {}
    try:
        for name in SERVICES:
            # env gets the endpoint by flag (bare host:port), the others by OTEL_EXPORTER_OTLP_ENDPOINT
            extra = ["--otlp-endpoint", receiver.endpoint.removeprefix("http://")] if name == "env" else []
            argv = serve_argv(name, "--data-dir", str(v1_data_dir), *extra)
            services[name] = ServerProcess.spawn(argv, log_dir / f"{name}.err", env)
        for server in services.values():
            server.wait_ready()  # all four start at once; the first to be waited for is not the last to be ready
        orchestrator_env = {k: v for k, v in env.items() if k != "OTEL_EXPORTER_OTLP_ENDPOINT"}
        command = [
            taumesh_executable(),
            "run",
            "--env",
            "retail",
            "--task-split",
            "test",
            *(arg for task in TASK_IDS for arg in ("--task-ids", str(task))),
            "--agent-strategy",
            "oracle",
            "--user-strategy",
            "scripted",
            "--data-dir",
            str(v1_data_dir),
            "--log-dir",
            str(log_dir / "results"),
            "--quiet",
            "--otlp-endpoint",
            receiver.endpoint,
            # credentials in the model URL must not reach the invoke_agent span's server.address
            "--model",
            "openai/fake-model",
            "--api-base",
            f"https://user:{SECRET}@models.example.invalid:8443/v1?api_key={SECRET}",
            *(arg for name, flag in SERVICES.items() for arg in (f"--{flag}-addr", services[name].address)),
        ]
        run = subprocess.run(command, env=orchestrator_env, capture_output=True, text=True, timeout=120, check=False)
        outputs["orchestrator"] = run.stdout + run.stderr
        assert run.returncode == 0, outputs["orchestrator"]
        stop_all(list(services.values()))
        for name, server in services.items():
            outputs[name] = server.stdout() + server.stderr_path.read_text(encoding="utf-8", errors="replace")
            assert server.proc.returncode == 0, outputs[name]
        results_files = list((log_dir / "results").glob("*.json"))
        assert len(results_files) == 1, results_files
        tasks = json.loads((v1_data_dir / "retail" / "tasks_test.json").read_text(encoding="utf-8"))
        yield TracedRun(
            spans=receiver.spans(),
            metrics=receiver.metric_names(),
            results=json.loads(results_files[0].read_text(encoding="utf-8")),
            outputs=outputs,
            gold={task: [action["name"] for action in tasks[task]["actions"]] for task in TASK_IDS},
        )
    finally:
        for server in services.values():
            server.kill()
        receiver.stop()


def episode_traces(run: TracedRun) -> dict[int, list[ReceivedSpan]]:
    traces = by_trace(run.spans)
    out: dict[int, list[ReceivedSpan]] = {}
    for spans in traces.values():
        roots = [s for s in spans if s.name == "episode"]
        if roots:
            assert len(roots) == 1
            out[int(roots[0].attributes["taumesh.task.id"])] = spans
    return out


def test_one_trace_per_episode_across_five_services(traced_run: TracedRun) -> None:
    episodes = episode_traces(traced_run)
    assert sorted(episodes) == list(TASK_IDS)
    for task, spans in episodes.items():
        assert {s.service for s in spans} == FIVE, f"task {task}"
        root = assert_one_tree(spans)
        assert root.name == "episode"
        assert root.service == "taumesh-orchestrator"
        assert str(root.attributes["taumesh.task.id"]) == str(task)
        assert root.attributes["taumesh.trial"] == 0
        assert root.attributes["taumesh.domain"] == "retail"
        assert root.attributes["taumesh.agent.strategy"] == "oracle"
        assert root.attributes["taumesh.user.strategy"] == "scripted"
        assert root.attributes["taumesh.reward"] == 1.0
        assert root.attributes["taumesh.termination"] == "user_stop"


def test_episode_links_to_the_run_trace(traced_run: TracedRun) -> None:
    runs = [s for s in traced_run.spans if s.name == "taumesh run"]
    assert len(runs) == 1
    run = runs[0]
    assert not run.parent_span_id
    for spans in episode_traces(traced_run).values():
        root = next(s for s in spans if s.name == "episode")
        assert root.trace_id != run.trace_id
        assert root.links == [(run.trace_id, run.span_id)]


def test_one_execute_tool_span_per_tool_call(traced_run: TracedRun) -> None:
    """Exactly one ``execute_tool <name>`` span per call (the orchestrator's), holding the env's ``CallTool``."""
    for task, spans in episode_traces(traced_run).items():
        tools = sorted((s for s in spans if s.name.startswith("execute_tool ")), key=lambda s: s.start_ns)
        assert [s.name for s in tools] == [f"execute_tool {name}" for name in traced_run.gold[task]]
        assert {s.service for s in tools} == {"taumesh-orchestrator"}
        assert [s.attributes["gen_ai.tool.name"] for s in tools] == traced_run.gold[task]
        assert [s.attributes["gen_ai.tool.call.id"] for s in tools] == [f"oracle_{i}" for i in range(len(tools))]
        assert all(s.attributes["taumesh.tool.error"] is False for s in tools)
        assert all(s.attributes["gen_ai.operation.name"] == "execute_tool" for s in tools)
        # the env's server span runs inside the call's span, one each
        env_calls = [s for s in spans if s.service == "taumesh-env" and s.name.endswith("/CallTool")]
        holders = [next(a for a in walk_up(s, spans) if a.name.startswith("execute_tool ")) for s in env_calls]
        assert sorted(h.span_id for h in holders) == sorted(t.span_id for t in tools)


def test_turns_agent_steps_user_and_scoring(traced_run: TracedRun) -> None:
    for task, spans in episode_traces(traced_run).items():
        names = [s.name for s in spans]
        steps = len(traced_run.gold[task]) + 1  # a step per gold action, then the answer to the user
        assert names.count("invoke_agent oracle") == steps
        assert names.count("turn 1") == 1
        assert names.count("simulate_user") == 2  # the opening message and the reply that stops
        assert names.count("score_episode") == 1
        score = next(s for s in spans if s.name == "score_episode")
        assert score.attributes["taumesh.reward"] == 1.0
        agent_servers = [s for s in spans if s.service == "taumesh-agent"]
        assert len(agent_servers) == steps
        assert all(walk_up(s, spans)[0].name == "invoke_agent oracle" for s in agent_servers)
        step = next(s for s in spans if s.name == "invoke_agent oracle")
        assert step.attributes["gen_ai.agent.name"] == "oracle"
        assert step.attributes["server.address"] == "models.example.invalid"
        assert step.attributes["server.port"] == 8443


def test_a_call_its_own_span_stands_for_has_no_client_span(traced_run: TracedRun) -> None:
    """NextMessage, CallTool, StartConversation and Reply: the server span is the child of the taumesh span, which
    carries the call's trace context; calls no taumesh span stands for (OpenSession, ...) keep their client span."""
    wrapper = {
        "NextMessage": "invoke_agent oracle",
        "CallTool": "execute_tool ",
        "StartConversation": "simulate_user",
        "Reply": "simulate_user",
    }
    for spans in episode_traces(traced_run).values():
        index = {s.span_id: s for s in spans}
        grpc_spans = [s for s in spans if s.name.startswith("/taumesh.")]
        clients = {s.name.rsplit("/", 1)[1] for s in grpc_spans if s.kind == 3}
        assert clients & set(wrapper) == set()
        assert {"OpenSession", "GetFinalState", "ScoreEpisode"} <= clients
        assert not [s for s in grpc_spans if s.name.endswith("/CloseSession")]  # GetFinalState closed the session
        servers = [s for s in grpc_spans if s.kind == 2]
        for server in servers:
            parent = index[server.parent_span_id]
            method = server.name.rsplit("/", 1)[1]
            if method in wrapper:
                assert parent.name.startswith(wrapper[method]), (method, parent.name)
            else:
                assert (parent.kind, parent.name) == (3, server.name)
        assert {s.name.rsplit("/", 1)[1] for s in servers} >= set(wrapper)


def test_results_carry_the_episode_trace_id(traced_run: TracedRun) -> None:
    episodes = episode_traces(traced_run)
    assert len(traced_run.results) == len(TASK_IDS)
    for result in traced_run.results:
        trace_id = result["info"]["trace_id"]
        assert len(trace_id) == 32
        assert int(trace_id, 16)
        assert trace_id == episodes[result["task_id"]][0].trace_id


def test_metrics_reach_the_same_receiver(traced_run: TracedRun) -> None:
    names = traced_run.metrics.get("taumesh-orchestrator", set())
    assert {"taumesh.episodes", "taumesh.episode.reward", "taumesh.turn.duration"} <= names


def test_api_key_appears_nowhere(traced_run: TracedRun) -> None:
    assert traced_run.spans
    for span in traced_run.spans:
        blobs = [
            span.name,
            span.status_message,
            json.dumps(span.attributes),
            json.dumps(span.resource),
            json.dumps(span.events),
        ]
        assert not any(SECRET in blob for blob in blobs), (span.service, span.name)
        assert not any("SECRET" in blob for blob in blobs), (span.service, span.name)
    # the resource attribute that held it is still there, masked
    assert {s.resource.get("leaky.note") for s in traced_run.spans} == {"[REDACTED]"}
    assert SECRET not in json.dumps(traced_run.results)
    for name, output in traced_run.outputs.items():
        assert SECRET not in output, name


def test_content_is_recorded_when_opted_in(traced_run: TracedRun) -> None:
    tools = [s for s in traced_run.spans if s.name.startswith("execute_tool ")]
    assert all("gen_ai.tool.call.arguments" in s.attributes for s in tools)
    assert all("gen_ai.tool.call.result" in s.attributes for s in tools)
