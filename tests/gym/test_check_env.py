"""Both Gym environments pass Gymnasium's own checker, made through the registry."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import taumesh.orchestrator.gym as taumesh_gym


@pytest.mark.parametrize("env_id", [taumesh_gym.AGENT_ENV_ID, taumesh_gym.USER_ENV_ID])
def test_check_env_passes_on_retail(env_id: str, retail: dict[str, Any]) -> None:
    env = gym.make(env_id, **retail)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
    finally:
        env.close()
    # determinism is exact, not merely "similar"; a text environment declares no frame rate
    assert [str(w.message) for w in caught if "render fps" not in str(w.message)] == []


@pytest.mark.parametrize("env_id", [taumesh_gym.AGENT_ENV_ID, taumesh_gym.USER_ENV_ID])
def test_check_env_passes_on_tau2_mock(env_id: str, tau2_data: Path) -> None:
    env = gym.make(env_id, domain="tau2-mock")
    try:
        check_env(env.unwrapped)
        observation, info = env.reset(seed=1)
        assert json.loads(observation)["messages"] or "instruction" in info
    finally:
        env.close()


def test_registered_on_import_and_made_by_module_path(retail: dict[str, Any]) -> None:
    assert taumesh_gym.AGENT_ENV_ID in gym.registry and taumesh_gym.USER_ENV_ID in gym.registry
    taumesh_gym.register()  # again: harmless
    env = gym.make("taumesh.orchestrator.gym:taumesh/AgentEnv-v0", **retail)
    try:
        assert isinstance(env.unwrapped, taumesh_gym.AgentEnv)
        assert env.unwrapped.config.domain == "retail"
    finally:
        env.close()


def test_the_public_name_taumesh_gym_registers_and_makes_the_same_environments() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gymnasium as gym, taumesh.gym as g; "
            "assert g.AGENT_ENV_ID in gym.registry and g.USER_ENV_ID in gym.registry; "
            "env = gym.make('taumesh.gym:taumesh/UserEnv-v0', domain='tau2-mock'); "
            "assert isinstance(env.unwrapped, g.UserEnv); print('made')",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "made" in done.stdout, done.stderr
