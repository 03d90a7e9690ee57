"""The state hash: the desk's books only. The caller's portal is theirs, outside the reward.

What a caller does in their portal reaches the books through what they read out, which the agent's writes carry (a
code, a credit note's figures, an approval reference). Leaving the portal out keeps a simulated caller who looks
around their own portal from changing the graded state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

CALLER_SIDE = frozenset({"portals"})


class BooksHasher:
    """τ-bench v1's data hash over every table but :data:`CALLER_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in CALLER_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in CALLER_SIDE})
