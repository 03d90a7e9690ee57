"""User-simulation strategies by name. Entries import their module on first use."""

from __future__ import annotations

from collections.abc import Callable

from services.user_sim.strategies.base import UserReply, UserStrategy, UserTurn
from taumesh.registry import Lazy

STRATEGIES: dict[str, Callable[[], UserStrategy]] = {
    "scripted": Lazy("services.user_sim.strategies.scripted:ScriptedUser"),
    "llm": Lazy("services.user_sim.strategies.llm:LlmUser"),
    "react": Lazy("services.user_sim.strategies.react:ReactUser"),
    "verify": Lazy("services.user_sim.strategies.verify:VerifyUser"),
    "reflection": Lazy("services.user_sim.strategies.verify:ReflectionUser"),
    "human": Lazy("services.user_sim.strategies.human:HumanUser"),
}
"""Every user strategy the service runs."""

__all__ = ["STRATEGIES", "UserReply", "UserStrategy", "UserTurn"]
