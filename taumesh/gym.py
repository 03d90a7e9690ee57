"""``taumesh.gym``: the Gymnasium environments under their public name (they live in :mod:`taumesh.orchestrator.gym`).

Importing it registers ``taumesh/AgentEnv-v0`` (the caller plays the agent) and ``taumesh/UserEnv-v0`` (the caller
plays the user)::

    import gymnasium as gym
    import taumesh.gym

    env = gym.make("taumesh/AgentEnv-v0", domain="tau2-mock")
"""

from taumesh.orchestrator.gym import *  # noqa: F403 - the public name re-exports exactly that module's API
from taumesh.orchestrator.gym import __all__ as __all__
