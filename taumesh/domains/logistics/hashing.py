"""The state hash: the desk's tables only. The client's tracking app is theirs, outside the reward.

What a client does in the app reaches the desk through what they read out, which the agent's writes carry (a
passcode, a safe-place or photo reference). Leaving the app out means a client who looks around in it cannot fail
the agent, and a replay's hash is the same whether or not it runs the client's own calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

CLIENT_SIDE = frozenset({"tracking_apps"})


class DeskHasher:
    """τ-bench v1's data hash over every table but :data:`CLIENT_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in CLIENT_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in CLIENT_SIDE})
