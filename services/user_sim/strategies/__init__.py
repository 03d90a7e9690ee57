"""User-simulation strategies by name. Entries import their module on first use."""

from __future__ import annotations

from collections.abc import Callable

from taumesh.registry import Lazy
from taumesh.services.user_sim.strategies.base import UserReply, UserStrategy, UserTurn

STRATEGIES: dict[str, Callable[[], UserStrategy]] = {
    "scripted": Lazy("taumesh.services.user_sim.strategies.scripted:ScriptedUser"),
    "llm": Lazy("taumesh.services.user_sim.strategies.taubench:TaubenchLlmUser"),
    "react": Lazy("taumesh.services.user_sim.strategies.taubench:TaubenchReactUser"),
    "verify": Lazy("taumesh.services.user_sim.strategies.taubench:TaubenchVerifyUser"),
    "reflection": Lazy("taumesh.services.user_sim.strategies.taubench:TaubenchReflectionUser"),
    "llm-taumesh": Lazy("taumesh.services.user_sim.strategies.llm:LlmUser"),
    "react-taumesh": Lazy("taumesh.services.user_sim.strategies.react:ReactUser"),
    "verify-taumesh": Lazy("taumesh.services.user_sim.strategies.verify:VerifyUser"),
    "reflection-taumesh": Lazy("taumesh.services.user_sim.strategies.verify:ReflectionUser"),
    "human": Lazy("taumesh.services.user_sim.strategies.human:HumanUser"),
}
"""Every user strategy the service runs. ``llm``, ``react``, ``verify`` and ``reflection`` are τ-bench v1's users
(its prompts, from the imported data); the ``-taumesh`` ones are taumesh's own prompts, not comparable with
τ-bench's leaderboard."""
WITHOUT_MODEL = frozenset({"scripted", "human"})
"""Strategies that call no model."""

__all__ = ["STRATEGIES", "WITHOUT_MODEL", "UserReply", "UserStrategy", "UserTurn"]
