"""Served agent, user-sim and scorer call only the model endpoints and few-shot files their operator allowed.

Three real ``taumesh serve`` processes hold an API key. Two OpenAI-compatible listeners on loopback record every
request with its headers: the operator allowed one of them (``TAUMESH_ALLOWED_API_BASES``), a caller names the
other, which the operator allowed as an A2A agent only (``TAUMESH_ALLOWED_AGENT_URLS``). The caller's listener
receives nothing and the caller gets a clear PERMISSION_DENIED; the same request naming the allowed listener is
served, the key going only there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import episode_to_proto, message_to_proto, model_to_proto, task_ref_to_proto
from taumesh.llm.access import ALLOWED_AGENT_URLS_ENV, ALLOWED_API_BASES_ENV, FEW_SHOT_DIR_ENV
from taumesh.models import ChatMessage, EpisodeContext, ModelSettings, TaskRef
from taumesh.rpc.errors import error_reason
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc
from tests.helpers.cli import taumesh_executable
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server

SECRET = "sk-taumesh-operator-key-0123456789"
"""The served processes' API key: it must reach the allowed listener only."""
VERDICT = json.dumps({"author": "agent", "fault_type": "wrong_tool", "description": "It looked up the wrong order."})
"""What both listeners answer: a readable fault verdict, and plain text for an agent or a user."""
TASK = TaskRef(domain="retail", split="test", task_id="0")
EXAMPLE = "user: I want to return my shoes.\nassistant: Could you give me your order id?"
"""The one example of the operator's few-shot file."""


@dataclass
class Stack:
    agent: agent_pb2_grpc.AgentServiceStub
    user: user_sim_pb2_grpc.UserSimServiceStub
    scorer: scorer_pb2_grpc.ScorerServiceStub
    health: dict[str, health_pb2_grpc.HealthStub]
    allowed: FakeOpenAI
    trap: FakeOpenAI
    few_shot_dir: Path


pytestmark = pytest.mark.slow  # every test needs the stack of service processes (~3.5 s), each service's first
# model call imports the LLM client (~4 s)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    few_shot_dir = tmp_path_factory.mktemp("operator-few-shot")
    (few_shot_dir / "retail.jsonl").write_text(json.dumps({"messages_display": EXAMPLE}) + "\n", encoding="utf-8")
    logs = tmp_path_factory.mktemp("logs")
    with FakeOpenAI(text(VERDICT)) as allowed, FakeOpenAI(text(VERDICT)) as trap:
        env = {
            "OPENAI_API_KEY": SECRET,
            ALLOWED_API_BASES_ENV: f"https://models.example.invalid/v1, {allowed.url}/",  # a list; a trailing /
            ALLOWED_AGENT_URLS_ENV: trap.url,  # allowed as an agent only: never given the key
            FEW_SHOT_DIR_ENV: str(few_shot_dir),
            "TAUMESH_LLM_MAX_ATTEMPTS": "1",
        }
        servers: dict[str, Server] = {}
        channels: list[grpc.Channel] = []
        try:
            for name in ("agent", "user-sim", "scorer"):
                argv = [taumesh_executable(), "serve", name, "--host", "127.0.0.1", "--port", "0"]
                servers[name] = Server.spawn([*argv, "--data-dir", str(V1_DATA)], logs / f"{name}.log", env)
            for server in servers.values():
                server.wait_ready(r"serving \S+ on (?P<address>127\.0\.0\.1:\d+)")
                channels.append(grpc.insecure_channel(server.address))
            agent, user, scorer = channels
            yield Stack(
                agent=agent_pb2_grpc.AgentServiceStub(agent),
                user=user_sim_pb2_grpc.UserSimServiceStub(user),
                scorer=scorer_pb2_grpc.ScorerServiceStub(scorer),
                health={name: health_pb2_grpc.HealthStub(c) for name, c in zip(servers, channels, strict=True)},
                allowed=allowed,
                trap=trap,
                few_shot_dir=few_shot_dir,
            )
        finally:
            for channel in channels:
                channel.close()
            for server in servers.values():
                server.kill()


def model(api_base: str) -> ModelSettings:
    return ModelSettings(model="gpt-4o", provider="openai", api_base=api_base)


def ask_agent(stack: Stack, api_base: str, strategy: str = "tool-calling", few_shot: str = "") -> str:
    request = agent_pb2.NextMessageRequest(
        config=agent_pb2.AgentConfig(
            strategy=strategy, model=model_to_proto(model(api_base)), few_shot_displays_path=few_shot
        ),
        episode=episode_to_proto(EpisodeContext(task=TASK)),
        policy="Help the customer.",
        conversation=[message_to_proto(ChatMessage(role="user", content="Hi, I want to return my shoes."))],
    )
    return stack.agent.NextMessage(request, timeout=60).message.content


