"""Agent strategies by name: a registry, not an if-chain. Entries import their module on first use."""

from __future__ import annotations

from collections.abc import Callable

from services.agent.strategies.base import AgentStrategy, AgentTurn
from taumesh.domains import Catalog
from taumesh.registry import Lazy

StrategyFactory = Callable[[Catalog], AgentStrategy]

STRATEGIES: dict[str, StrategyFactory] = {
    "oracle": Lazy("services.agent.strategies.oracle:OracleAgent"),
    "tool-calling": Lazy("services.agent.strategies.tool_calling:ToolCallingAgent"),
    "act": Lazy("services.agent.strategies.text_actions:TextActionAgent"),
    "react": Lazy("services.agent.strategies.text_actions:ReactAgent"),
    "few-shot": Lazy("services.agent.strategies.few_shot:FewShotAgent"),
}
"""Every built-in agent strategy."""

__all__ = ["STRATEGIES", "AgentStrategy", "AgentTurn", "StrategyFactory"]
