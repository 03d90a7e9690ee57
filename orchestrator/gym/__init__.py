"""Gymnasium environments over taumesh's services: play the agent (``AgentEnv``) or the user (``UserEnv``).

Importing this module registers them with Gymnasium::

    import gymnasium as gym
    import taumesh.orchestrator.gym  # registers taumesh/AgentEnv-v0 and taumesh/UserEnv-v0

    env = gym.make("taumesh/AgentEnv-v0", domain="retail", data_dir="../shared/taubench_v1")
    observation, info = env.reset(seed=0, options={"task_id": "3"})

``gym.make("taumesh.orchestrator.gym:taumesh/AgentEnv-v0", ...)`` imports and makes in one call.
``gym.make_vec("taumesh/AgentEnv-v0", num_envs=4, ...)`` makes the vectorised form (:mod:`.vector`): four
sub-environments over one set of services.
"""

from __future__ import annotations

import gymnasium as gym

from taumesh.orchestrator.gym.actions import ActionError, parse_action
from taumesh.orchestrator.gym.config import GymConfig
from taumesh.orchestrator.gym.envs import AgentEnv, UserEnv, render_message
from taumesh.orchestrator.gym.vector import AgentVectorEnv, TaumeshVectorEnv, UserVectorEnv

AGENT_ENV_ID = "taumesh/AgentEnv-v0"
"""The environment where the caller plays the agent."""
USER_ENV_ID = "taumesh/UserEnv-v0"
"""The environment where the caller plays the user."""

__all__ = [
    "AGENT_ENV_ID",
    "USER_ENV_ID",
    "ActionError",
    "AgentEnv",
    "AgentVectorEnv",
    "GymConfig",
    "TaumeshVectorEnv",
    "UserEnv",
    "UserVectorEnv",
    "parse_action",
    "register",
    "render_message",
]


def register() -> None:
    """Register both environments with Gymnasium, with their vectorised forms for ``gym.make_vec`` (done on import)."""
    for env_id, entry_point, vector in (
        (AGENT_ENV_ID, AgentEnv, AgentVectorEnv),
        (USER_ENV_ID, UserEnv, UserVectorEnv),
    ):
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point=f"{entry_point.__module__}:{entry_point.__name__}",
                vector_entry_point=f"{vector.__module__}:{vector.__name__}",
            )


register()
