"""Agent strategies by name: a registry, not an if-chain. Entries import their module on first use."""

from __future__ import annotations

from collections.abc import Callable

from taumesh.domains import Catalog
from taumesh.registry import Lazy
from taumesh.services.agent.strategies.base import AgentStrategy, AgentTurn

StrategyFactory = Callable[[Catalog], AgentStrategy]

STRATEGIES: dict[str, StrategyFactory] = {
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
WITHOUT_MODEL = frozenset({"oracle", "null", "dialogflow-cx", "decibel"})
"""Strategies that call no model of taumesh's."""
WITHOUT_PROVIDER = WITHOUT_MODEL | {"a2a"}
"""Strategies whose calls reach no model provider of the run's (``a2a``'s model names its transport)."""

__all__ = ["STRATEGIES", "WITHOUT_MODEL", "WITHOUT_PROVIDER", "AgentStrategy", "AgentTurn", "StrategyFactory"]
