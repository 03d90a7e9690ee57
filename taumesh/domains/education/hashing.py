"""The state hash: every table but the student's portal, which is theirs and outside the reward.

What a student does there that matters reaches graded tables: an upload lands in ``submissions``, and an accepted
offer's code in the booking the desk makes with it. Leaving the portal out keeps a hash the same whether or not a
simulated student signs in early or looks around.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

STUDENT_SIDE = frozenset({"portals"})


class DeskHasher:
    """τ-bench v1's data hash over every table but :data:`STUDENT_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in STUDENT_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in STUDENT_SIDE})
