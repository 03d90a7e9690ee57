"""τ-bench v1's data hash, computed incrementally.

The original hashes ``str(to_hashable(data))`` with SHA-256, where ``to_hashable`` turns dicts into
tuples of ``(key, value)`` pairs sorted by key and lists into tuples. That text is Python's own
``repr`` of nested tuples, so we build it with Python's ``repr`` too; what we add is a cache: the
text of every base record is computed once per process, and a session re-renders only the records
it changed.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Mapping
from typing import Any

from taumesh.domains._cow import CowTable


def to_hashable(value: Any) -> Any:
    """Turn nested dicts, lists and sets into tuples exactly as τ-bench's ``to_hashable`` does."""
    if isinstance(value, Mapping):
        return tuple((key, to_hashable(item)) for key, item in sorted(value.items()))
    if isinstance(value, list):
        return tuple(to_hashable(item) for item in value)
    if isinstance(value, set):
        return tuple(sorted(to_hashable(item) for item in value))
    return value


def consistent_hash(value: Any) -> str:
    """SHA-256 of ``str(value)``, τ-bench's ``consistent_hash``."""
    return hashlib.sha256(str(value).encode("utf-8")).hexdigest()


def _tuple_text(parts: list[str]) -> str:
    """Python's ``str()`` of a tuple whose elements render as ``parts``."""
    if len(parts) == 1:
        return f"({parts[0]},)"
    return "(" + ", ".join(parts) + ")"


def _record_text(key: Any, record: Any) -> str:
    return str((key, to_hashable(record)))


class BaseTableText:
    """The rendered text of one immutable base table, record by record, in hash (sorted) order."""

    def __init__(self, table: Mapping[Any, Any]) -> None:
        self.sorted_keys: list[Any] = sorted(table)
        self.fragments: dict[Any, str] = {key: _record_text(key, table[key]) for key in table}
        self.text = _tuple_text([self.fragments[key] for key in self.sorted_keys])


class DataHasher:
    """Hashes a session's data, reusing the base text of every record the session left alone."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._tables = {name: BaseTableText(table) for name, table in base.items()}

    def table_text(self, name: str, table: Mapping[Any, Any]) -> str:
        """Text of ``table`` (named ``name`` in the base data) as ``to_hashable`` renders it."""
        base = self._tables.get(name)
        if base is None or not isinstance(table, CowTable):
            return str(to_hashable(table))
        if table.pristine:
            return base.text
        changed = table.changed_keys()
        new_keys = sorted(key for key in changed if key not in base.fragments)
        parts = [
            base.fragments[key] if key not in changed else _record_text(key, table[key])
            for key in heapq.merge(base.sorted_keys, new_keys)  # both sorted already: no re-sort per hash
            if key in table
        ]
        return _tuple_text(parts)

    def hash(self, data: Mapping[str, Any]) -> str:
        """``consistent_hash(to_hashable(data))`` for a session's data."""
        parts = [
            f"({name!r}, {self.table_text(name, table)})"
            if isinstance(table, Mapping)
            else str((name, to_hashable(table)))
            for name, table in sorted(data.items())
        ]
        return hashlib.sha256(_tuple_text(parts).encode("utf-8")).hexdigest()