def ask_user(stack: Stack, api_base: str, strategy: str = "llm-taumesh") -> str:
    request = user_sim_pb2.StartConversationRequest(
        config=user_sim_pb2.UserConfig(strategy=strategy, model=model_to_proto(model(api_base))),
        instruction="You want to return your shoes.",
    )
    return stack.user.StartConversation(request, timeout=60).message.content


def ask_scorer(stack: Stack, api_base: str) -> str:
    episode = scorer_pb2.FailedEpisode(
        task_id="0",
        trial=0,
        task=task_ref_to_proto(TASK),
        trajectory=[message_to_proto(ChatMessage(role="user", content="Hi, I want to return my shoes."))],
    )
    request = scorer_pb2.AnalyzeFaultsRequest(model=model_to_proto(model(api_base)), episodes=[episode])
    [report] = stack.scorer.AnalyzeFaults(request, timeout=60).reports
    return report.description


ASKS: dict[str, Callable[[Stack, str], str]] = {"agent": ask_agent, "user-sim": ask_user, "scorer": ask_scorer}


def refused(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    error = raised.value
    assert isinstance(error, grpc.Call)
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED, error.details()
    return error


def headers_seen(server: FakeOpenAI) -> list[dict[str, str]]:
    return [{k.lower(): v for k, v in served.headers.items()} for served in server.served]


@pytest.mark.parametrize("service", list(ASKS))
def test_a_caller_chosen_endpoint_receives_nothing_and_an_allowed_one_works(stack: Stack, service: str) -> None:
    ask = ASKS[service]
    stack.trap.reset()
    stack.allowed.reset()

    error = refused(lambda: ask(stack, stack.trap.url))
    assert error_reason(error) == "API_BASE_NOT_ALLOWED"
    assert isinstance(error, grpc.Call)
    assert stack.trap.url in error.details() and ALLOWED_API_BASES_ENV in error.details()
    assert stack.trap.served == [], "the caller's listener was contacted"
    assert stack.allowed.served == []

    answer = ask(stack, stack.allowed.url)  # the same request, naming the endpoint the operator allowed
    assert answer in (VERDICT, "It looked up the wrong order.")
    assert [h.get("authorization") for h in headers_seen(stack.allowed)] == [f"Bearer {SECRET}"]
    assert stack.trap.served == []


def test_the_provider_default_endpoint_needs_no_allowance(stack: Stack) -> None:
    """An empty api_base is the provider's own endpoint: allowed (here it fails later, offline, as UNAVAILABLE)."""
    with pytest.raises(grpc.RpcError) as raised:
        ask_user(stack, "")
    error = raised.value
    assert isinstance(error, grpc.Call)
    assert error.code() != grpc.StatusCode.PERMISSION_DENIED, error.details()


def test_few_shot_files_outside_the_operator_directory_are_refused_alike(stack: Stack, tmp_path: Path) -> None:
    outside = tmp_path / "displays.jsonl"
    outside.write_text(json.dumps({"messages_display": "x"}) + "\n", encoding="utf-8")
    escaping_link = stack.few_shot_dir / "link.jsonl"
    if not escaping_link.exists():
        escaping_link.symlink_to(outside)
    stack.allowed.reset()
    candidates = {
        "existing": str(outside),
        "missing": str(tmp_path / "missing.jsonl"),
        "a system file": "/etc/hostname",
        "dot-dot out of the directory": str(stack.few_shot_dir / ".." / outside.name),
        "a link out of the directory": str(escaping_link),
        "a NUL byte": f"{stack.few_shot_dir}/a\x00b",
    }
    answers = set()
    for path in candidates.values():
        error = refused(lambda path=path: ask_agent(stack, stack.allowed.url, "few-shot", path))  # type: ignore[misc]
        assert isinstance(error, grpc.Call)
        assert error_reason(error) == "FEW_SHOT_PATH_NOT_ALLOWED"
        answers.add(re.sub(r"'[^']*'", "PATH", error.details()))
    assert len(answers) == 1, f"the answer depends on the file: {answers}"  # no existence oracle
    assert stack.allowed.served == []

    answer = ask_agent(stack, stack.allowed.url, "few-shot", str(stack.few_shot_dir / "retail.jsonl"))
    assert answer == VERDICT
    [request] = stack.allowed.requests
    assert EXAMPLE in request["messages"][0]["content"]


def test_a_served_user_sim_refuses_the_human_strategy(stack: Stack) -> None:
    error = refused(lambda: ask_user(stack, "", "human"))
    assert error_reason(error) == "STRATEGY_NOT_SERVED"
    assert isinstance(error, grpc.Call)
    assert "taumesh run" in error.details()
    for name, health in stack.health.items():
        status = health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING, name
