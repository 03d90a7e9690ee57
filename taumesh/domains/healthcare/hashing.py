"""The state hash: the clinic's tables only. The patient's devices are theirs, outside the reward.

What the patient does on their phone matters through what they report, which the agent's writes carry (a code,
a member id, a reading). Leaving the devices out keeps an episode's hash the same whether or not a replay runs
the patient's own calls (τ-bench-layout results record the agent's calls only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

PATIENT_SIDE = frozenset({"devices"})


class ClinicHasher:
    """τ-bench v1's data hash over every table but :data:`PATIENT_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in PATIENT_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in PATIENT_SIDE})
