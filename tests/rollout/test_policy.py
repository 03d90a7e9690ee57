"""``policy=fn``: the caller's own function as the agent, served as a real AgentService on loopback for the run.

Episodes play through the embedded services with the scripted user on hospitality (a τ++ factory domain).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.domains import Task, load_domain
from taumesh.rollout import PolicyRequest, agroup_rollouts, group_rollouts, seed_for, stream_rollouts
from taumesh.rollout.policy import PolicyAgent, policy_service
from taumesh.rpc.server import start_server

ENV, SPLIT = "hospitality", "base"
SCRIPTED: dict[str, Any] = {"env": ENV, "task_split": SPLIT, "user_strategy": "scripted"}
TASKS = {task.id: task for task in load_domain(ENV, Path()).tasks(SPLIT)}
IDS = list(TASKS)[:8:4]  # two tasks of different customers


def gold_answer(task: Task, request: PolicyRequest) -> dict[str, Any]:
    """The task's next gold action as an OpenAI tool call (no id: the service assigns one), then its outputs."""
    done = sum(message["role"] == "tool" for message in request.messages)
    actions = task.agent_actions()
    if done < len(actions):
        call = {"type": "function", "function": {"name": actions[done].name, "arguments": actions[done].kwargs}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "assistant", "content": " ".join(task.outputs) or "Done. Anything else?"}


async def test_a_group_played_by_a_policy_emitting_the_gold_actions_scores_one() -> None:
    seen: list[PolicyRequest] = []

    async def policy(request: PolicyRequest) -> dict[str, Any]:
        seen.append(request)
        return gold_answer(TASKS[request.task_id], request)

    episodes = await agroup_rollouts(**SCRIPTED, task_ids=IDS, trials=2, seed=5, policy=policy)
    assert [(e.task_id, e.trial) for e in episodes] == [(t, n) for t in IDS for n in range(2)]
    assert all(e.error is None and e.reward == 1.0 and e.reward_vector for e in episodes)
    assert all(check.passed for e in episodes for check in e.reward_vector)
    assert episodes[0].info["agent"]["name"] == "taumesh-policy"
    # what the policy saw: the episode, its seed, the policy text and the tools in OpenAI form
    assert {(r.task_id, r.trial, r.seed) for r in seen} == {(t, n, seed_for(5, t, n)) for t in IDS for n in range(2)}
    first = seen[0]
    assert first.domain == ENV and first.task_split == SPLIT and first.policy and first.episode_id
    assert first.messages[0]["role"] == "user" and first.chat()[0] == {"role": "system", "content": first.policy}
    assert {tool["type"] for tool in first.tools} == {"function"} and first.tools[0]["function"]["name"]
    called = [m for m in episodes[0].trajectory if m.get("tool_calls")]
    assert called and all(call["id"].startswith("call_") for m in called for call in m["tool_calls"])


def test_a_raising_policy_is_the_agents_failure_scored_never_an_infrastructure_error(tmp_path: Path) -> None:
    calls = 0

    def policy(request: PolicyRequest) -> dict[str, Any]:  # a plain function: run in a worker thread
        nonlocal calls
        calls += 1
        if request.trial == 0:
            raise RuntimeError("the policy broke")
        return {"role": "assistant", "tool_calls": 42}  # not a message either

    (broke, unreadable) = group_rollouts(**SCRIPTED, task_ids=IDS[:1], trials=2, seed=1, policy=policy)
    assert calls == 2, "each failure ends its episode at once: never retried as an infrastructure fault"
    for episode in (broke, unreadable):
        assert episode.error is None and episode.reward == 0.0
        assert episode.info["termination"] == "agent_gave_up"
    assert broke.info["agent_gave_up"] == "the policy raised RuntimeError: the policy broke"
    assert unreadable.info["agent_gave_up"].startswith("the policy's answer is not a message")


async def test_at_most_max_concurrency_policy_calls_are_in_flight() -> None:
    in_flight = peak = 0

    async def slow(request: PolicyRequest) -> str:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.05)
        in_flight -= 1
        return "Thank you."

    server = await start_server([policy_service(PolicyAgent(slow, max_concurrency=2))])
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = agent_pb2_grpc.AgentServiceStub(channel)
            answers = await asyncio.gather(*(stub.NextMessage(agent_pb2.NextMessageRequest()) for _ in range(6)))
    finally:
        await server.stop(grace=1.0)
    assert [answer.message.content for answer in answers] == ["Thank you."] * 6
    assert peak == 2, "six calls at once, two policy calls at a time"

    in_flight = peak = 0  # and through a run: bounded by the run's max_concurrency
    episodes = [e async for e in stream_rollouts(**SCRIPTED, task_ids=IDS, trials=3, max_concurrency=3, policy=slow)]
    assert len(episodes) == 6 and peak == 3


@pytest.mark.parametrize(
    ("given", "named"),
    [({"agent_strategy": "oracle"}, "agent_strategy"), ({"agent_addr": "127.0.0.1:1"}, "agent_addr"),
     ({"model": "openai/gpt-4o"}, "model")],
)  # fmt: skip
async def test_a_policy_beside_another_agent_is_refused_before_anything_runs(given: dict[str, Any], named: str) -> None:
    def policy(request: PolicyRequest) -> str:
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=f"policy= and {named}"):
        await agroup_rollouts(**SCRIPTED, task_ids=IDS, policy=policy, **given)
    with pytest.raises(ValueError, match=f"policy= and {named}"):
        async for _ in stream_rollouts(**SCRIPTED, task_ids=IDS, policy=policy, **given):
            pytest.fail("no episode can be played")
