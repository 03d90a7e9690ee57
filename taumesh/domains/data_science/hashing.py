"""The state hash: the desk's tables only. A data owner's approval app is theirs, outside the reward.

What an owner does in the app reaches the desk through the code they read out, which a grant carries. Leaving the
app out keeps an episode's hash the same whether or not a simulated owner looks around in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

OWNER_SIDE = frozenset({"approval_apps"})


class GradedTablesHasher:
    """τ-bench v1's data hash over every table but :data:`OWNER_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in OWNER_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in OWNER_SIDE})
