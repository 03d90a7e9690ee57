"""The state hash: the desk's tables only. An operator's console is theirs, outside the reward.

What an operator does on the console reaches the desk through the approval code they read out, which the desk's
writes carry. Leaving the console out keeps an episode's hash the same whether or not a simulated operator looks
around on it, or a replay runs their own calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

OPERATOR_SIDE = frozenset({"consoles"})


class DeskHasher:
    """τ-bench v1's data hash over every table but :data:`OPERATOR_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in OPERATOR_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in OPERATOR_SIDE})
