"""User-simulation strategies by name. Entries import their module on first use."""

from __future__ import annotations

from taumesh.registry import Lazy
from taumesh.services.strategy_classes import calls_model as registered_calls_model
from taumesh.services.user_sim.strategies.base import TurnCheck, UserReply, UserStrategy, UserTurn

STRATEGIES: dict[str, Lazy[UserStrategy]] = {
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
    "strict": Lazy("taumesh.services.user_sim.strategies.strict:StrictUser"),
    "strict-taumesh": Lazy("taumesh.services.user_sim.strategies.strict:StrictLlmUser"),
}
"""Every user strategy the service runs. ``llm``, ``react``, ``verify`` and ``reflection`` are τ-bench v1's users
(its prompts, from the imported data); the ``-taumesh`` ones are taumesh's own prompts, not comparable with
τ-bench's leaderboard. ``strict`` and ``strict-taumesh`` (listed last, added after the others) are
``llm`` and ``llm-taumesh`` with each message checked against the instruction by a second model call
(:mod:`.strict`)."""


def calls_model(name: str) -> bool:
    """Whether user strategy ``name`` calls a model with the run's user model settings, as its class declares.

    (:attr:`UserStrategy.calls_model`; a name not registered here, a remote service's own, is taken to.)
    """
    return registered_calls_model(STRATEGIES, name)


__all__ = ["STRATEGIES", "TurnCheck", "UserReply", "UserStrategy", "UserTurn", "calls_model"]
