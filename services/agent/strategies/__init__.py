"""Agent strategies by name: a registry, not an if-chain. Entries import their module on first use."""

from __future__ import annotations

from collections.abc import Callable

from taumesh.domains import Catalog
from taumesh.registry import Lazy
from taumesh.services.agent.strategies.base import AgentStrategy, AgentTurn
from taumesh.services.strategy_classes import calls_model as registered_calls_model

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


def calls_model(name: str) -> bool:
    """Whether agent strategy ``name`` calls a model with the run's model settings, as its class declares.

    (:attr:`AgentStrategy.calls_model`; a name not registered here, an external agent's own, is taken to.)
    """
    return registered_calls_model(STRATEGIES, name)


__all__ = ["STRATEGIES", "AgentStrategy", "AgentTurn", "StrategyFactory", "calls_model"]
