"""Agent strategies by name: a registry, not an if-chain."""

from __future__ import annotations

from collections.abc import Callable

from services.agent.strategies.base import AgentStrategy, AgentTurn
from services.agent.strategies.oracle import OracleAgent
from taumesh.domains import Catalog

StrategyFactory = Callable[[Catalog], AgentStrategy]

STRATEGIES: dict[str, StrategyFactory] = {
    "oracle": OracleAgent,
}
"""Every built-in agent strategy. LLM strategies register here too."""

__all__ = ["STRATEGIES", "AgentStrategy", "AgentTurn", "StrategyFactory"]
