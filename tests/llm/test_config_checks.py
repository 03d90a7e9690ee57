"""Model configuration mistakes fail up front, in one line, with a non-zero exit; missing keys are never retried."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import episode_to_proto, message_to_proto, model_to_proto
from taumesh.domains import Catalog
from taumesh.llm import ModelRequestError, complete
from taumesh.llm.access import ALLOWED_API_BASES_ENV
from taumesh.models import ChatMessage, EpisodeContext, ModelSettings, TaskRef
from taumesh.rpc.errors import error_reason
from taumesh.rpc.server import start_server
from taumesh.services.agent import agent_service
from tests.helpers.cli import invoke
from tests.helpers.fake_model import FakeOpenAI, Reply
from tests.helpers.paths import V1_DATA
from tests.llm.scripts import AGENT_MODEL

TASK_0 = ("run", "--env", "retail", "--task-split", "test", "--task-ids", "0", "--data-dir", str(V1_DATA), "--quiet")


def no_results(log_dir: Path) -> bool:
    return not log_dir.exists() or not any(log_dir.iterdir())


def error_lines(output: str) -> list[str]:
    """The pre-flight's lines: one per problem (it reports every problem it finds), each an ``error:`` line."""
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines and all(line.startswith("error: ") for line in lines), output
    return lines


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("--agent-strategy", "tool-calling", "--model", "gpt-4o", "--model-provider", "opnai"),
            "--model-provider 'opnai' is not a litellm provider",
        ),
        (
            ("--agent-strategy", "oracle", "--user-strategy", "llm", "--user-model-provider", "nope"),
            "--user-model-provider 'nope' is not a litellm provider",
        ),
        (
            ("--agent-strategy", "few-shot", "--model", "gpt-4o", "--model-provider", "openai"),
            "--agent-strategy few-shot needs --few-shot-displays-path",
        ),
        (
            ("--agent-strategy", "few-shot", "--model", "gpt-4o", "--few-shot-displays-path", "/no/such/file.jsonl"),
            "--few-shot-displays-path /no/such/file.jsonl: no such file",
        ),
        (
            ("--agent-strategy", "tool-calling", "--model", "gpt-4o", "--user-strategy", "scripted"),
            "--model 'gpt-4o' needs OPENAI_API_KEY in the environment, and it is not set",
        ),
        (
            ("--agent-strategy", "oracle", "--user-strategy", "llm", "--user-model", "gpt-4o"),
            "--user-model 'gpt-4o' needs OPENAI_API_KEY in the environment, and it is not set",
        ),
    ],
    ids=["agent-provider", "user-provider", "few-shot-no-file", "few-shot-missing-file", "agent-key", "user-key"],
)
def test_run_refuses_a_bad_model_configuration_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], expected: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-taumesh-test-not-a-real-key")
    if "needs OPENAI_API_KEY" in expected:
        monkeypatch.delenv("OPENAI_API_KEY")
    result = invoke(*TASK_0, *args, "--log-dir", tmp_path / "logs")
    assert result.exit_code == 2
    assert any(expected in line for line in error_lines(result.stderr)), result.stderr
    assert no_results(tmp_path / "logs")


def test_credentials_of_a_remote_service_are_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --agent-addr the agent's model runs elsewhere: this machine's keys are not checked."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("TAUMESH_CONNECT_TIMEOUT", "1")  # nothing answers there: refused after a second
    result = invoke(
        *TASK_0, "--agent-strategy", "tool-calling", "--model", "gpt-4o", "--user-strategy", "scripted",
        "--agent-addr", "127.0.0.1:9", "--log-dir", tmp_path / "logs", "--max-steps", "1",
    )  # fmt: skip
    assert "OPENAI_API_KEY" not in result.stderr


async def test_missing_credentials_are_a_refusal_not_retried(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    remote = "http://models.example.invalid/v1"  # not this machine's: a local server needs no key
    monkeypatch.setenv(ALLOWED_API_BASES_ENV, remote)
    settings = ModelSettings(model=AGENT_MODEL, provider="openai", api_base=remote)
    with pytest.raises(ModelRequestError) as raised:
        await complete(settings, [{"role": "user", "content": "hi"}])
    assert raised.value.attempts == 1
    assert "OPENAI_API_KEY" in raised.value.cause
    assert fake.served == []

    running = await start_server([agent_service(Catalog(V1_DATA))])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            request = agent_pb2.NextMessageRequest(
                config=agent_pb2.AgentConfig(strategy="tool-calling", model=model_to_proto(settings)),
                episode=episode_to_proto(EpisodeContext(task=TaskRef(domain="retail", split="test", task_id="0"))),
                policy="Help.",
                conversation=[message_to_proto(ChatMessage(role="user", content="hi"))],
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await agent_pb2_grpc.AgentServiceStub(channel).NextMessage(request)
    finally:
        await running.stop(grace=0.5)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # not UNAVAILABLE: the orchestrator won't retry
    assert error_reason(refused.value) == "MODEL_CREDENTIALS_MISSING"


def test_a_run_that_scored_no_episode_exits_non_zero(fake: FakeOpenAI, tmp_path: Path) -> None:
    fake.reset(Reply(status=400, error_message="model not found"))  # refused: never scored
    result = invoke(
        *TASK_0, "--agent-strategy", "tool-calling", "--model", AGENT_MODEL, "--model-provider", "openai",
        "--api-base", fake.url, "--user-strategy", "scripted", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "no episode was scored: all 1 ended in errors" in result.stderr
