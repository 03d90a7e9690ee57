"""The state hash: the desk's tables only. The grower's field app is theirs, outside the reward.

What the grower does in the app that matters reaches the desk's tables itself (a synced probe reading) or through
what they read out, which the agent's writes carry (a spray log's reference and rate). Leaving the app out keeps a
simulated grower who signs in and looks around from failing the agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

GROWER_SIDE = frozenset({"field_apps"})


class DeskHasher:
    """τ-bench v1's data hash over every table but :data:`GROWER_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in GROWER_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in GROWER_SIDE})
