"""Group rollouts served over gRPC (``taumesh serve rollout``) and REST (``POST /v1/rollouts``).

- :mod:`.plays`: what the server decides (:class:`RolloutOperator`: data, services, endpoints, allowed models), the
  checks every request passes before any episode plays (the REST API's run checks), and the stream of episodes.
- :mod:`.wire`: a :class:`~taumesh.rollout.RolloutEpisode` as the ``taumesh.rollout.v1`` message, and back.
- :mod:`.servicer`: ``taumesh.rollout.v1.RolloutService`` and the server that serves it with health checking.

See docs/rollouts.md, "Over gRPC, REST and the CLI".
"""

from taumesh.rollout.server.plays import RolloutOperator, RolloutRefused, check_rollouts, play_rollouts
from taumesh.rollout.server.servicer import RolloutServicer, rollout_service, serve_rollouts
from taumesh.rollout.server.wire import episode_from_message, episode_message, request_from_message

__all__ = [
    "RolloutOperator",
    "RolloutRefused",
    "RolloutServicer",
    "check_rollouts",
    "episode_from_message",
    "episode_message",
    "play_rollouts",
    "request_from_message",
    "rollout_service",
    "serve_rollouts",
]
