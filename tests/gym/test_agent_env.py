"""The caller plays the agent: gold actions score 1.0, a random agent's episode ends and is scored.

With ``provider_limits`` the simulated user's model calls take permits, as in ``taumesh run``: the fake OpenAI
server answers each call's first attempt with a 429, which the user-sim service hands back at once, and the
environment's limiter waits out the Retry-After and makes the call again.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from taumesh.domains import Task
from taumesh.orchestrator.gym import AGENT_ENV_ID, AgentEnv
from tests.helpers.fake_model import FakeOpenAI, rate_limited
from tests.helpers.gym import EnvServerThread
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, ScriptedLlmUser, TaskIndex


def messages(observation: str) -> list[dict[str, Any]]:
    parsed = json.loads(observation)
    assert set(parsed) == {"messages"}
    return list(parsed["messages"])


def play_gold(env: gym.Env[str, str], task: Task) -> tuple[float, bool, bool, dict[str, Any]]:
    """The task's gold actions as JSON tool calls, then the required outputs in words."""
    for step, action in enumerate(task.agent_actions(), 1):
        observation, reward, terminated, truncated, info = env.step(
            json.dumps({"name": action.name, "arguments": action.kwargs})
        )
        assert (reward, terminated, truncated, info["step"]) == (0.0, False, False, step)
        last = messages(observation)[-1]
        assert last["role"] == "tool" and last["name"] == action.name
    observation, reward, terminated, truncated, info = env.step(" ".join(task.outputs) or "Done. Anything else?")
    assert messages(observation)[-1] == {"role": "user", "content": "###STOP###"}
    return float(reward), terminated, truncated, info


@pytest.mark.parametrize("task_id", [0, 1, 5])
def test_gold_actions_played_as_actions_score_one(
    task_id: int, retail: dict[str, Any], retail_tasks: list[Task]
) -> None:
    task = retail_tasks[task_id]
    env = gym.make(AGENT_ENV_ID, **retail)
    try:
        observation, info = env.reset(options={"task_id": str(task_id)})
        assert messages(observation) == [{"role": "user", "content": task.instruction}]
        assert "# Retail agent policy" in info["policy"]
        assert any(tool["function"]["name"] == "find_user_id_by_name_zip" for tool in info["tools"])
        reward, terminated, truncated, info = play_gold(env, task)
    finally:
        env.close()
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["termination"] == "user_stop" and info["reward_info"]["reward"] == 1.0
    assert all(check["passed"] for check in info["checks"])


def test_a_random_agent_episode_terminates_and_is_scored(retail: dict[str, Any]) -> None:
    env = gym.make(AGENT_ENV_ID, **retail)
    rng = np.random.default_rng(7)
    try:
        _, info = env.reset(seed=7)
        tools = [tool["function"]["name"] for tool in info["tools"]]
        env.action_space.seed(7)
        for _ in range(40):  # a random tool (without arguments) or random text, until the episode ends
            if rng.random() < 0.7:
                action = json.dumps({"name": tools[int(rng.integers(len(tools)))], "arguments": {}})
            else:
                action = env.action_space.sample()
            observation, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        else:
            pytest.fail("the episode never ended")
    finally:
        env.close()
    assert isinstance(reward, float) and terminated and not truncated and info["termination"] == "user_stop"
    assert info["reward_info"]["reward"] == reward == 0.0  # the scorer's verdict, with its checks
    assert info["checks"] and not all(check["passed"] for check in info["checks"])
    assert any(m["role"] == "tool" and "Error" in m["content"] for m in messages(observation))  # tools answered


def test_the_step_limit_truncates_and_the_episode_is_still_scored(retail: dict[str, Any]) -> None:
    env = AgentEnv(**retail, max_steps=2)
    try:
        env.reset(options={"task_id": "0"})
        call = 'find_user_id_by_name_zip(first_name="Yusuf", last_name="Rossi", zip="19122")'  # τ²'s functional form
        observation, reward, terminated, truncated, info = env.step(call)
        assert messages(observation)[-1]["content"] == "yusuf_rossi_9620" and not (terminated or truncated)
        observation, reward, terminated, truncated, info = env.step(call)
    finally:
        env.close()
    assert (reward, terminated, truncated, info["termination"]) == (0.0, False, True, "max_steps")
    assert info["reward_info"] is None  # the scorer does not evaluate an episode the step limit cut (τ², taumesh)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step("hello")


