"""The graded state: every table but the participant's study app, which is theirs and outside the reward.

What a participant does in the app that matters (signing a consent form, uploading a receipt) lands in the desk's
own tables; leaving the app's sign-in, messages and unsent receipts out means a simulated participant who opens the
app and looks around cannot change the agent's grade.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

APP_SIDE = frozenset({"app_sessions", "app_messages", "app_receipts"})


class TrialDeskHasher:
    """τ-bench v1's data hash over every table but :data:`APP_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in APP_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in APP_SIDE})
