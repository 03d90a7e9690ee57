"""The vectorised Gym env: sub-environments over one set of services, batched, autoreset, their sessions released.

Hospitality (a τ++ factory domain) with the scripted user; the env service runs apart so its sessions can be counted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from taumesh.domains import Task, load_domain
from taumesh.orchestrator.gym import AGENT_ENV_ID, ActionError, AgentVectorEnv
from tests.helpers.gym import EnvServerThread

TASKS = {task.id: task for task in load_domain("hospitality", Path()).tasks("base")}
IDS = ["cancel_reservation-w1-01", "cancel_reservation-w1-01", "cancel_reservation-w1-03", "cancel_reservation-w1-05"]


@pytest.fixture(scope="module")
def env_server() -> Iterator[EnvServerThread]:
    running = EnvServerThread(Path())
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def settings(env_server: EnvServerThread) -> dict[str, Any]:
    return {"domain": "hospitality", "task_split": "base", "addresses": {"env": env_server.server.address}}


def gold(task: Task, step: int) -> str:
    """The task's gold action number ``step`` as a JSON tool call, then its outputs in words."""
    actions = task.agent_actions()
    if step < len(actions):
        return json.dumps({"name": actions[step].name, "arguments": actions[step].kwargs})
    return " ".join(task.outputs) or "Done. Anything else?"


def messages(observation: str) -> list[dict[str, Any]]:
    return list(json.loads(observation)["messages"])


def test_four_sub_envs_play_their_tasks_to_the_end_batched_and_autoreset(
    settings: dict[str, Any], env_server: EnvServerThread
) -> None:
    envs = gym.make_vec(AGENT_ENV_ID, num_envs=4, **settings)
    assert isinstance(envs, AgentVectorEnv) and envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    try:
        observations, infos = envs.reset(seed=0, options={"task_id": IDS})
        assert env_server.open_sessions == 4, "one env session per sub-environment, in the one env service"
        assert (
            isinstance(observations, tuple) and len(observations) == 4 and envs.observation_space.contains(observations)
        )
        assert list(infos["task_id"]) == IDS and infos["_task_id"].all()
        assert [messages(o)[0]["content"] for o in observations] == [TASKS[t].instruction for t in IDS]
        steps, first_rewards = [0] * 4, [None] * 4
        ended = np.zeros(4, dtype=np.bool_)
        while not all(reward is not None for reward in first_rewards):
            actions = tuple(gold(TASKS[IDS[i]], steps[i]) for i in range(4))
            was_ended = ended
            observations, rewards, terminations, truncations, infos = envs.step(actions)
            assert rewards.shape == terminations.shape == truncations.shape == (4,) and rewards.dtype == np.float64
            for i in range(4):
                steps[i] += 1
                if was_ended[i]:  # next-step autoreset: the action was ignored, a new episode of its task began
                    assert (rewards[i], terminations[i], truncations[i], infos["step"][i]) == (0.0, False, False, 0)
                    assert infos["task_id"][i] == IDS[i] and len(messages(observations[i])) == 1
                    steps[i] = 0
                elif terminations[i] and first_rewards[i] is None:
                    first_rewards[i] = rewards[i]
                    assert infos["termination"][i] == "user_stop" and infos["_termination"][i]
            ended = terminations | truncations
        assert first_rewards == [1.0] * 4
        assert not truncations.any()
        assert 0 < ended.sum() < 4, "the sub-environments ended at different steps"
        assert env_server.open_sessions == 4 - ended.sum(), "a session per episode in play (autoreset ones too)"
    finally:
        envs.close()
    assert env_server.open_sessions == 0, "closing gave up every episode in play and closed its session"
    envs.close()  # again: harmless


def test_same_step_autoreset_returns_the_final_observation_in_info(settings: dict[str, Any]) -> None:
    task = TASKS[IDS[0]]
    envs = gym.make_vec(AGENT_ENV_ID, num_envs=2, autoreset_mode="SameStep", **settings)
    try:
        envs.reset(options={"task_id": IDS[0]})  # one task for both
        for step in range(len(task.agent_actions()) + 1):
            observations, rewards, terminations, _, infos = envs.step((gold(task, step), gold(task, step)))
        assert list(rewards) == [1.0, 1.0] and terminations.all()
        assert all(messages(final)[-1] == {"role": "user", "content": "###STOP###"} for final in infos["final_obs"])
        assert list(infos["final_info"]["reward_info"]["reward"]) == [1.0, 1.0]  # batched all the way down
        assert all(len(messages(observation)) == 1 for observation in observations), "already the next episode"
        assert list(infos["step"]) == [0, 0]
    finally:
        envs.close()


def test_a_bad_action_is_refused_before_any_sub_env_moves_and_a_masked_reset_resets_only_some(
    settings: dict[str, Any],
) -> None:
    task = TASKS[IDS[0]]
    envs = gym.make_vec(AGENT_ENV_ID, num_envs=2, autoreset_mode="Disabled", **settings)
    try:
        envs.reset(options={"task_id": IDS[0]})
        envs.step((gold(task, 0), gold(task, 0)))
        with pytest.raises(ActionError, match="must be a JSON object"):
            envs.step((gold(task, 1), '{"name": "find_guest", "arguments": [1]}'))
        _, _, _, _, infos = envs.step((gold(task, 1), gold(task, 1)))
        assert list(infos["step"]) == [2, 2], "the refused step moved neither sub-environment"
        observations, infos = envs.reset(options={"task_id": IDS[2], "reset_mask": np.array([False, True])})
        assert list(infos["_task_id"]) == [False, True] and infos["task_id"][1] == IDS[2]
        assert len(messages(observations[0])) > 1 and len(messages(observations[1])) == 1
        with pytest.raises(ValueError, match="3 values for 2 environments"):
            envs.reset(options={"task_id": IDS[:3]})
    finally:
        envs.close()
