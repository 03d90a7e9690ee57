"""The state the grader compares: every table but ``portals``, the client's own sign-in state and device files.

What the client does in their portal that matters reaches the agency's tables: an upload becomes a document, a
signature a signed record. Whether they are signed in, or which of their files they have looked at, is theirs.
Leaving it out keeps a client who signs in to look around (a simulated user can) from failing the agent's task.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taumesh.domains import DataHasher

CLIENT_SIDE = frozenset({"portals"})


class AgencyHasher:
    """τ-bench v1's data hash over the agency's tables, :data:`CLIENT_SIDE` left out."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._inner = DataHasher({name: table for name, table in base.items() if name not in CLIENT_SIDE})

    def hash(self, data: Mapping[str, Any]) -> str:
        """The hash of ``data``'s agency tables."""
        return self._inner.hash({name: table for name, table in data.items() if name not in CLIENT_SIDE})
