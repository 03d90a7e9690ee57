"""Every LLM agent strategy plays whole episodes through the gRPC services and litellm's HTTP path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.llm.access import FEW_SHOT_DIR_ENV
from taumesh.models import ChatMessage, ToolCall
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.services.agent.strategies.text_actions import parse_turn, text_transcript
from tests.helpers.fake_model import FakeOpenAI, Reply, text
from tests.helpers.llm import run_config
from tests.helpers.paths import V1_DATA
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, GoldAgent, Router, ScriptedLlmUser, TaskIndex

TASKS = [0, 10, 19]
"""An exchange, a task ending in transfer_to_human_agents, and one with required outputs."""
FEW_SHOT = V1_DATA / "few_shot_data"  # TAUMESH_SHARED, or shared/ beside the project


def agent_requests(fake: FakeOpenAI) -> list[dict[str, Any]]:
    return [s.request for s in fake.completions(AGENT_MODEL)]


@pytest.mark.parametrize(("strategy", "style"), [("tool-calling", "tools"), ("act", "act"), ("react", "react")])
async def test_strategy_plays_gold_to_reward_one(
    strategy: str, style: Any, fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index, style), ScriptedLlmUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, TASKS, agent=strategy))
    assert not summary.errors
    assert {r.task_id: r.reward for r in summary.results} == dict.fromkeys(TASKS, 1.0)
    ended = {r.task_id: r.info["termination"] for r in summary.results}
    assert ended == {0: "user_stop", 10: "terminate_tool", 19: "user_stop"}

    requests = agent_requests(fake)
    policy = requests[0]["messages"][0]["content"]
    assert requests[0]["messages"][0]["role"] == "system"
    if strategy == "tool-calling":  # native tools; results come back as tool messages
        assert "get_order_details" in {t["function"]["name"] for t in requests[0]["tools"]}
        assert any(m["role"] == "tool" for r in requests for m in r["messages"])
    else:  # tools and the action format are described in the system prompt
        assert "tools" not in requests[0]
        assert "#Available tools" in policy and "get_order_details" in policy and "# Instruction" in policy
        # stateless rebuild: earlier actions are shown back as text, tool results as "API output:" user turns
        last = max(requests, key=lambda r: len(r["messages"]))["messages"]
        assert all(m["role"] in ("system", "user", "assistant") for m in last)
        assert any(m["role"] == "user" and m["content"].startswith("API output: ") for m in last)
        assistant = [m["content"] for m in last if m["role"] == "assistant"]
        assert all(a.startswith("Thought:\n" if strategy == "react" else "Action:\n") for a in assistant)
    result = next(r for r in summary.results if r.task_id == 19)
    said = [m["content"] for m in result.traj if m["role"] == "assistant" and not m.get("tool_calls")]
    assert said == ["54.04 41.64"]  # the required outputs reached the user (and the scorer)
    if strategy == "react":  # the thought stays private: never shown to the user simulator
        user_prompts = [json.dumps(s.request) for s in fake.completions(USER_MODEL)]
        assert not any("Step 1 of the plan" in p for p in user_prompts)


async def test_react_thought_is_kept_in_reasoning_and_shown_back(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index, "react"), ScriptedLlmUser(task_index)))
    await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], agent="react"))
    last = agent_requests(fake)[-1]["messages"]
    assistant = [m["content"] for m in last if m["role"] == "assistant"]
    assert assistant[0].startswith("Thought:\nStep 1 of the plan.\nAction:\n{")


async def test_few_shot_puts_seeded_examples_in_the_prompt(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FEW_SHOT_DIR_ENV, str(FEW_SHOT))
    path = FEW_SHOT / "MockRetailDomainEnv-few_shot.jsonl"
    displays = [json.loads(line)["messages_display"] for line in path.read_text().splitlines() if line.strip()]
    fake.reset(Router(GoldAgent(task_index, "tools"), ScriptedLlmUser(task_index)))
    summary = await run_benchmark(
        run_config(fake, v1_data_dir, tmp_path, [0, 19], agent="few-shot", few_shot=str(path))
    )
    assert [r.reward for r in summary.results] == [1.0, 1.0]
    prompts: dict[int, set[str]] = {}
    for request in agent_requests(fake):
        task = task_index.of_agent_request(request)
        prompts.setdefault(task, set()).add(request["messages"][0]["content"])
    assert all(len(p) == 1 for p in prompts.values())  # the same examples on every call of an episode
    for task, (system,) in prompts.items():
        assert len([d for d in displays if d in system]) == 5, task
    assert "tools" in agent_requests(fake)[0]  # still native tool calling
    # a rerun with the same seed draws the same examples
    first = {t: next(iter(p)) for t, p in prompts.items()}
    fake.reset(Router(GoldAgent(task_index, "tools"), ScriptedLlmUser(task_index)))
    await run_benchmark(run_config(fake, v1_data_dir, tmp_path / "again", [0], agent="few-shot", few_shot=str(path)))
    assert agent_requests(fake)[0]["messages"][0]["content"] == first[0]


async def test_few_shot_without_its_file_is_invalid_argument(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FEW_SHOT_DIR_ENV, str(tmp_path))
    fake.reset(Router(GoldAgent(task_index, "tools"), ScriptedLlmUser(task_index)))
    missing = tmp_path / "nope.jsonl"
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], agent="few-shot", few_shot=str(missing)))
    [result] = summary.results
    assert result.reward is None
    cause = result.info["error"]["cause"]
    assert cause.startswith("INVALID_ARGUMENT") and "nope.jsonl" in cause and "not found" in cause
    assert result.info["error"]["attempts"] == 1  # a refused request is not retried
    assert not agent_requests(fake)


async def test_unparseable_act_output_goes_to_the_user_as_text(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    garbled = "I will now look up your order, one moment please."

    def agent(request: dict[str, Any]) -> Reply:
        return text(garbled)

    fake.reset(Router(agent, ScriptedLlmUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], agent="act"))
    [result] = summary.results
    assert result.reward == 0.0 and result.info["termination"] == "user_stop"  # an agent failure, scored
    assert [m["content"] for m in result.traj if m["role"] == "assistant"] == [garbled]


def test_parse_turn_variants() -> None:
    parsed = parse_turn('Thought:\nLook it up.\nAction:\n{"name": "get_user_details", "arguments": {"user_id": "u"}}')
    assert parsed.thought == "Look it up." and parsed.action == {
        "name": "get_user_details",
        "arguments": {"user_id": "u"},
    }
    fenced = parse_turn('Action:\n```json\n{"name": "respond", "arguments": {"content": "Hi"}}\n```')
    assert fenced.action == {"name": "respond", "arguments": {"content": "Hi"}}
    assert parse_turn("Action: not json").action is None
    assert parse_turn("Action: not json").action_text == "not json"
    assert parse_turn('Action: {"arguments": {}}').action is None  # no name


def test_text_transcript_rebuilds_the_conversation() -> None:
    conversation = [
        ChatMessage(role="user", content="I want to return an item."),
        ChatMessage(
            role="assistant",
            reasoning="Need the user.",
            tool_calls=[ToolCall(id="call_0", name="find", arguments='{"a": 1}')],
        ),
        ChatMessage(role="tool", content='{"id": 5}', tool_call_id="call_0", name="find"),
        ChatMessage(role="assistant", content="Which order?", reasoning="Ask."),
        ChatMessage(role="user", content="#W1"),
    ]
    react = text_transcript(conversation, react=True)
    assert react == [
        {"role": "user", "content": "I want to return an item."},
        {"role": "assistant", "content": 'Thought:\nNeed the user.\nAction:\n{"name": "find", "arguments": {"a": 1}}'},
        {"role": "user", "content": 'API output: {"id": 5}'},
        {
            "role": "assistant",
            "content": 'Thought:\nAsk.\nAction:\n{"name": "respond", "arguments": {"content": "Which order?"}}',
        },
        {"role": "user", "content": "#W1"},
    ]
    act = text_transcript(conversation, react=False)
    assert act[1]["content"] == 'Action:\n{"name": "find", "arguments": {"a": 1}}'


async def test_missing_model_is_refused(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    config = run_config(fake, v1_data_dir, tmp_path, [0], agent="react")
    config.agent.model.model = ""
    fake.reset(Router(GoldAgent(task_index, "react"), ScriptedLlmUser(task_index)))
    summary = await run_benchmark(config)
    [result] = summary.results
    assert result.reward is None
    assert result.info["error"]["cause"] == "INVALID_ARGUMENT: agent strategy 'react' needs a model (--model)"


async def test_tool_calling_runs_only_the_first_call_of_a_turn(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    """As τ-bench: one action per step; a second parallel call is dropped and the model sees one call answered."""
    gold = GoldAgent(task_index)
    first, second = task_index.tasks[0].actions[:2]

    def agent(request: dict[str, Any]) -> Reply:
        if not any(m["role"] == "tool" for m in request["messages"]):
            return Reply(tool_calls=[(first.name, first.kwargs), (second.name, second.kwargs)])
        return gold(request)

    fake.reset(Router(agent, ScriptedLlmUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0]))
    [result] = summary.results
    assert result.reward == 1.0
    calls = [m["tool_calls"] for m in result.traj if m.get("tool_calls")]
    assert [len(c) for c in calls] == [1] * len(task_index.tasks[0].actions)
    assert calls[0][0]["function"]["name"] == first.name
