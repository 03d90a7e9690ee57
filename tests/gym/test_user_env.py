"""The caller plays the user against a built-in agent; the scorer's reward arrives at the end."""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import pytest

from taumesh.domains import Task
from taumesh.orchestrator.gym import USER_ENV_ID, UserEnv


def messages(observation: str) -> list[dict[str, Any]]:
    return list(json.loads(observation)["messages"])


def test_a_user_against_the_oracle_agent_is_scored_one(retail: dict[str, Any], retail_tasks: list[Task]) -> None:
    task = retail_tasks[2]
    env = gym.make(USER_ENV_ID, **retail, render_mode="ansi")
    try:
        observation, info = env.reset(options={"task_id": "2"})
        assert messages(observation) == [] and info["instruction"] == task.instruction and info["tools"] == []
        observation, reward, terminated, truncated, info = env.step(task.instruction)
        seen = messages(observation)
        assert [m["role"] for m in seen] == ["user", "assistant"]  # the agent's tool calls are not the user's to see
        assert seen[1]["content"] == (" ".join(task.outputs) or seen[1]["content"]) and reward == 0.0
        observation, reward, terminated, truncated, info = env.step("Thanks! ###STOP###")
        assert env.render().splitlines()[-1] == "user: Thanks! ###STOP###"
    finally:
        env.close()
    assert (reward, terminated, truncated, info["termination"]) == (1.0, True, False, "user_stop")


def test_random_user_words_run_to_the_step_limit_and_are_truncated(retail: dict[str, Any]) -> None:
    env = UserEnv(**retail, max_steps=3, agent={"strategy": "oracle"})
    try:
        env.reset(seed=3)
        env.action_space.seed(3)
        for _ in range(10):
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            if terminated or truncated:
                break
    finally:
        env.close()
    assert truncated and not terminated and info["termination"] == "max_steps"
    assert reward == 0.0 and info["reward_info"] is None and info["checks"] == []  # the scorer evaluates no cut episode


def test_a_remote_agent_address_that_is_wrong_fails_clearly(retail: dict[str, Any]) -> None:
    env = UserEnv(**retail, addresses={"agent": "127.0.0.1:1"}, rpc_timeout=2)
    try:
        env.reset(options={"task_id": "0"})
        with pytest.raises(Exception, match="UNAVAILABLE"):
            env.step("Hello")
    finally:
        env.close()
