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
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains._cow import CowTable

CHECKPOINT_BYTES = 16 * 1024
"""How far apart the saved SHA-256 states of a base text are: a session's hash re-hashes at most this much
of the base text before its first changed record (16 KiB: a few µs of SHA-256; ~100 states for retail)."""


@dataclass
class TableSpan:
    """Where one table's text lies in a :class:`CheckpointedText`, and each of its records' text."""

    start: int
    end: int = 0
    records: dict[Any, tuple[int, int]] = field(default_factory=dict)
    """Byte range of each record's text, by record key."""


Swaps = list[tuple[int, int, bytes]]
"""Byte ranges ``[start, end)`` of a :class:`CheckpointedText` and the bytes that replace them, by ``start``."""

RecordText = Callable[[str, Any, Any], str]
"""Renders one record: ``(table name, key, record) -> text``, as in the hashed text."""
TableText = Callable[[str, Any], str]
"""Renders one whole table: ``(table name, table) -> text``."""


class CheckpointedText:
    """A hashed text of the base data, encoded, with the SHA-256 state every :data:`CHECKPOINT_BYTES` of it.

    Built piece by piece (:meth:`add`, :meth:`add_table`, then :meth:`seal`); :meth:`hash` gives the SHA-256
    of the text with some byte ranges replaced, resuming from the last state before the first of them.
    """

    def __init__(self) -> None:
        self._pieces: list[bytes] = []
        self.size = 0
        self.tables: dict[str, TableSpan] = {}
        self.data = b""
        self.offsets: list[int] = []
        """Ascending byte offsets, the first 0; ``states[i]`` is the SHA-256 of ``data[:offsets[i]]``."""
        self.states: list[Any] = []  # hashlib's SHA-256 objects (their type is private)

    def add(self, text: str) -> tuple[int, int]:
        """Append ``text``; its byte range."""
        piece = text.encode("utf-8")
        self._pieces.append(piece)
        self.size += len(piece)
        return self.size - len(piece), self.size

    def add_table(self, name: str, opening: str, records: Mapping[Any, str], closing: str) -> None:
        """Append table ``name``: ``opening``, its ``records``' texts in their order joined by ``", "``, ``closing``."""
        span = self.tables[name] = TableSpan(start=self.size)
        self.add(opening)
        for index, (key, text) in enumerate(records.items()):
            if index:
                self.add(", ")
            span.records[key] = self.add(text)
        self.add(closing)
        span.end = self.size

    def seal(self) -> None:
        """Join the pieces and save the SHA-256 state every :data:`CHECKPOINT_BYTES`."""
        self.data = b"".join(self._pieces)
        self._pieces = []
        sha = hashlib.sha256()
        self.offsets, self.states = [0], [sha.copy()]
        view = memoryview(self.data)
        for offset in range(CHECKPOINT_BYTES, len(self.data), CHECKPOINT_BYTES):
            sha.update(view[self.offsets[-1] : offset])
            self.offsets.append(offset)
            self.states.append(sha.copy())

    def session_swaps(
        self, data: Mapping[str, Any], base: Mapping[str, Any], record_text: RecordText, table_text: TableText
    ) -> Swaps | None:
        """The byte ranges of this text that a session's ``data`` renders otherwise, with their new bytes.

        A changed record of a table that kept the base's keys swaps that record's text (the text keeps the
        base's order then); a table that added or deleted records swaps its whole text. A swap that gives
        the base's bytes back (a record copied but left unchanged) is left out, so two sessions with equal
        swaps have equal texts. None when ``data`` is not a session over ``base`` (then hash its whole text).
        """
        if data.keys() != base.keys():
            return None
        swaps = []
        for name, span in self.tables.items():
            table = data[name]
            if not isinstance(table, CowTable) or table.base is not base[name]:
                return None
            if table.pristine:
                continue
            if table.same_keys:
                for key in table.changed_keys():
                    start, end = span.records[key]
                    swaps.append((start, end, record_text(name, key, table[key]).encode("utf-8")))
            else:
                swaps.append((span.start, span.end, table_text(name, table).encode("utf-8")))
        view = memoryview(self.data)
        return sorted(swap for swap in swaps if view[swap[0] : swap[1]] != swap[2])

    def hash(self, swaps: Swaps) -> str:
        """SHA-256 of this text with each byte range ``[start, end)`` of ``swaps`` (disjoint, by start) replaced."""
        at = bisect_right(self.offsets, swaps[0][0] if swaps else len(self.data)) - 1
        sha, offset = self.states[at].copy(), self.offsets[at]
        view = memoryview(self.data)
        for start, end, text in swaps:
            sha.update(view[offset:start])
            sha.update(text)
            offset = end
        sha.update(view[offset:])
        digest: str = sha.hexdigest()
        return digest


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""Types ``to_hashable`` returns as they are, told by ``type()`` first: most values of a record are one of them, and
an ``isinstance`` check against ``Mapping`` (an ABC) costs several times more."""


def to_hashable(value: Any) -> Any:
    """Turn nested dicts, lists and sets into tuples exactly as τ-bench's ``to_hashable`` does."""
    if type(value) in _LEAVES:
        return value
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


def _record_text_of(table: str, key: Any, record: Any) -> str:
    return _record_text(key, record)


class BaseTableText:
    """The rendered text of one immutable base table, record by record, in hash (sorted) order."""

    def __init__(self, table: Mapping[Any, Any]) -> None:
        self.sorted_keys: list[Any] = sorted(table)
        self.fragments: dict[Any, str] = {key: _record_text(key, table[key]) for key in table}
        self.text = _tuple_text([self.fragments[key] for key in self.sorted_keys])


class DataHasher:
    """Hashes a session's data, reusing the base text of every record the session left alone."""

    def __init__(self, base: Mapping[str, Mapping[Any, Any]]) -> None:
        self._base = base
        self._tables = {name: BaseTableText(table) for name, table in base.items()}
        self._text = CheckpointedText()
        """The base data's whole text, encoded, with checkpoints: a session's hash resumes from it."""
        self._text.add("(")
        for index, name in enumerate(sorted(self._tables)):
            if index:
                self._text.add(", ")
            self._text.add(f"({name!r}, ")
            table = self._tables[name]
            records = {key: table.fragments[key] for key in table.sorted_keys}
            self._text.add_table(name, "(", records, ",)" if len(records) == 1 else ")")
            self._text.add(")")
        self._text.add(",)" if len(self._tables) == 1 else ")")
        self._text.seal()

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
        """``consistent_hash(to_hashable(data))`` for a session's data (resumed from a checkpoint of the base's)."""
        swaps = self._text.session_swaps(data, self._base, _record_text_of, self.table_text)
        if swaps is not None:
            return self._text.hash(swaps)
        parts = [
            f"({name!r}, {self.table_text(name, table)})"
            if isinstance(table, Mapping)
            else str((name, to_hashable(table)))
            for name, table in sorted(data.items())
        ]
        return hashlib.sha256(_tuple_text(parts).encode("utf-8")).hexdigest()
