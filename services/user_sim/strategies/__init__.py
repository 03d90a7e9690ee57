"""User-simulation strategies by name."""

from __future__ import annotations

from collections.abc import Callable

from services.user_sim.strategies.base import UserReply, UserStrategy, UserTurn
from services.user_sim.strategies.scripted import ScriptedUser

STRATEGIES: dict[str, Callable[[], UserStrategy]] = {
    "scripted": ScriptedUser,
}
"""Every user strategy the service runs. LLM strategies register here too."""

__all__ = ["STRATEGIES", "UserReply", "UserStrategy", "UserTurn"]
