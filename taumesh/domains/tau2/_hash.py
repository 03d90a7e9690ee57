"""τ²'s database hash, computed incrementally.

τ² hashes ``json.dumps(db.model_dump(), sort_keys=True, default=str)`` with SHA-256. The base data is
that dump already (normalised by the rebuilt models), so the text is ``json.dumps`` of the session's
tables; the text of every base record is rendered once per process, and a session re-renders only
the records it changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from taumesh.domains._cow import CowTable


def record_text(key: str, record: Any) -> str:
    """One ``"key": value`` member of a sorted JSON object, as ``json.dumps(sort_keys=True)`` writes it."""
    return f"{json.dumps(key)}: {json.dumps(record, sort_keys=True, default=str)}"


def _object(members: list[str]) -> str:
    return "{" + ", ".join(members) + "}"


class Tau2Hasher:
    """Hashes a session's data as τ²'s ``get_db_hash``, reusing the text of records left untouched."""

    def __init__(self, base: Mapping[str, Any]) -> None:
        self._fragments: dict[str, dict[str, str]] = {
            name: {key: record_text(key, record) for key, record in table.items()}
            for name, table in base.items()
            if isinstance(table, Mapping)
        }
        self._texts = {
            name: _object([fragments[key] for key in sorted(fragments)]) for name, fragments in self._fragments.items()
        }

    def table_text(self, name: str, table: Any) -> str:
        """The JSON text of one table."""
        fragments = self._fragments.get(name)
        if fragments is None or not isinstance(table, CowTable):
            return json.dumps(table if not isinstance(table, Mapping) else dict(table), sort_keys=True, default=str)
        if table.pristine:
            return self._texts[name]
        changed = table.changed_keys()
        return _object(
            [fragments[key] if key not in changed else record_text(key, table[key]) for key in sorted(table)]
        )

    def text(self, data: Mapping[str, Any]) -> str:
        """The exact string τ² hashes."""
        return _object([f"{json.dumps(name)}: {self.table_text(name, data[name])}" for name in sorted(data)])

    def hash(self, data: Mapping[str, Any]) -> str:
        """SHA-256 of :meth:`text`."""
        return hashlib.sha256(self.text(data).encode("utf-8")).hexdigest()
