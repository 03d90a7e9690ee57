"""User-simulation strategies by name. Entries import their module on first use."""

from __future__ import annotations

from collections.abc import Callable

from taumesh.registry import Lazy
from taumesh.services.user_sim.strategies.base import UserReply, UserStrategy, UserTurn

STRATEGIES: dict[str, Callable[[], UserStrategy]] = {
    "scripted": Lazy("taumesh.services.user_sim.strategies.scripted:ScriptedUser"),
    "llm": Lazy("taumesh.services.user_sim.strategies.llm:LlmUser"),
    "react": Lazy("taumesh.services.user_sim.strategies.react:ReactUser"),
    "verify": Lazy("taumesh.services.user_sim.strategies.verify:VerifyUser"),
    "reflection": Lazy("taumesh.services.user_sim.strategies.verify:ReflectionUser"),
    "human": Lazy("taumesh.services.user_sim.strategies.human:HumanUser"),
}
"""Every user strategy the service runs."""

__all__ = ["STRATEGIES", "UserReply", "UserStrategy", "UserTurn"]
