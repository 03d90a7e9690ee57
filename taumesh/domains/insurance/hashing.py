"""The state the grader compares: the insurer's tables, not the policyholder's phone.

What happens on the phone (unlocking it, the texts that arrive) reaches the insurer only through what the
policyholder reads out or uploads, which the insurer's tables record (a confirmed code, a received document).
Leaving ``devices`` out keeps a state the same however often the phone was unlocked or a text resent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

PHONE_TABLES = frozenset({"devices"})


class InsurerHasher:
    """τ-bench v1's data hash over the insurer's tables (every table but :data:`PHONE_TABLES`)."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._hasher = DataHasher(self._insurer(base))

    @staticmethod
    def _insurer(data: Mapping[str, Any]) -> dict[str, Any]:
        return {name: table for name, table in data.items() if name not in PHONE_TABLES}

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._hasher.hash(self._insurer(data))
