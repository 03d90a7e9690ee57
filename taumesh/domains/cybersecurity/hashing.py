"""The state hash: the desk's tables only. An employee's phone is theirs, outside the reward.

What an employee does on their phone reaches the desk through the code they read out, which the desk's writes carry.
Leaving the phone out keeps an episode's hash the same whether or not a simulated employee opens an app unasked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

EMPLOYEE_SIDE = frozenset({"phones"})


class DeskHasher:
    """τ-bench v1's data hash over every table but :data:`EMPLOYEE_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in EMPLOYEE_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in EMPLOYEE_SIDE})