def test_bad_input_gets_clear_errors(retail: dict[str, Any]) -> None:
    env = AgentEnv(**retail)
    try:
        with pytest.raises(RuntimeError, match="call reset"):
            env.step("hello")
        with pytest.raises(ValueError, match="has no task '9999'"):
            env.reset(options={"task_id": "9999"})
        with pytest.raises(ValueError, match="unknown reset options"):
            env.reset(options={"task": "1"})
        with pytest.raises(ValueError, match="no data for domain 'retial'"):
            env.reset(options={"domain": "retial"})
        with pytest.raises(ValueError, match="has no split 'nope'"):
            env.reset(options={"task_split": "nope"})
        env.reset(options={"task_id": "0"})
        with pytest.raises(ValueError, match="arguments of 'get_user_details' must be a JSON object"):
            env.step('{"name": "get_user_details", "arguments": [1]}')
        observation, *_ = env.step('{"name": "get_user_details", "arguments": {"user_id": "yusuf_rossi_9620"}}')
        assert '"name":"get_user_details"' in observation  # the refused action left the turn open
    finally:
        env.close()
    with pytest.raises(Exception, match="extra"):
        AgentEnv(domian="retail")


def test_given_addresses_are_used_and_close_ends_the_session_and_the_stack(
    env_server: EnvServerThread, retail: dict[str, Any]
) -> None:
    env = AgentEnv(**retail, addresses={"env": env_server.server.address})
    env.reset(options={"task_id": "0"})
    assert env_server.open_sessions == 1  # the episode's session is in the given env service
    env.reset(options={"task_id": "1"})
    assert env_server.open_sessions == 1  # the episode given up was closed
    env.close()
    assert env_server.open_sessions == 0
    assert not [t for t in threading.enumerate() if t.name.startswith("taumesh-gym")]
    env.close()  # again: harmless


RETRY_AFTER_S = 0.2


def test_the_users_calls_take_permits_and_their_429s_reach_the_limiter(
    fake: FakeOpenAI, retail: dict[str, Any], retail_tasks: list[Task]
) -> None:
    user = ScriptedLlmUser(TaskIndex(retail_tasks))
    fake.reset(lambda request, ordinal: rate_limited(str(RETRY_AFTER_S)) if ordinal % 2 == 0 else user(request))
    env = gym.make(
        AGENT_ENV_ID,
        **retail,
        user={"strategy": "llm-taumesh", "model": {"model": USER_MODEL, "provider": "openai", "api_base": fake.url}},
        # the seat's side: the caller answers it, so its turns take no permit even when it names a model
        agent={"strategy": "tool-calling", "model": {"model": AGENT_MODEL, "provider": "openai"}},
        provider_limits=["openai=1"],
    )
    try:
        env.reset(options={"task_id": "1"})
        reward, terminated, _, _ = play_gold(env, retail_tasks[1])
        [openai] = env.unwrapped.provider_stats()  # type: ignore[attr-defined]  # gym.make wraps the env
    finally:
        env.close()
    assert (reward, terminated) == (1.0, True)
    served = fake.served
    assert [s.reply.status for s in served] == [429, 200, 429, 200]  # the opening message, then the stop
    # every 429 reached the limiter (none retried inside the service); the seat's turns took no permit
    assert (openai["cap"], openai["rate_limited"], openai["calls"], openai["in_flight"]) == (1, 2, 2, 0)
    for refused, again in zip(served[::2], served[1::2], strict=True):
        assert again.received_at - refused.received_at >= RETRY_AFTER_S  # the Retry-After waited out


def test_without_limits_no_permit_is_taken(fake: FakeOpenAI, retail: dict[str, Any]) -> None:
    env = gym.make(AGENT_ENV_ID, **retail)
    try:
        env.reset(options={"task_id": "1"})
        assert env.unwrapped.provider_stats() == []  # type: ignore[attr-defined]
    finally:
        env.close()


def test_an_environment_runs_taumesh_runs_pre_flight_before_its_first_episode(
    retail: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A simulated user whose model has no key here is refused at the first reset of its domain, before the episode
    starts, naming the setting, as taumesh run does."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    user = {"strategy": "llm-taumesh", "model": {"model": "gpt-4o", "provider": "openai"}}
    env = gym.make(AGENT_ENV_ID, **retail, user=user)
    try:
        with pytest.raises(ValueError, match=r"user_model: --user-model 'gpt-4o' needs OPENAI_API_KEY"):
            env.reset(options={"task_id": "0"})
    finally:
        env.close()
