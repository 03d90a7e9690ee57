"""The trace store: one JSONL file per rollout under the directory the server was started with.

Only the server chooses the directory; a rollout id names a file inside it only after
:func:`~taumesh.gateway.signing.valid_rollout_id` (letters, digits, ``_``, ``-``), so no request reaches another path.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from taumesh.gateway.records import ModelCallTrace
from taumesh.gateway.signing import valid_rollout_id


class TraceStore:
    """Appends each rollout's calls in order (``index`` 0, 1, …) and reads them back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self._next: dict[str, int] = {}
        self._lock = asyncio.Lock()

    def path(self, rollout_id: str) -> Path:
        """The rollout's file; ValueError for an id that could name anything else."""
        if not valid_rollout_id(rollout_id):
            raise ValueError(f"not a rollout id: {rollout_id[:200]!r}")
        return self.root / f"{rollout_id}.jsonl"

    async def append(self, rollout_id: str, make: Callable[[int], ModelCallTrace]) -> ModelCallTrace:
        """Record the rollout's next call: ``make(index)`` builds it with its 0-based index."""
        path = self.path(rollout_id)
        async with self._lock:  # one writer per store: indices in order, lines whole
            if rollout_id not in self._next:
                self._next[rollout_id] = len(self._read(path))
            trace = make(self._next[rollout_id])
            with path.open("a", encoding="utf-8") as sink:
                sink.write(trace.model_dump_json() + "\n")
            self._next[rollout_id] += 1
        return trace

    def read(self, rollout_id: str) -> list[ModelCallTrace]:
        """The rollout's calls in order (empty when it made none)."""
        return self._read(self.path(rollout_id))

    @staticmethod
    def _read(path: Path) -> list[ModelCallTrace]:
        if not path.exists():
            return []
        lines = path.read_text(encoding="utf-8").splitlines()
        return [ModelCallTrace.model_validate_json(line) for line in lines if line.strip()]
