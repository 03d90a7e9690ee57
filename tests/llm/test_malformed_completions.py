"""Empty or malformed completions, from any role, as real servers send them (issue 47, item 6).

A completion with no text and no tool call, no choices at all, or ``finish_reason: length`` with nothing written,
and llama.cpp's 500 for output it could not parse: each is retried under the retry policy, then recorded as an
infrastructure error (reward null), never scored, for the user simulator and the judge alike. For the agent the
server's unparseable output and a tool call written as fenced JSON in the text are the agent's malformed call:
the episode ends (``agent_gave_up``), scored. Everything goes through litellm over HTTP to a server on 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tenacity import wait_fixed

from taumesh.orchestrator import clients
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.run import runner
from tests.helpers.cli import invoke
from tests.helpers.fake_model import FakeOpenAI, Reply
from tests.helpers.llm import run_config
from tests.helpers.paths import SHARED
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, GoldAgent, Router, ScriptedLlmUser, TaskIndex

UNPARSEABLE = "The model produced output that does not match the expected peg-native format"
"""llama.cpp's server's words (a 500) when the model's output is no reply or tool call it can parse."""
FAULTS: dict[str, Reply] = {
    "empty": Reply(content="", completion_tokens=0),
    "no choices": Reply(no_choices=True),
    "length, nothing written": Reply(content="", finish_reason="length", completion_tokens=64),
    "unparseable output": Reply(status=500, error_message=UNPARSEABLE),
}
FENCED_CALL = Reply(
    content='```json\n{"name": "find_user_id_by_email", "arguments": {"email": "a@b.c"}}\n```', completion_tokens=20
)
ATTEMPTS = 2


@pytest.fixture(autouse=True)
def quick_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "EPISODE_RETRY_WAIT", wait_fixed(0.05))  # an errored episode is replayed at once
    # the scorer's UNAVAILABLE (its judge failed) is retried by the orchestrator's RPC backoff (0.2 s doubling, with
    # jitter): ~7 s of waiting per judge test; the tries stay, only their waits go (the default binds this object)
    monkeypatch.setattr(clients.RPC_RETRY_WAIT, "multiplier", 0.01)
    monkeypatch.setattr(clients.RPC_RETRY_WAIT, "jitter", 0.0)
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", str(ATTEMPTS))
    monkeypatch.setenv("TAUMESH_LLM_BACKOFF_INITIAL", "0")


async def play_task_0(fake: FakeOpenAI, index: TaskIndex, data: Path, log_dir: Path, role: str, reply: Reply) -> Any:
    """Retail test task 0 with the gold agent and the scripted llm user, ``role``'s model always answering ``reply``."""
    gold = Router(GoldAgent(index), ScriptedLlmUser(index))

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        model = AGENT_MODEL if role == "agent" else USER_MODEL
        return reply if request["model"] == model else gold(request, ordinal)

    fake.reset(script)
    config = run_config(fake, data, log_dir, [0])
    config.max_episode_attempts = 1
    summary = await run_benchmark(config)
    (result,) = summary.results
    return result


@pytest.mark.parametrize("role", ["agent", "user"])
@pytest.mark.parametrize("fault", [f for f in FAULTS if f != "unparseable output"])
async def test_an_empty_completion_is_retried_then_an_infrastructure_error(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, role: str, fault: str
) -> None:
    result = await play_task_0(fake, task_index, v1_data_dir, tmp_path, role, FAULTS[fault])
    assert result.reward is None and result.traj == []
    error = result.info["error"]
    assert error["kind"] == "infrastructure"
    assert "model unavailable" in error["cause"] and "EmptyReply" in error["cause"], error["cause"]
    model = AGENT_MODEL if role == "agent" else USER_MODEL
    faulty = [s for s in fake.served if s.request["model"] == model]
    assert len(faulty) >= ATTEMPTS and len(faulty) % ATTEMPTS == 0  # each call tried under the policy


async def test_the_users_unparseable_output_is_an_infrastructure_error(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    result = await play_task_0(fake, task_index, v1_data_dir, tmp_path, "user", FAULTS["unparseable output"])
    assert result.reward is None
    assert result.info["error"]["kind"] == "infrastructure"
    assert "model output unreadable" in result.info["error"]["cause"]


async def test_the_agents_unparseable_output_is_its_malformed_call_scored(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    result = await play_task_0(fake, task_index, v1_data_dir, tmp_path, "agent", FAULTS["unparseable output"])
    assert "error" not in result.info
    assert result.reward == 0.0
    assert result.info["termination"] == "agent_gave_up"
    assert "malformed tool call" in result.info["agent_gave_up"]
    assert len([s for s in fake.served if s.request["model"] == AGENT_MODEL]) == ATTEMPTS  # retried, then the agent's


async def test_a_tool_call_in_fenced_json_is_the_agents_malformed_call(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    result = await play_task_0(fake, task_index, v1_data_dir, tmp_path, "agent", FENCED_CALL)
    assert "error" not in result.info
    assert result.reward == 0.0
    assert result.info["termination"] == "agent_gave_up"
    assert "a tool call written as text" in result.info["agent_gave_up"]
    assert len([s for s in fake.served if s.request["model"] == AGENT_MODEL]) == 1  # the same prompt writes it again
    told_user = [m for m in result.traj if m.get("role") == "assistant" and "find_user_id_by_email" in str(m)]
    assert told_user == []  # never sent to the user as a message


@pytest.mark.parametrize("fault", list(FAULTS))
def test_the_judges_empty_or_unparseable_answer_is_an_error_never_a_verdict(
    fake: FakeOpenAI, tau2_data: Path, tmp_path: Path, fault: str
) -> None:
    head_data = SHARED / "tau2" / "head_data"
    if not head_data.is_dir():
        pytest.skip(f"HEAD data not found at {head_data}")
    fake.reset(FAULTS[fault])
    result = invoke(
        "run", "--env", "tau2-retail", "--data-dir", head_data, "--task-ids", "36", "--agent-strategy", "oracle",
        "--user-strategy", "scripted", "--log-dir", tmp_path, "--judge-model", "openai/x",
        "--judge-api-base", fake.url,
    )  # fmt: skip
    (scored,) = [p for p in tmp_path.glob("*.json") if not p.name.endswith(".errors.json")]
    assert json.loads(scored.read_text()) == [], result.output  # no verdict: nothing scored
    (errors,) = tmp_path.glob("*.errors.json")
    (entry,) = json.loads(errors.read_text())
    assert entry["reward"] is None
    assert entry["info"]["error"]["kind"] == "infrastructure"
    assert "judge" in entry["info"]["error"]["cause"]
    assert len(fake.served) >= ATTEMPTS
