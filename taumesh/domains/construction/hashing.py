"""The graded state: every table but the caller's portal, which is theirs and outside the reward.

What a caller does there that matters (an upload, a signature) lands in the desk's own tables; leaving the portal's
sign-in and files out means a simulated caller who signs in and looks around cannot change the agent's grade.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

PORTAL_SIDE = frozenset({"portal_sessions", "portal_files"})


class DeskHasher:
    """τ-bench v1's data hash over every table but :data:`PORTAL_SIDE`."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in PORTAL_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        return self._inner.hash({name: table for name, table in data.items() if name not in PORTAL_SIDE})
