"""Group rollouts for training loops: N seeded trials of each task, with trajectories, rewards and reward vectors.

``group_rollouts`` (blocking), ``agroup_rollouts`` (awaitable) and ``stream_rollouts`` (an async iterator, episodes
as they end, with back-pressure) play one ordinary run of the orchestrator; each episode's seed is
:func:`seed_for` of the run's seed, its task and its trial. With ``policy=fn`` the caller's own policy function
plays the agent (:mod:`taumesh.rollout.policy`). :func:`divergences` compares two plays of a group with the same
seed and says whose doing each difference was (:mod:`taumesh.rollout.replay`). See docs/rollouts.md.
"""

from taumesh.orchestrator.run.runner import seed_for
from taumesh.rollout.episodes import RolloutCheck, RolloutEpisode
from taumesh.rollout.policy import Policy, PolicyAnswer, PolicyRequest
from taumesh.rollout.replay import EpisodeDivergence, ProviderChange, ReplayComparison, divergences
from taumesh.rollout.runs import agroup_rollouts, group_rollouts, stream_rollouts

__all__ = [
    "EpisodeDivergence",
    "Policy",
    "PolicyAnswer",
    "PolicyRequest",
    "ProviderChange",
    "ReplayComparison",
    "RolloutCheck",
    "RolloutEpisode",
    "agroup_rollouts",
    "divergences",
    "group_rollouts",
    "seed_for",
    "stream_rollouts",
]
