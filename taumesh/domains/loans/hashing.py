"""The state hash: the lender's tables only. The borrower's app is theirs, outside the reward.

What the borrower does in the app reaches the lender through what they read out, which the agent's writes carry (a
code, a mandate or consent reference, a pay slip's figures). Leaving the app out keeps an episode's hash the same
whether or not a replay runs the borrower's own calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

BORROWER_SIDE = frozenset({"portals"})


class LenderHasher:
    """τ-bench v1's data hash over every table but :data:`BORROWER_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in BORROWER_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in BORROWER_SIDE})
