"""Agent strategies by name: a registry, not an if-chain. Entries import their module on first use."""

from __future__ import annotations

import pkgutil
from collections.abc import Callable
from typing import cast

from taumesh.domains import Catalog
from taumesh.registry import Lazy
from taumesh.services.agent.strategies.base import AgentStrategy, AgentTurn

StrategyFactory = Callable[[Catalog], AgentStrategy]

STRATEGIES: dict[str, Lazy[AgentStrategy]] = {
    "oracle": Lazy("taumesh.services.agent.strategies.oracle:OracleAgent"),
    "tool-calling": Lazy("taumesh.services.agent.strategies.tool_calling:ToolCallingAgent"),
    "act": Lazy("taumesh.services.agent.strategies.text_actions:TextActionAgent"),
    "react": Lazy("taumesh.services.agent.strategies.text_actions:ReactAgent"),
    "few-shot": Lazy("taumesh.services.agent.strategies.few_shot:FewShotAgent"),
    "a2a": Lazy("taumesh.services.agent.strategies.a2a:A2AAgent"),
    "dialogflow-cx": Lazy("taumesh.services.agent.strategies.dialogflow_cx:DialogflowCxAgentStrategy"),
    "decibel": Lazy("taumesh.services.agent.strategies.dialogflow_cx:DialogflowCxAgentStrategy"),
    "null": Lazy("taumesh.services.agent.strategies.null:NullAgent"),
}
"""Every built-in agent strategy (``decibel`` is the τ-bench fork's name of ``dialogflow-cx``; ``null`` refuses)."""


def strategy_class(name: str) -> type[AgentStrategy]:
    """The class registered as ``name``, its module imported (a model-calling strategy's brings litellm)."""
    return cast("type[AgentStrategy]", pkgutil.resolve_name(STRATEGIES[name].target))


def calls_model(name: str) -> bool:
    """Whether agent strategy ``name`` calls a model with the run's model settings, as its class declares.

    A name not registered here (an external agent's own) is taken to: nothing here can say it does not.
    """
    return name not in STRATEGIES or strategy_class(name).calls_model


__all__ = ["STRATEGIES", "AgentStrategy", "AgentTurn", "StrategyFactory", "calls_model", "strategy_class"]
