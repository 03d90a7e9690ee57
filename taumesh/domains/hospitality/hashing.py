"""The state hash: the hotel's tables only. The guest's phone is theirs, outside the reward.

What the guest does in the hotel app matters through what they read out, which the agent's writes carry (the code
that verifies them, the device code a mobile key is issued to). Leaving the phones out keeps an episode's hash the
same whether or not a replay runs the guest's own calls (τ-bench-layout results record the agent's calls only), and
a guest who opens the app unasked changes nothing the grader sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

GUEST_SIDE = frozenset({"phones"})


class HotelHasher:
    """τ-bench v1's data hash over every table but :data:`GUEST_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in GUEST_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in GUEST_SIDE})
